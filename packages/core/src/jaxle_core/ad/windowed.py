"""Derivative rules of the windowed reductions (``lax/windowed.py``).

reduce_window_sum is linear; max/min pooling's jvp (``select_and_gather_add``) and its transpose
(``select_and_scatter_add``) transpose into each other; the generic reduce_window carries the tangents as
extra operands. The equations match those JAX 0.10.2 emits.
"""

from __future__ import annotations

import numpy as np

from jaxle_core import core, lax
from jaxle_core.ad.jvp import Zero, instantiate, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import const, defjvp, deflinear, lhs_transpose_padding
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.lax.elementwise import ge_p, le_p
from jaxle_core.lax.reductions import extremum_identity
from jaxle_core.lax.structural import pad_p
from jaxle_core.lax.windowed import (
    reduce_window_max_p,
    reduce_window_min_p,
    reduce_window_p,
    reduce_window_sum_p,
    select_and_gather_add_p,
    select_and_scatter_add_p,
)
from jaxle_core.staging import trace_to_jaxpr

deflinear(reduce_window_sum_p)


def _window_extremum_jvp(primitive, select_prim):
    """reduce_window_max/min: each window's tangent is the one at the position its extremum is first taken from."""

    def rule(primals, tangents, *, window_dimensions, window_strides, padding, base_dilation, window_dilation):
        (x,), (t,) = primals, tangents
        window = dict(window_dimensions=window_dimensions, window_strides=window_strides, padding=padding,
                      base_dilation=base_dilation, window_dilation=window_dilation)
        ans = primitive.bind(x, **window)
        return ans, select_and_gather_add_p.bind(t, x, select_prim=select_prim, **window)

    return rule


jvp_rules[reduce_window_max_p] = _window_extremum_jvp(reduce_window_max_p, ge_p)
jvp_rules[reduce_window_min_p] = _window_extremum_jvp(reduce_window_min_p, le_p)


def _reduce_window_jvp(primals, tangents, *, jaxpr, consts, **window):
    """The generic reduce_window carries the tangents of its differentiable operands as extra operands, reduced
    by the jvp of the computation from zero initial tangents."""
    n = len(primals) // 2
    if any(type(t) is not Zero for t in tangents[n:]):
        raise TypeError("reduce_window jvp does not support non-zero init_value_tangent.")
    operands, inits = primals[:n], primals[n:]
    scalars = [ShapedArray((), get_aval(x).dtype) for x in operands]
    moving = [i for i, s in enumerate(scalars) if tangent_aval(s).dtype == s.dtype]

    def with_zeros(ts, avals):
        """Tangents of values of ``avals``: ``ts`` for the differentiable ones, symbolic zeros elsewhere."""
        full = [Zero(tangent_aval(a)) for a in avals]
        for i, t in zip(moving, ts):
            full[i] = t
        return full

    def computation_jvp(*args):
        x, x_dot = args[:n], args[n:n + len(moving)]
        y, y_dot = args[n + len(moving):2 * n + len(moving)], args[2 * n + len(moving):]
        outs, out_tangents, _ = jvp_flat(lambda *a: (core.eval_jaxpr(jaxpr, consts, *a), None), [*x, *y],
                                         [*with_zeros(x_dot, scalars), *with_zeros(y_dot, scalars)],
                                         transform_stack=False)
        return [*outs, *[instantiate(out_tangents[i]) for i in moving]]

    tangent_scalars = [scalars[i] for i in moving]
    closed = trace_to_jaxpr(computation_jvp, [*scalars, *tangent_scalars, *scalars, *tangent_scalars])
    outs = reduce_window_p.bind(*operands, *[instantiate(tangents[i]) for i in moving], *inits,
                                *[instantiate(Zero(s)) for s in tangent_scalars], jaxpr=closed.jaxpr,
                                consts=tuple(closed.consts), **window)
    return outs[:n], with_zeros(outs[n:], [get_aval(o) for o in outs[:n]])


jvp_rules[reduce_window_p] = _reduce_window_jvp



def _linear_in_first(primitive):
    """select_and_gather_add (the jvp of max/min pooling) is linear in its tangents, select_and_scatter_add (its
    transpose) in its source; the operand only selects positions, so its tangent contributes nothing."""
    return lambda t, ans, first, operand, **params: primitive.bind(t, operand, **params)


for _p in (select_and_gather_add_p, select_and_scatter_add_p):
    defjvp(_p, _linear_in_first(_p), None)


# ---------------------------------------------------------------- transposes: windowed sum


def _reduce_window_sum_transpose(ct, x, *, window_dimensions, window_strides, padding, base_dilation,
                                 window_dilation):
    """Each input element receives the cotangents of the windows covering it: a unit-stride window sum over the
    stride-dilated, padded cotangent, strided by the base dilation."""
    shape = x.aval.shape
    pads = lhs_transpose_padding(shape, window_dimensions, window_strides, get_aval(ct).shape, padding,
                                 base_dilation, window_dilation)
    # JAX's pads here are NumPy integers, and show as such in the printed equation
    config = tuple((np.int64(lo), np.int64(hi), s - 1) for (lo, hi), s in zip(pads, window_strides))
    spread = pad_p.bind(ct, const(ct, 0), padding_config=config)
    ones = (1,) * len(shape)
    return [reduce_window_sum_p.bind(spread, window_dimensions=tuple(window_dimensions),
                                     window_strides=tuple(base_dilation), padding=((0, 0),) * len(shape),
                                     base_dilation=ones, window_dilation=tuple(window_dilation))]


transpose_rules[reduce_window_sum_p] = _reduce_window_sum_transpose


# ---------------------------------------------------------------- transposes: pooling gradients


def _select_and_gather_add_transpose(ct, tangents, operand, *, select_prim, window_dimensions, window_strides,
                                     padding, base_dilation, window_dilation):
    """Scatter each window's cotangent to the position its extremum was taken from. A base-dilated operand is
    dilated explicitly with the identity of the selection (never selected), and the holes sliced away after."""
    if any(d != 1 for d in window_dilation):
        raise NotImplementedError(f"VJP not implemented for select_and_gather (MaxPool) with window dilation, got "
                                  f"window_dilation={tuple(window_dilation)}.")
    dilated = any(d != 1 for d in base_dilation)
    if dilated:
        dtype = get_aval(operand).dtype
        fill = np.asarray(extremum_identity(dtype, select_prim is le_p), dtype)[()]
        operand = lax.pad(operand, fill, [(0, 0, d - 1) for d in base_dilation])
    result = select_and_scatter_add_p.bind(ct, operand, select_prim=select_prim,
                                           window_dimensions=tuple(window_dimensions),
                                           window_strides=tuple(window_strides), padding=tuple(padding))
    if dilated:
        result = lax.slice(result, (0,) * len(base_dilation), get_aval(result).shape, base_dilation)
    return [result, None]


def _select_and_scatter_add_transpose(ct, source, operand, *, select_prim, window_dimensions, window_strides,
                                      padding):
    ones = (1,) * len(window_dimensions)
    return [select_and_gather_add_p.bind(ct, operand, select_prim=select_prim,
                                         window_dimensions=window_dimensions, window_strides=window_strides,
                                         padding=padding, base_dilation=ones, window_dilation=ones), None]


transpose_rules[select_and_gather_add_p] = _select_and_gather_add_transpose
transpose_rules[select_and_scatter_add_p] = _select_and_scatter_add_transpose
