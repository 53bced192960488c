"""JVP rules of the numeric primitives: reduce_prod, convolution, windowed reductions and the special functions.

As in JAX 0.10.2, ``zeta``, ``igamma_grad_a`` and ``random_gamma_grad`` have no rule, and the derivatives of
``polygamma`` in ``m`` and of ``regularized_incomplete_beta`` in ``a`` and ``b`` raise ``ValueError``.
"""

from __future__ import annotations

import math
import operator
from typing import Any

from jaxle_core import core, dtypes, lax
from jaxle_core.ad.jvp import jvp, jvp_rules
from jaxle_core.ad.rule_helpers import const, defbilinear, defjvp, deflinear, full_like
from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax import reductions as red
from jaxle_core.lax import special as spc
from jaxle_core.lax import windowed as win
from jaxle_core.lax.convolution import conv_general_dilated_p

# ---------------------------------------------------------------- reduce_prod


def _pairwise_product(x: Any) -> Any:
    """Product over the leading axis by multiplying halves (the odd one out padded with a 1) until one row is left.

    Differentiating this tree rather than dividing the product by each factor keeps the derivative right where
    factors are zero."""
    while get_aval(x).shape[0] > 1:
        n, rest = get_aval(x).shape[0], get_aval(x).shape[1:]
        half = (n + 1) // 2
        zeros, ones = (0,) * len(rest), (1,) * len(rest)
        first = lax.slice(x, (0, *zeros), (half, *rest), (1, *ones))
        second = lax.slice(x, (half, *zeros), (n, *rest), (1, *ones))
        if n % 2:
            second = lax.pad(second, const(x, 1.0), ((0, 1, 0), *((0, 0, 0),) * len(rest)))
        x = lax.mul(first, second)
    return lax.squeeze(x, (0,))


def _reduce_prod_jvp(primals, tangents, *, axes):
    (x,), (t,) = primals, tangents
    shape = get_aval(x).shape
    kept = tuple(i for i in range(len(shape)) if i not in axes)
    kept_shape = tuple(shape[i] for i in kept)
    count = math.prod(shape[i] for i in axes)
    if count == 0:  # the empty product: ones, with derivative zero
        def filled(value):
            return lax.broadcast_in_dim(const(x, value), kept_shape, ()) if kept_shape else const(x, value)

        return filled(1.0), filled(0.0)
    order = None if tuple(axes) + kept == tuple(range(len(shape))) else tuple(axes) + kept
    flat_x = lax.reshape(x, (count, *kept_shape), order)
    flat_t = lax.reshape(t, (count, *kept_shape), order)
    return jvp(_pairwise_product, (flat_x,), (flat_t,))


jvp_rules[red.reduce_prod_p] = _reduce_prod_jvp

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
