"""Lowering of ``igamma``, ``igammac`` and ``igamma_grad_a``: staged as lax operations, as JAX 0.10.2 lowers them
(the same StableHLO text and bits).

P(a, x) comes from its power series where x < max(1, a) and Q(a, x) = 1 - P(a, x) from Legendre's continued
fraction elsewhere (each a ``while_loop`` of the loops ``lax.random_gamma_grad`` uses, stopping on the value's
relative change for P and Q, on the derivative's for the derivative in ``a``), times the prefactor
x^a e^-x / Gamma(a); the edges (x = 0, x = inf, a = 0, the domain error) are selected last. Operands are broadcast
to one shape and 16-bit floats computed in float32.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax.gamma_sample_grad import (
    continued_fraction,
    epsilon,
    fraction_terms,
    log_prefactor,
    power_series,
    slope_setup,
)
from jaxle_core.lax.special import digamma, igamma_grad_a_p, igamma_p, igammac_p
from jaxle_core.lax.structural import broadcast_in_dim, convert_element_type, select_n
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


def _literal(x: Any, value: float) -> Any:
    """``value`` as a scalar of ``x``'s dtype (a literal in the jaxpr)."""
    return np.asarray(value, get_aval(x).dtype)[()]


def _where(condition: Any, if_true: Any, if_false: Any) -> Any:
    return select_n(condition, if_false, if_true)


def _full(x: Any, value: float) -> Any:
    return broadcast_in_dim(_literal(x, value), get_aval(x).shape, ())


def _domain_error(a: Any, x: Any, is_nan: Any, a_is_zero: Any, x_is_zero: Any) -> Any:
    """x < 0, a < 0, a = x = 0 or a NaN operand."""
    x_negative, a_negative = ew.lt(x, _full(x, 0.0)), ew.lt(a, _full(a, 0.0))
    both_zero = ew.bitwise_and(a_is_zero, x_is_zero)
    return ew.bitwise_or(ew.bitwise_or(ew.bitwise_or(x_negative, a_negative), both_zero), is_nan)


def _is_nan(a: Any, x: Any) -> Any:
    return ew.bitwise_or(ew.ne(a, a), ew.ne(x, x))


def _upper_fraction(a: Any, x: Any, enabled: Any, on_value: bool) -> tuple[Any, Any]:
    return continued_fraction(x, *fraction_terms(a, x), epsilon(x), enabled, on_value=on_value)


def _staged_igamma(a: Any, x: Any) -> Any:
    is_nan = _is_nan(a, x)
    x_is_infinity = ew.eq(x, _full(x, np.inf))
    a_is_zero, x_is_zero = ew.eq(a, _full(a, 0.0)), ew.eq(x, _full(x, 0.0))
    domain_error = _domain_error(a, x, is_nan, a_is_zero, x_is_zero)
    use_fraction = ew.bitwise_and(ew.ge(x, _full(x, 1.0)), ew.gt(x, a))
    log_ax, underflow = log_prefactor(a, x)
    ax = ew.exp(log_ax)
    enabled = ew.bitwise_not(ew.bitwise_or(ew.bitwise_or(ew.bitwise_or(x_is_zero, domain_error), underflow),
                                           x_is_infinity))
    fraction, _ = _upper_fraction(a, x, ew.bitwise_and(enabled, use_fraction), True)
    from_fraction = ew.sub(_literal(x, 1.0), ew.mul(fraction, ax))
    series, _ = power_series(a, x, epsilon(x), ew.bitwise_and(enabled, ew.bitwise_not(use_fraction)), on_value=True)
    out = _where(use_fraction, from_fraction, ew.div(ew.mul(series, ax), a))
    out = _where(x_is_zero, _full(out, 0.0), out)
    out = _where(x_is_infinity, _full(out, 1.0), out)
    return _where(domain_error, _full(out, np.nan), out)


def _staged_igammac(a: Any, x: Any) -> Any:
    is_nan = _is_nan(a, x)
    a_is_zero, x_is_zero = ew.eq(a, _full(a, 0.0)), ew.eq(x, _full(x, 0.0))
    x_is_infinity = ew.eq(x, _full(x, np.inf))
    domain_error = _domain_error(a, x, is_nan, a_is_zero, x_is_zero)
    use_series = ew.bitwise_or(ew.lt(x, _full(x, 1.0)), ew.lt(x, a))
    log_ax, underflow = log_prefactor(a, x)
    enabled = ew.bitwise_not(ew.bitwise_or(ew.bitwise_or(ew.bitwise_or(domain_error, underflow), x_is_infinity),
                                           a_is_zero))
    ax = ew.exp(log_ax)
    series, _ = power_series(a, x, epsilon(x), ew.bitwise_and(enabled, use_series), on_value=True)
    lower = ew.div(ew.mul(series, ax), a)
    fraction, _ = _upper_fraction(a, x, ew.bitwise_and(enabled, ew.bitwise_not(use_series)), True)
    upper = ew.mul(fraction, ax)
    out = _where(use_series, ew.sub(_literal(lower, 1.0), lower), upper)
    out = _where(ew.bitwise_or(x_is_infinity, a_is_zero), _full(out, 0.0), out)
    return _where(domain_error, _full(out, np.nan), out)


def _staged_igamma_grad_a(a: Any, x: Any) -> Any:
    is_nan, x_is_zero, domain_error, use_fraction, ax, enabled = slope_setup(a, x)
    fraction, dfraction = _upper_fraction(a, x, ew.bitwise_and(enabled, use_fraction), False)
    upper = ew.neg(ew.mul(ax, ew.add(ew.mul(fraction, ew.sub(ew.log(x), digamma(a))), dfraction)))
    series, dseries = power_series(a, x, epsilon(x), ew.bitwise_and(enabled, ew.bitwise_not(use_fraction)))
    log_ratio = ew.sub(ew.log(x), digamma(ew.add(a, _literal(a, 1.0))))
    lower = ew.div(ew.mul(ax, ew.add(ew.mul(series, log_ratio), dseries)), a)
    out = _where(use_fraction, upper, lower)
    out = _where(x_is_zero, _full(out, 0.0), out)
    return _where(ew.bitwise_or(domain_error, is_nan), _full(out, np.nan), out)


def up_and_broadcast(staged: Callable[..., Any]) -> Callable[..., Any]:
    """``staged`` on operands computed in float32 where they are 16-bit, broadcast to one shape (as JAX's
    lowerings of the incomplete gamma and beta functions)."""

    def fun(*operands: Any) -> Any:
        dtype = get_aval(operands[0]).dtype
        if dtype.itemsize < 4:
            operands = tuple(convert_element_type(v, np.float32) for v in operands)
        shape = np.broadcast_shapes(*(get_aval(v).shape for v in operands))
        operands = tuple(v if get_aval(v).shape == shape else broadcast_in_dim(v, shape, tuple(range(get_aval(v).ndim)))
                         for v in operands)
        out = staged(*operands)
        return convert_element_type(out, dtype) if dtype.itemsize < 4 else out

    return fun


def _lowering(staged: Callable[[Any, Any], Any]) -> Callable[[LoweringContext, Value, Value], Value]:
    fun = up_and_broadcast(staged)

    def rule(ctx: LoweringContext, a: Value, x: Value) -> Value:
        return ctx.lower_fun(fun, a, x, reuse=True)[0]

    return rule


for _primitive, _staged in [(igamma_p, _staged_igamma), (igammac_p, _staged_igammac),
                            (igamma_grad_a_p, _staged_igamma_grad_a)]:
    register_lowering(_primitive)(_lowering(_staged))
