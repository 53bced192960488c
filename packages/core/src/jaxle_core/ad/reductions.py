"""Derivative rules of the reductions (``lax/reductions.py``).

reduce_max/min average the tangent over the positions attaining the extremum; reduce_prod and the generic
reduce are differentiated through a tree of pairwise combinations; reduce_sum is linear and transposes to a
broadcast. The equations match those JAX 0.10.2 emits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import core, dtypes, lax
from jaxle_core.ad.jvp import Zero, instantiate, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import const, deflinear, defzero
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.reductions import (
    argmax_p,
    argmin_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_or_p,
    reduce_p,
    reduce_prod_p,
    reduce_sum_p,
    reduce_xor_p,
)
from jaxle_core.lax.structural import broadcast_in_dim_p

for _p in (argmax_p, argmin_p, reduce_and_p, reduce_or_p, reduce_xor_p):
    defzero(_p)
deflinear(reduce_sum_p)


def _chooser_reduction_jvp(primitive):
    """reduce_max/min: the tangent averaged over the positions that attain the extremum."""

    def rule(primals, tangents, *, axes, **params):
        (x,), (t,) = primals, tangents
        ans = primitive.bind(x, axes=axes, **params)
        shape = get_aval(x).shape
        kept_dims = lax.reshape(ans, tuple(1 if i in axes else d for i, d in enumerate(shape)))
        where = lax.convert_element_type(lax.eq(x, kept_dims), get_aval(t).dtype)
        # The sums take the reduction's axes as they are (numpy integers under vmap), as JAX's jaxprs show them.
        counts = reduce_sum_p.bind(where, axes=axes, out_sharding=None)
        return ans, lax.div(reduce_sum_p.bind(lax.mul(t, where), axes=axes, out_sharding=None), counts)

    return rule


jvp_rules[reduce_max_p] = _chooser_reduction_jvp(reduce_max_p)
jvp_rules[reduce_min_p] = _chooser_reduction_jvp(reduce_min_p)


# ---------------------------------------------------------------- reduce_prod and the generic reduce


def _pairwise_reduce(combine: Callable[[list, list], list], pad_values: Sequence[Any], xs: list) -> list:
    """Reduce each of ``xs`` over its leading axis by combining the first and second halves of the rows
    (``combine(firsts, seconds)``; the odd one out is padded with ``pad_values``) until one row is left.

    Differentiating this tree rather than, for a product, dividing it by each factor keeps the derivative right
    where factors are zero."""
    while get_aval(xs[0]).shape[0] > 1:
        n, rest = get_aval(xs[0]).shape[0], get_aval(xs[0]).shape[1:]
        half = (n + 1) // 2
        zeros, ones = (0,) * len(rest), (1,) * len(rest)
        firsts = [lax.slice(x, (0, *zeros), (half, *rest), (1, *ones)) for x in xs]
        seconds = [lax.slice(x, (half, *zeros), (n, *rest), (1, *ones)) for x in xs]
        if n % 2:
            seconds = [lax.pad(x, value, ((0, 1, 0), *((0, 0, 0),) * len(rest)))
                       for x, value in zip(seconds, pad_values)]
        xs = combine(firsts, seconds)
    return [lax.squeeze(x, (0,)) for x in xs]


def _tree_reduction_jvp(xs: list, ts: list, inits: Sequence[Any], axes: Sequence[int],
                        combine: Callable[[list, list], list]) -> tuple[list, list]:
    """The jvp of reducing ``xs`` over ``axes`` by the associative ``combine`` as a tree of halves.

    As in JAX, ``inits`` only pad odd rows (and fill reductions over nothing); they are not folded in otherwise."""
    shape = get_aval(xs[0]).shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    kept_shape = tuple(shape[i] for i in kept)
    count = math.prod(shape[i] for i in axes)

    def filled(value):
        return lax.broadcast_in_dim(value, kept_shape, ()) if kept_shape else value

    if count == 0:  # a reduction over nothing: the initial values, with derivative zero
        return [filled(i) for i in inits], [t if type(t) is Zero else filled(const(x, 0.0)) for x, t in zip(xs, ts)]
    order = None if tuple(axes) + kept == tuple(range(len(shape))) else tuple(axes) + kept

    def flat(x):
        return x if type(x) is Zero else lax.reshape(x, (count, *kept_shape), order)

    flat_xs, flat_ts = [], []
    for x, t in zip(xs, ts):
        flat_xs.append(flat(x))
        flat_ts.append(flat(Zero(tangent_aval(get_aval(flat_xs[-1]))) if type(t) is Zero else t))
    reduced, reduced_tangents, _ = jvp_flat(lambda *rows: (_pairwise_reduce(combine, inits, list(rows)), None),
                                            flat_xs, flat_ts)
    return reduced, reduced_tangents


def _reduce_prod_jvp(primals, tangents, *, axes):
    (x,), (t,) = primals, tangents
    (ans,), (tangent,) = _tree_reduction_jvp([x], [t], [const(x, 1.0)], axes, lambda a, b: [lax.mul(a[0], b[0])])
    return ans, tangent


jvp_rules[reduce_prod_p] = _reduce_prod_jvp


def _differentiable_tangent(t: Any) -> Any:
    """``t`` with symbolic zeros instantiated, except the ``float0`` tangents of integer and boolean values."""
    return t if type(t) is Zero and t.aval.dtype == dtypes.float0 else instantiate(t)


def _reduce_jvp(primals, tangents, *, computation, jaxpr, dimensions):
    n = len(primals) // 2
    if any(type(t) is not Zero for t in tangents[n:]):
        raise NotImplementedError("Gradient of general lax.reduce with non-zero tangents for initial values to "
                                  "reduction not implemented")

    def combine(firsts, seconds):
        return core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *firsts, *seconds)

    return _tree_reduction_jvp(primals[:n], [_differentiable_tangent(t) for t in tangents[:n]], primals[n:],
                               dimensions, combine)


jvp_rules[reduce_p] = _reduce_jvp


def _reduce_sum_transpose(ct, x, *, axes, out_sharding):
    if not x.aval.shape and not isinstance(ct, core.Tracer):
        return [ct]  # a sum over no axes of a scalar: JAX's broadcast_in_dim returns a concrete 0-d operand as it is
    # JAX computes the kept dimensions with NumPy, and its jaxprs print them as np.int64.
    kept = tuple(np.int64(i) for i in range(len(x.aval.shape)) if i not in axes)
    # laid out as the operand (its type says how, over Explicit mesh axes)
    return [broadcast_in_dim_p.bind(ct, shape=x.aval.shape, broadcast_dimensions=kept,
                                    sharding=getattr(x.aval, "explicit_sharding", None))]


transpose_rules[reduce_sum_p] = _reduce_sum_transpose
