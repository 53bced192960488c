"""The zeta family: the Hurwitz zeta function ``zeta(x, q)`` over lax's ``zeta`` (with derivatives in both
arguments), the Bernoulli numbers of its values at negative integers, and the dilogarithm ``spence``."""

from __future__ import annotations

import math
import operator
from fractions import Fraction
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, dtypes, jvp, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.util import as_array

__all__ = ["bernoulli", "spence", "zeta"]

_DIRECT_TERMS = 10
# B_2j / (2j)! for j = 1..6: the coefficients of the Euler-Maclaurin tail
_EULER_MACLAURIN = (1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160, -691 / 1307674368000)


def _zeta_euler_maclaurin(x: Any, q: Any) -> Any:
    """``zeta(x, q)`` as ten direct terms plus the Euler-Maclaurin tail: differentiable in ``x`` by tracing."""
    one = util.weak_scalar_like(x, 1)
    total = lax.full_like(lax.add(x, q), 0)
    for k in range(_DIRECT_TERMS):
        total = lax.add(total, lax.pow(lax.add(q, util.weak_scalar_like(q, k)), lax.neg(x)))
    a = lax.add(q, util.weak_scalar_like(q, _DIRECT_TERMS))
    a_to_minus_x = lax.pow(a, lax.neg(x))
    total = lax.add(total, lax.div(lax.mul(a, a_to_minus_x), lax.sub(x, one)))
    total = lax.add(total, lax.mul(util.weak_scalar_like(x, 0.5), a_to_minus_x))
    factor = lax.div(lax.mul(x, a_to_minus_x), a)  # x (x+1) ... (x+2j-2) / a**(x+2j-1), for j = 1 first
    for j, coefficient in enumerate(_EULER_MACLAURIN, start=1):
        total = lax.add(total, lax.mul(util.weak_scalar_like(x, coefficient), factor))
        factor = lax.div(lax.mul(lax.mul(factor, lax.add(x, util.weak_scalar_like(x, 2 * j - 1))),
                                 lax.add(x, util.weak_scalar_like(x, 2 * j))), lax.square(a))
    return total


def _zeta_body(x: Any, q: Any) -> Any:
    return lax.zeta(x, q)


_zeta_body.__name__ = _zeta_body.__qualname__ = "zeta"
_zeta = custom_jvp(_zeta_body)
_zeta.defjvps(lambda g, ans, x, q: jvp(lambda s: _zeta_euler_maclaurin(s, q), (x,), (g,))[1],
              lambda g, ans, x, q: lax.mul(g, lax.mul(lax.neg(x), lax.zeta(lax.add(x, util.weak_scalar_like(x, 1)),
                                                                           q))))


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
    numbers: list[Fraction] = []
    for m in range(n + 1):  # B_m = -1/(m+1) sum(comb(m+1, k) B_k for k < m), from sum(comb(m+1, k) B_k) = 0
        numbers.append(Fraction(1) if m == 0 else
                       -sum(math.comb(m + 1, k) * b for k, b in enumerate(numbers)) / (m + 1))
    return as_array(np.array([float(b) for b in numbers], dtype=dtypes.default_float_dtype()))


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
