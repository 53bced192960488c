"""The zeta family: the Hurwitz zeta function ``zeta(x, q)`` over lax's ``zeta`` (with derivatives in both
arguments), the Bernoulli numbers of its values at negative integers, and the dilogarithm ``spence``."""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from functools import partial
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, dtypes, jvp, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.cumulative import cumprod
from jaxle_numpy.manipulation import expand_dims
from jaxle_numpy.reductions import sum as jnp_sum
from jaxle_numpy.ufuncs import add, clip, multiply, negative, power, subtract, true_divide
from jaxle_numpy.util import as_array

__all__ = ["bernoulli", "spence", "zeta"]


def _bernoulli_fractions(n: int) -> list[Fraction]:
    """The Bernoulli numbers ``B_0 ... B_n`` exactly (``B_1 = -1/2``)."""
    numbers: list[Fraction] = []
    for m in range(n + 1):  # B_m = -1/(m+1) sum(comb(m+1, k) B_k for k < m), from sum(comb(m+1, k) B_k) = 0
        numbers.append(Fraction(1) if m == 0 else
                       -sum(math.comb(m + 1, k) * b for k, b in enumerate(numbers)) / (m + 1))
    return numbers


# (2j)! / B_2j for j = 1..16: the Euler-Maclaurin tail divides by them
_TAIL_DIVISORS = [float(math.factorial(2 * j) / b)
                  for j, b in enumerate(_bernoulli_fractions(32)[2::2], start=1)]


def _zeta_series_expansion(x: Any, q: Any) -> Any:
    """``zeta(x, q)`` as N direct terms, the integral of the rest and its Euler-Maclaurin corrections (N = M = 8 in
    float32, 16 otherwise), as JAX writes it: its derivatives (by tracing) are ``zeta``'s."""
    s, a = util.promote_args_inexact("zeta", x, q)
    dtype = get_aval(a).dtype.type
    s_, a_ = expand_dims(s, -1), expand_dims(a, -1)
    n = m = dtype(8) if get_aval(a).dtype == np.float32 else dtype(16)
    k = expand_dims(np.arange(n, dtype=n.dtype), tuple(range(get_aval(a).ndim)))
    direct = jnp_sum(power(add(a_, k), negative(s_)), -1)
    integral = lax.div(power(add(a, n), subtract(dtype(1), s)), subtract(s, dtype(1)))
    first = power(add(a, n), negative(s))
    j = expand_dims(np.arange(2 * m, dtype=m.dtype), tuple(range(get_aval(s).ndim)))
    ratios = true_divide(add(s_, j), add(a_, n))
    products = cumprod(ratios, -1)[..., ::2]
    products = clip(products, max=dtypes.finfo(dtype).max)
    divisors = np.expand_dims(np.array(_TAIL_DIVISORS[:get_aval(products).shape[-1]], dtype=dtype),
                              tuple(range(get_aval(a).ndim)))
    corrections = true_divide(products, divisors)
    tail = multiply(first, add(dtype(0.5), jnp_sum(corrections, -1)))
    return add(add(direct, integral), tail)


def _zeta_body(x: Any, q: Any) -> Any:
    return lax.zeta(x, q)


_zeta_body.__name__ = _zeta_body.__qualname__ = "zeta"
_zeta = custom_jvp(_zeta_body)
# derivatives in both arguments are those of the series (its value the primal output), as in JAX
_zeta.defjvp(partial(jvp, _zeta_series_expansion))


def zeta(x: Any, q: Any = None) -> Any:
    """The Hurwitz zeta function ``sum((k + q) ** -x for k >= 0)``; ``q`` is required (no Riemann zeta)."""
    if q is None:
        raise NotImplementedError("Riemann zeta function not implemented; pass q != None to compute the Hurwitz "
                                  "Zeta function.")
    x, q = util.promote_args_inexact("zeta", x, q)
    return _zeta(x, q)


def bernoulli(n: int) -> Any:
    """The Bernoulli numbers ``B_0 ... B_n`` (``B_1 = -1/2``) in the default float dtype."""
    n = operator.index(n)
    if n < 0:
        raise ValueError("n must be a non-negative integer.")
    return as_array(np.array([float(b) for b in _bernoulli_fractions(n)], dtype=dtypes.default_float_dtype()))


_PI_SQUARED_OVER_6 = np.pi ** 2 / 6


def _dilogarithm_series(z: Any) -> Any:
    """``Li2(z) = sum(z**k / k**2)`` for ``|z| <= 1/2``."""
    total, power = lax.full_like(z, 0), lax.full_like(z, 1)
    for k in range(1, 56):
        power = lax.mul(power, z)
        total = lax.add(total, lax.div(power, util.scalar_like(z, k * k)))
    return total


def _dilogarithm_unit(z: Any) -> Any:
    """``Li2(z)`` for ``-1 <= z < 1``, brought into ``|w| <= 1/2`` by Euler's reflection above 1/2 and Landen's
    identity below -1/2."""
    def k(value: float) -> Any:
        return util.scalar_like(z, value)

    near_one, below = lax.gt(z, k(0.5)), lax.lt(z, k(-0.5))
    w = _where(near_one, lax.sub(k(1), z), _where(below, lax.div(z, lax.sub(z, k(1))), z))
    series = _dilogarithm_series(w)
    reflected_z = _where(near_one, z, k(0.75))  # Li2(z) = pi^2/6 - log(z) log(1 - z) - Li2(1 - z)
    reflected = lax.sub(lax.sub(k(_PI_SQUARED_OVER_6), lax.mul(lax.log(reflected_z), lax.log1p(lax.neg(reflected_z)))),
                        series)
    landen_z = _where(below, z, k(0))  # Li2(z) = -Li2(z / (z - 1)) - log(1 - z)**2 / 2
    landen = lax.neg(lax.add(series, lax.mul(k(0.5), lax.square(lax.log1p(lax.neg(landen_z))))))
    return _where(near_one, reflected, _where(below, landen, series))


def spence(x: Any) -> Any:
    """Spence's function ``integral of log(t) / (1 - t) from 1 to x``, the dilogarithm ``Li2(1 - x)`` (NaN for
    negative ``x``)."""
    x, = util.promote_args_inexact("spence", x)
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        raise TypeError(f"x.dtype={get_aval(x).dtype} is not supported, see docstring for supported types.")

    def k(value: float) -> Any:
        return util.scalar_like(x, value)

    z = lax.sub(k(1), x)
    far = lax.lt(z, k(-1))  # Li2(z) = -pi^2/6 - log(-z)**2 / 2 - Li2(1/z), with 1/z in [-1, 0)
    far_z = _where(far, z, k(-2))
    inner = _dilogarithm_unit(_where(far, lax.div(k(1), far_z), z))
    inverted = lax.sub(lax.sub(k(-_PI_SQUARED_OVER_6), lax.mul(k(0.5), lax.square(lax.log(lax.neg(far_z))))), inner)
    value = _where(far, inverted, inner)
    value = _where(lax.eq(x, k(0)), k(_PI_SQUARED_OVER_6), value)
    return _where(lax.lt(x, k(0)), k(np.nan), value)
