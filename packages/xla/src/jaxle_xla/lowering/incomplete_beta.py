"""Lowering of ``regularized_incomplete_beta`` (betainc): staged as lax operations, as JAX 0.10.2 lowers it (the
same StableHLO text and bits).

I_x(a, b) is its continued fraction (DLMF 8.17.22) evaluated by the modified Lentz method in a ``while_loop``
(at most 200 steps in float32, 600 in float64, stopping once every element's last factor is within half an epsilon
of 1), times the prefactor x^a (1-x)^b / (a B(a, b)); past the mean, where the fraction converges slowly, it is
1 - I_{1-x}(b, a). The step's index is an integer whose parity and half choose the partial numerator, computed
with the integer ``remainder`` and ``floor_divide`` that ``jnp`` stages (their ``jit`` equations, names included,
are part of JAX's text). The edges (a or b zero or infinite, x at 0 or 1, the domain error) are selected last.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax.control_flow.while_loops import while_loop
from jaxle_core.lax.creation import full_like
from jaxle_core.lax.reductions import reduce_or
from jaxle_core.lax.special import lgamma, regularized_incomplete_beta_p
from jaxle_core.lax.structural import broadcast_in_dim, convert_element_type, select_n
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.incomplete_gamma import up_and_broadcast
from jaxle_xla.lowering.module import register_lowering


def _literal(x: Any, value: float) -> Any:
    """``value`` as a scalar of ``x``'s dtype (a literal in the jaxpr)."""
    return np.asarray(value, get_aval(x).dtype)[()]


def _where(condition: Any, if_true: Any, if_false: Any) -> Any:
    return select_n(condition, if_false, if_true)


def _jnp_where(condition: Any, if_true: Any, if_false: Any) -> Any:
    """``jnp.where`` on operands of one shape and dtype, a ``jit`` named as JAX's."""
    return _where(condition, if_true, if_false)


_jnp_where.__name__ = _jnp_where.__qualname__ = "_where"
_staged_where = jit(_jnp_where)


def _integer_remainder(x1: Any, x2: Any) -> Any:
    """``jnp.remainder`` of integers of one shape and dtype (the sign of ``x2``; a zero divisor taken as 1)."""
    divisor = _staged_where(ew.eq(x2, 0), full_like(x2, 1), x2)
    truncated = ew.rem(x1, divisor)
    nonzero = ew.ne(truncated, _literal(truncated, 0))
    signs_differ = ew.ne(ew.lt(truncated, _literal(truncated, 0)), ew.lt(divisor, _literal(divisor, 0)))
    return select_n(ew.bitwise_and(signs_differ, nonzero), truncated, ew.add(truncated, divisor))


def _integer_floor_divide(x1: Any, x2: Any) -> Any:
    """``jnp.floor_divide`` of signed integers of one shape and dtype (rounding towards minus infinity)."""
    quotient = ew.div(x1, x2)
    signs_differ = ew.ne(ew.sign(x1), ew.sign(x2))
    # jnp compares with (and subtracts) weak Python scalars, so the booleans are weak, made strong by its logical and
    inexact = ew.ne(ew.rem(x1, x2), 0)
    rounded = ew.bitwise_and(convert_element_type(signs_differ, np.bool_), convert_element_type(inexact, np.bool_))
    return _staged_where(rounded, ew.sub(quotient, 1), quotient)


_integer_remainder.__name__ = _integer_remainder.__qualname__ = "remainder"
_integer_floor_divide.__name__ = _integer_floor_divide.__qualname__ = "floor_divide"
_remainder, _floor_divide = jit(_integer_remainder), jit(_integer_floor_divide)


def _modified_lentz(iterations: int, tiny: Any, numerator: Any, denominator: Any, inputs: list[Any]) -> Any:
    """b0 + a1 / (b1 + a2 / (b2 + ...)) for ``numerator(n, *inputs)`` = a_n and ``denominator(n, *inputs)`` = b_n:
    Lentz's ratios C_n = A_n / A_n-1 and D_n = B_n-1 / B_n (kept away from 0 by ``tiny``), the value the product
    of their C_n D_n, until every factor is within ``tiny`` of 1 or ``iterations`` steps have run."""

    def keep_going(state: list[Any]) -> Any:
        return ew.bitwise_and(ew.lt(state[0], iterations), state[1])

    def step(state: list[Any]) -> list[Any]:
        n, _, c, d, value = state
        a_n, b_n = numerator(n, *inputs), denominator(n, *inputs)
        c = ew.add(b_n, ew.div(a_n, c))
        floor = full_like(c, tiny)
        c = select_n(ew.lt(ew.abs(c), floor), c, floor)
        d = ew.add(b_n, ew.mul(a_n, d))
        d = select_n(ew.lt(ew.abs(d), floor), d, floor)
        d = ew.integer_pow(d, -1)
        factor = ew.mul(c, d)
        value = ew.mul(value, factor)
        n = ew.add(n, 1)
        unconverged = ew.ge(ew.abs(ew.sub(factor, _literal(factor, 1.0))), tiny)
        return [n, reduce_or(unconverged, tuple(range(get_aval(unconverged).ndim))), c, d, value]

    b0 = denominator(0, *inputs)
    start = select_n(ew.lt(ew.abs(b0), tiny), b0, broadcast_in_dim(tiny, get_aval(b0).shape, ()))
    return while_loop(keep_going, step, [1, True, start, full_like(start, 0), start])[4]


def _step_index(n: Any, shape: tuple[int, ...]) -> Any:
    return broadcast_in_dim(n, shape, ())


def _staged_betainc(a: Any, b: Any, x: Any) -> Any:
    shape, dtype = get_aval(a).shape, get_aval(a).dtype

    def numerator(n: Any, a: Any, b: Any, x: Any) -> Any:
        # DLMF 8.17.23: d_1 = 1, then d_2m+1... written with n = 2m + 1 (odd) and n = 2m + 2 (even).
        index = _step_index(n, shape)
        is_even = ew.eq(_remainder(index, full_like(index, 2)), full_like(index, 0))
        is_one = ew.eq(index, full_like(index, 1))
        m = _floor_divide(ew.sub(index, full_like(index, 1)), full_like(index, 2))
        m_is_zero = ew.eq(m, full_like(m, 0))
        m = convert_element_type(m, dtype)
        one, two = full_like(a, 1), full_like(a, 2.0)
        first = ew.div(ew.mul(ew.neg(ew.add(a, b)), x), ew.add(a, one))
        even = select_n(m_is_zero, ew.div(ew.mul(ew.mul(ew.neg(ew.add(a, m)), ew.add(ew.add(a, b), m)), x),
                                          ew.mul(ew.add(a, ew.mul(two, m)), ew.add(ew.add(a, ew.mul(two, m)), one))),
                        first)
        odd = ew.div(ew.mul(ew.mul(m, ew.sub(b, m)), x),
                     ew.mul(ew.sub(ew.add(a, ew.mul(two, m)), one), ew.add(a, ew.mul(two, m))))
        first_numerator = full_like(x, 1.0)
        return select_n(is_one, select_n(is_even, odd, even), first_numerator)

    def denominator(n: Any, a: Any, b: Any, x: Any) -> Any:
        index = _step_index(n, shape)
        is_zero = ew.eq(index, full_like(index, 0))
        zeros, ones = full_like(x, 0), full_like(x, 1)
        return select_n(is_zero, ones, zeros)

    a_is_zero = ew.bitwise_or(ew.eq(a, full_like(a, 0)), ew.eq(b, full_like(b, np.inf)))
    b_is_zero = ew.bitwise_or(ew.eq(b, full_like(b, 0)), ew.eq(a, full_like(a, np.inf)))
    x_is_zero, x_is_one = ew.eq(x, full_like(x, 0)), ew.eq(x, full_like(x, 1))
    x_is_not_zero, x_is_not_one = ew.bitwise_not(x_is_zero), ew.bitwise_not(x_is_one)
    is_nan = ew.bitwise_or(ew.bitwise_or(ew.ne(a, a), ew.ne(b, b)), ew.ne(x, x))
    result_is_zero = ew.bitwise_or(ew.bitwise_and(b_is_zero, x_is_not_one), ew.bitwise_and(a_is_zero, x_is_zero))
    result_is_one = ew.bitwise_or(ew.bitwise_and(a_is_zero, x_is_not_zero), ew.bitwise_and(b_is_zero, x_is_one))
    out_of_domain = ew.bitwise_or(ew.bitwise_or(ew.bitwise_or(ew.lt(a, full_like(a, 0)), ew.lt(b, full_like(b, 0))),
                                                ew.lt(x, full_like(x, 0))), ew.gt(x, full_like(x, 1)))
    result_is_nan = ew.bitwise_or(out_of_domain, ew.bitwise_or(ew.bitwise_and(a_is_zero, b_is_zero), is_nan))

    # the fraction converges fast below the mean (a + 1) / (a + b + 2); past it, I_x(a, b) = 1 - I_1-x(b, a)
    below_mean = ew.lt(x, ew.div(ew.add(a, full_like(a, 1)), ew.add(ew.add(a, b), full_like(b, 2.0))))
    a, b = _where(below_mean, a, b), _where(below_mean, b, a)
    x = _where(below_mean, x, ew.sub(full_like(x, 1), x))

    half_eps = np.asarray(dtypes.finfo(dtype).eps / 2, dtype)[()]
    fraction = _modified_lentz(200 if dtype == np.float32 else 600, half_eps, numerator, denominator, [a, b, x])

    # as a -> 0, a Gamma(a) -> 1 replaces the division by a
    tiny = np.asarray(dtypes.finfo(dtype).tiny * 2, dtype)[()]
    log_beta_but_a = ew.sub(lgamma(b), lgamma(ew.add(a, b)))
    log_beta = ew.add(lgamma(a), log_beta_but_a)
    a_is_tiny = ew.lt(a, full_like(a, tiny))
    small_a = ew.exp(ew.sub(ew.mul(ew.log1p(ew.neg(x)), b), log_beta_but_a))
    log_prefactor = ew.sub(ew.add(ew.mul(ew.log(x), a), ew.mul(ew.log1p(ew.neg(x)), b)), log_beta)
    factor = _where(a_is_tiny, small_a, ew.div(ew.exp(log_prefactor), a))
    out = ew.mul(fraction, factor)
    out = _where(below_mean, out, ew.sub(full_like(out, 1), out))
    out = _where(result_is_zero, full_like(a, 0), out)
    out = _where(result_is_one, full_like(a, 1), out)
    return _where(result_is_nan, full_like(a, np.nan), out)


_betainc = up_and_broadcast(_staged_betainc)


@register_lowering(regularized_incomplete_beta_p)
def _regularized_incomplete_beta(ctx: LoweringContext, a: Value, b: Value, x: Value) -> Value:
    return ctx.lower_fun(_betainc, a, b, x, reuse=True)[0]
