"""``lax.random_gamma_grad``: the derivative of a Gamma(a, 1) sample ``x`` with respect to ``a``, by implicit
differentiation of the regularized incomplete gamma function P(a, x): -(dP/da) / (dP/dx).

JAX 0.10.2 stages this as lax operations rather than a primitive, and this module stages the same ones in the same
order, so that jaxprs print as JAX's and XLA rounds as in JAX: dP/da comes from the continued fraction of
Q(a, x) = 1 - P(a, x) differentiated term by term where x > max(1, a), from the power series of P otherwise (each a
``while_loop`` of at most 2000 steps, stopping once the derivative's relative change is below the dtype's epsilon),
and the density's factor x^(a-1) e^-x / Gamma(a) cancels against dP/dx. 16-bit inputs are computed in float32."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax.control_flow.while_loops import while_loop
from jaxle_core.lax.creation import full_like
from jaxle_core.lax.reductions import reduce_or
from jaxle_core.lax.special import digamma, lgamma
from jaxle_core.lax.structural import broadcast_in_dim, broadcast_shapes, convert_element_type, select_n

__all__ = ["random_gamma_grad"]

_MAX_STEPS = 2000.0
_UPCAST = {np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)}


def _where(condition: Any, if_true: Any, if_false: Any) -> Any:
    return select_n(condition, if_false, if_true)


def _like(x: Any, value: float) -> Any:
    """``value`` as a scalar of ``x``'s dtype (a literal in the jaxpr)."""
    return np.asarray(value, get_aval(x).dtype)[()]


def continued_fraction(x: Any, y: Any, z: Any, eps: Any, enabled: Any, *, on_value: bool = False) -> tuple[Any, Any]:
    """Q's continued fraction and its derivative in ``a`` (``ans``, ``dans``), from the starting terms: an element
    stops once the relative change of the value (``on_value``) or the change of the derivative is below ``eps``."""
    zero = _like(x, 0.0)
    pkm2, pkm1 = full_like(x, 1.0), ew.add(x, _like(x, 1.0))
    qkm2 = x
    qkm1 = ew.mul(z, x)
    ans = ew.div(pkm1, qkm1)
    t = full_like(x, 1.0)
    dpkm2, dqkm2, dpkm1 = full_like(x, 0.0), full_like(x, 0.0), full_like(x, 0.0)
    dqkm1 = ew.neg(x)
    dans = ew.div(ew.sub(dpkm1, ew.mul(ans, dqkm1)), qkm1)

    def keep_going(state):
        enabled, *_, c = state[:6]
        return ew.bitwise_and(ew.lt(c, _like(c, _MAX_STEPS)), reduce_or(enabled, tuple(range(enabled.ndim))))

    def step(state):
        (enabled, ans, t, y, z, c, pkm1, qkm1, pkm2, qkm2, dpkm2, dqkm2, dpkm1, dqkm1, dans) = state
        c_next, y_next, z_next = ew.add(c, _like(c, 1.0)), ew.add(y, _like(y, 1.0)), ew.add(z, _like(z, 2.0))
        yc = ew.mul(y_next, c_next)
        pk = ew.sub(ew.mul(pkm1, z_next), ew.mul(pkm2, yc))
        qk = ew.sub(ew.mul(qkm1, z_next), ew.mul(qkm2, yc))
        nonzero = ew.ne(qk, _like(qk, 0.0))
        r = ew.div(pk, qk)
        t_next = _where(nonzero, ew.abs(ew.div(ew.sub(ans, r), r)), full_like(r, 1.0))
        ans_next = _where(nonzero, r, ans)
        dpk = ew.add(ew.sub(ew.sub(ew.mul(dpkm1, z_next), pkm1), ew.mul(dpkm2, yc)), ew.mul(pkm2, c_next))
        dqk = ew.add(ew.sub(ew.sub(ew.mul(dqkm1, z_next), qkm1), ew.mul(dqkm2, yc)), ew.mul(qkm2, c_next))
        dans_next = _where(nonzero, ew.div(ew.sub(dpk, ew.mul(ans_next, dqk)), qk), dans)
        change = _where(nonzero, ew.abs(ew.sub(dans_next, dans)), full_like(dans, 1.0))
        # Rescale every recurrence term when they grow large (a common factor cancels in each ratio).
        rescale = ew.gt(ew.abs(pk), ew.integer_pow(eps, -1))

        def rescaled(v):
            return _where(rescale, ew.mul(v, eps), v)

        pkm2_next, pkm1_next, qkm2_next, qkm1_next = rescaled(pkm1), rescaled(pk), rescaled(qkm1), rescaled(qk)
        dpkm2_next, dqkm2_next, dpkm1_next, dqkm1_next = rescaled(dpkm1), rescaled(dqkm1), rescaled(dpk), rescaled(dqk)
        going = ew.bitwise_and(enabled, ew.gt(t_next if on_value else change, eps))
        return (going, _where(enabled, ans_next, ans), _where(enabled, t_next, t), _where(enabled, y_next, y),
                _where(enabled, z_next, z), c_next, _where(enabled, pkm1_next, pkm1), _where(enabled, qkm1_next, qkm1),
                _where(enabled, pkm2_next, pkm2), _where(enabled, qkm2_next, qkm2),
                _where(enabled, dpkm2_next, dpkm2), _where(enabled, dqkm2_next, dqkm2),
                _where(enabled, dpkm1_next, dpkm1), _where(enabled, dqkm1_next, dqkm1),
                _where(enabled, dans_next, dans))

    final = while_loop(keep_going, step, (enabled, ans, t, y, z, zero, pkm1, qkm1, pkm2, qkm2, dpkm2, dqkm2, dpkm1,
                                          dqkm1, dans))
    return final[1], final[14]


def power_series(a: Any, x: Any, eps: Any, enabled: Any, *, on_value: bool = False) -> tuple[Any, Any]:
    """P's power series sum_n x^n / ((a+1)...(a+n)) and its derivative in ``a`` (``ans``, ``dans``): an element
    stops once the last term relative to the sum (``on_value``) or to the derivative is below ``eps``."""

    def step(state):
        enabled, r, c, ans, x, dc, dans = state
        r_next = ew.add(r, _like(r, 1.0))
        dc_next = ew.sub(ew.mul(dc, ew.div(x, r_next)), ew.div(ew.mul(c, x), ew.mul(r_next, r_next)))
        dans_next = ew.add(dans, dc_next)
        c_next = ew.mul(c, ew.div(x, r_next))
        ans_next = ew.add(ans, c_next)
        relative = ew.div(c_next, ans_next) if on_value else ew.abs(ew.div(dc_next, dans_next))
        going = ew.bitwise_and(enabled, ew.gt(relative, eps))
        return (going, _where(enabled, r_next, r), _where(enabled, c_next, c), _where(enabled, ans_next, ans),
                _where(enabled, x, x), _where(enabled, dc_next, dc), _where(enabled, dans_next, dans))

    def keep_going(state):
        return reduce_or(state[0], tuple(range(state[0].ndim)))

    init = (enabled, a, full_like(x, 1.0), full_like(x, 1.0), x, full_like(x, 0.0), full_like(x, 0.0))
    final = while_loop(keep_going, step, init)
    return final[3], final[6]


def log_prefactor(a: Any, x: Any) -> tuple[Any, Any]:
    """log(x^a e^-x / Gamma(a)) and where it is below -log of the dtype's largest value (where it underflows)."""
    dtype = get_aval(x).dtype
    log_ax = ew.sub(ew.sub(ew.mul(a, ew.log(x)), x), lgamma(a))
    return log_ax, ew.lt(log_ax, ew.neg(ew.log(np.asarray(dtypes.finfo(dtype).max, dtype)[()])))


def slope_setup(a: Any, x: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    """The cases of a derivative of P(a, x) in ``a``: NaN operands, x = 0, the domain error (x < 0 or a <= 0),
    where the continued fraction is used (x > max(1, a)), the prefactor x^a e^-x / Gamma(a) and where the loops
    run."""
    is_nan = ew.bitwise_or(ew.ne(a, a), ew.ne(x, x))
    x_is_zero = ew.eq(x, full_like(x, 0.0))
    domain_error = ew.bitwise_or(ew.lt(x, full_like(x, 0.0)), ew.le(a, full_like(x, 0.0)))
    use_fraction = ew.bitwise_and(ew.gt(x, full_like(x, 1.0)), ew.gt(x, a))
    log_ax, underflow = log_prefactor(a, x)
    ax = ew.exp(log_ax)
    enabled = ew.bitwise_not(ew.bitwise_or(ew.bitwise_or(ew.bitwise_or(x_is_zero, domain_error), underflow),
                                           is_nan))
    return is_nan, x_is_zero, domain_error, use_fraction, ax, enabled


def fraction_terms(a: Any, x: Any) -> tuple[Any, Any]:
    """The starting terms ``y = 1 - a`` and ``z = x + y + 1`` of Q's continued fraction."""
    y = ew.sub(_like(a, 1.0), a)
    return y, ew.add(ew.add(x, y), _like(x, 1.0))


def epsilon(x: Any) -> Any:
    """The dtype's epsilon, a literal: the loops' tolerance."""
    dtype = get_aval(x).dtype
    return np.asarray(dtypes.finfo(dtype).eps, dtype)[()]


def _sample_slope(a: Any, x: Any) -> Any:
    # the prefactor cancels against dP/dx: JAX computes it and then has no use for it (kept, so the jaxpr is JAX's)
    is_nan, x_is_zero, domain_error, use_fraction, _, enabled = slope_setup(a, x)
    fraction_enabled = ew.bitwise_and(enabled, use_fraction)
    eps = epsilon(x)
    fraction, dfraction = continued_fraction(x, *fraction_terms(a, x), eps, fraction_enabled)
    upper = ew.neg(ew.neg(ew.mul(ew.add(dfraction, ew.mul(fraction, ew.sub(ew.log(x), digamma(a)))), x)))
    series, dseries = power_series(a, x, eps, ew.bitwise_and(enabled, ew.bitwise_not(use_fraction)))
    log_ratio = ew.sub(ew.log(x), digamma(ew.add(a, _like(a, 1.0))))
    lower = ew.div(ew.mul(ew.neg(ew.add(dseries, ew.mul(series, log_ratio))), x), a)
    slope = _where(use_fraction, upper, lower)
    slope = _where(x_is_zero, full_like(slope, 0.0), slope)
    return _where(ew.bitwise_or(domain_error, is_nan), full_like(slope, np.nan), slope)


def random_gamma_grad(a: Any, x: Any) -> Any:
    """Elementwise derivative of a Gamma(a, 1) sample ``x`` with respect to ``a`` (float16 and bfloat16 computed in
    float32). Python scalars are refused as JAX does, with AttributeError: they have no ``shape``."""
    shape = broadcast_shapes(a.shape, x.shape)
    dtype = get_aval(x).dtype
    # Each operand is broadcast along its leading dimensions, as in JAX (which refuses shapes aligned otherwise).
    a, x = (v if get_aval(v).shape == shape else broadcast_in_dim(v, shape, tuple(range(get_aval(v).ndim)))
            for v in (a, x))
    if dtype in _UPCAST:
        a, x = convert_element_type(a, np.float32), convert_element_type(x, np.float32)
    out = _sample_slope(a, x)
    return convert_element_type(out, dtype) if dtype in _UPCAST else out
