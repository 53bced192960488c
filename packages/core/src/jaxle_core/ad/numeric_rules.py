"""JVP rules of the numeric primitives: reduce_prod and reduce, convolution, windowed reductions and the special
functions.

As in JAX 0.10.2, ``zeta``, ``igamma_grad_a`` and ``random_gamma_grad`` have no rule, and the derivatives of
``polygamma`` in ``m`` and of ``regularized_incomplete_beta`` in ``a`` and ``b`` raise ``ValueError``.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Any

from jaxle_core import core, dtypes, lax
from jaxle_core.ad.jvp import Zero, instantiate, jvp_flat, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import const, defbilinear, defjvp, deflinear, full_like
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax import reductions as red
from jaxle_core.lax import special as spc
from jaxle_core.lax import windowed as win
from jaxle_core.lax.convolution import conv_general_dilated_p
from jaxle_core.staging import trace_to_jaxpr

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


jvp_rules[red.reduce_prod_p] = _reduce_prod_jvp


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


jvp_rules[red.reduce_p] = _reduce_jvp

# ---------------------------------------------------------------- convolution


defbilinear(conv_general_dilated_p)

# ---------------------------------------------------------------- windowed reductions

deflinear(win.reduce_window_sum_p)


def _window_extremum_jvp(primitive, select_prim):
    """reduce_window_max/min: each window's tangent is the one at the position its extremum is first taken from."""

    def rule(primals, tangents, *, window_dimensions, window_strides, padding, base_dilation, window_dilation):
        (x,), (t,) = primals, tangents
        window = dict(window_dimensions=window_dimensions, window_strides=window_strides, padding=padding,
                      base_dilation=base_dilation, window_dilation=window_dilation)
        ans = primitive.bind(x, **window)
        return ans, win.select_and_gather_add_p.bind(t, x, select_prim=select_prim, **window)

    return rule


jvp_rules[win.reduce_window_max_p] = _window_extremum_jvp(win.reduce_window_max_p, ew.ge_p)
jvp_rules[win.reduce_window_min_p] = _window_extremum_jvp(win.reduce_window_min_p, ew.le_p)


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
                                         [*with_zeros(x_dot, scalars), *with_zeros(y_dot, scalars)])
        return [*outs, *[instantiate(out_tangents[i]) for i in moving]]

    tangent_scalars = [scalars[i] for i in moving]
    closed = trace_to_jaxpr(computation_jvp, [*scalars, *tangent_scalars, *scalars, *tangent_scalars])
    outs = win.reduce_window_p.bind(*operands, *[instantiate(tangents[i]) for i in moving], *inits,
                                    *[instantiate(Zero(s)) for s in tangent_scalars], jaxpr=closed.jaxpr,
                                    consts=tuple(closed.consts), **window)
    return outs[:n], with_zeros(outs[n:], [get_aval(o) for o in outs[:n]])


jvp_rules[win.reduce_window_p] = _reduce_window_jvp



def _linear_in_first(primitive):
    """select_and_gather_add (the jvp of max/min pooling) is linear in its tangents, select_and_scatter_add (its
    transpose) in its source; the operand only selects positions, so its tangent contributes nothing."""
    return lambda t, ans, first, operand, **params: primitive.bind(t, operand, **params)


for _p in (win.select_and_gather_add_p, win.select_and_scatter_add_p):
    defjvp(_p, _linear_in_first(_p), None)

# ---------------------------------------------------------------- special functions

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _gaussian(x):
    return lax.exp(lax.neg(lax.square(x)))


defjvp(spc.erf_p, lambda t, ans, x: lax.mul(const(x, _TWO_OVER_SQRT_PI), lax.mul(t, _gaussian(x))))
defjvp(spc.erfc_p, lambda t, ans, x: lax.mul(const(x, -_TWO_OVER_SQRT_PI), lax.mul(t, _gaussian(x))))
defjvp(spc.erf_inv_p,
       lambda t, ans, x: lax.mul(const(x, math.sqrt(math.pi) / 2), lax.mul(t, lax.exp(lax.square(ans)))))
defjvp(spc.lgamma_p, lambda t, ans, x: lax.mul(t, lax.digamma(x)))
defjvp(spc.digamma_p, lambda t, ans, x: lax.mul(t, lax.polygamma(const(x, 1.0), x)))


def _polygamma_order_term(t, ans, m, x):
    raise ValueError("polygamma gradient with respect to m is not supported")


defjvp(spc.polygamma_p, _polygamma_order_term,
       lambda t, ans, m, x: lax.mul(t, lax.polygamma(lax.add(m, const(m, 1.0)), x)))


def _gamma_density(a, x):
    """d/dx P(a, x) = exp(-x + (a - 1) log x - lgamma(a))."""
    log_density = lax.add(lax.neg(x), lax.mul(lax.sub(a, full_like(a, 1.0)), lax.log(x)))
    return lax.exp(lax.sub(log_density, lax.lgamma(a)))


defjvp(spc.igamma_p, lambda t, ans, a, x: lax.mul(t, lax.igamma_grad_a(a, x)),
       lambda t, ans, a, x: lax.mul(t, _gamma_density(a, x)))
defjvp(spc.igammac_p, lambda t, ans, a, x: lax.neg(lax.mul(t, lax.igamma_grad_a(a, x))),
       lambda t, ans, a, x: lax.neg(lax.mul(t, _gamma_density(a, x))))

defjvp(spc.bessel_i0e_p, lambda t, ans, x: lax.mul(t, lax.sub(lax.bessel_i1e(x), lax.mul(lax.sign(x), ans))))


def _bessel_i1e_term(t, ans, x):
    """i1e'(x) = i0e(x) - i1e(x) (sign(x) + 1/x), with its limit 1/2 near zero."""
    eps = float(dtypes.finfo(get_aval(x).dtype).eps)
    away = lax.gt(lax.abs(x), const(x, eps))
    safe = lax.select_n(away, full_like(x, eps), x)
    slope = lax.sub(lax.bessel_i0e(safe), lax.mul(ans, lax.add(lax.sign(safe), lax.integer_pow(safe, -1))))
    return lax.mul(t, lax.select_n(away, full_like(x, 0.5), slope))


defjvp(spc.bessel_i1e_p, _bessel_i1e_term)


def _betainc_shape_term(t, ans, a, b, x):
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _plain_or_lax(numpy_op, lax_op, x, y):
    """``x op y``, computed at once when neither is traced (as JAX's rule does with Python arithmetic)."""
    if isinstance(x, core.Tracer) or isinstance(y, core.Tracer):
        return lax_op(x, y if isinstance(y, core.Tracer) or get_aval(y).shape else const(x, y))
    return numpy_op(x, y)


def _betainc_x_term(t, ans, a, b, x):
    """d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b)."""
    log_beta = lax.sub(lax.add(lax.lgamma(a), lax.lgamma(b)), lax.lgamma(_plain_or_lax(operator.add, lax.add, a, b)))
    log_density = lax.add(lax.mul(_plain_or_lax(operator.sub, lax.sub, b, 1), lax.log1p(lax.neg(x))),
                          lax.mul(_plain_or_lax(operator.sub, lax.sub, a, 1), lax.log(x)))
    return lax.mul(lax.exp(lax.sub(log_density, log_beta)), t)


defjvp(spc.regularized_incomplete_beta_p, _betainc_shape_term, _betainc_shape_term, _betainc_x_term)
