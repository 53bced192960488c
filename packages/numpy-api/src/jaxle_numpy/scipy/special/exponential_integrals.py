"""The exponential integrals ``exp1``, ``expi``, ``expn`` and the sine and cosine integrals ``sici``: power series
near zero, continued fractions (evaluated from a fixed depth back) or asymptotic series beyond."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.creation import asarray

__all__ = ["exp1", "expi", "expn", "sici"]

_SERIES_TERMS = 30  # enough for |x| <= 2 (and |x| <= 4 for sici) to double precision
_FRACTION_DEPTH = 60  # enough for |x| >= 2 to double precision
_EULER_GAMMA = 0.5772156649015329


def _k(x: Any, value: complex | float) -> Any:
    return util.scalar_like(x, value)


def _exp1_series(x: Any) -> Any:
    """``E1(x) = -gamma - log(x) - sum((-x)**k / (k k!))`` for small positive ``x``."""
    total, term = lax.full_like(x, 0), lax.full_like(x, 1)
    for k in range(1, _SERIES_TERMS + 1):
        term = lax.div(lax.mul(term, lax.neg(x)), _k(x, k))  # (-x)**k / k!
        total = lax.add(total, lax.div(term, _k(x, k)))
    return lax.sub(lax.neg(lax.add(_k(x, _EULER_GAMMA), lax.log(x))), total)


def _expn_fraction(n: Any, x: Any) -> Any:
    """``E_n(x) = exp(-x) / (x + n - 1 n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...)))`` (``n = 1`` for E1;
    complex ``x`` allowed)."""
    tail = lax.full_like(x, 0)
    for k in range(_FRACTION_DEPTH, 0, -1):
        numerator = lax.mul(_k(n, k), lax.add(n, _k(n, k - 1)))
        tail = lax.div(lax.convert_element_type(numerator, get_aval(x).dtype),
                       lax.sub(lax.add(x, lax.convert_element_type(lax.add(n, _k(n, 2 * k)), get_aval(x).dtype)),
                               tail))
    return lax.div(lax.exp(lax.neg(x)), lax.sub(lax.add(x, lax.convert_element_type(n, get_aval(x).dtype)), tail))


def _positive_exp1(x: Any) -> Any:
    small = lax.le(x, _k(x, 2))
    series = _exp1_series(_where(small, x, _k(x, 1)))
    fraction = _expn_fraction(lax.full_like(x, 1), _where(small, _k(x, 2), x))
    return _where(small, series, fraction)


def exp1(x: Any) -> Any:
    """The exponential integral ``E1(x) = integral of exp(-t) / t from x to infinity`` (NaN for negative, infinite
    or NaN ``x``, as in JAX)."""
    x, = util.promote_args_inexact("exp1", x)
    finite_positive = lax.bitwise_and(lax.gt(x, _k(x, 0)), lax.lt(x, _k(x, np.inf)))
    value = _positive_exp1(_where(finite_positive, x, _k(x, 1)))
    value = _where(lax.eq(x, _k(x, 0)), _k(x, np.inf), value)
    # negative, infinite and NaN arguments give NaN, as in JAX
    return _where(lax.bitwise_or(finite_positive, lax.eq(x, _k(x, 0))), value, _k(x, np.nan))


_EI_SERIES_TERMS = 120  # the power series of Ei up to x = 40
_EI_ASYMPTOTIC_TERMS = 40


def _expi_positive(x: Any) -> Any:
    """``Ei(x)`` for ``x > 0``: its power series up to 40, the asymptotic series ``exp(x) / x sum(k! / x**k)``
    beyond."""
    large = lax.gt(x, _k(x, 40))
    small_x = _where(large, _k(x, 1), x)
    total, term = lax.full_like(x, 0), lax.full_like(x, 1)
    for k in range(1, _EI_SERIES_TERMS + 1):
        term = lax.div(lax.mul(term, small_x), _k(x, k))
        total = lax.add(total, lax.div(term, _k(x, k)))
    series = lax.add(lax.add(_k(x, _EULER_GAMMA), lax.log(small_x)), total)
    large_x = _where(large, x, _k(x, 50))
    asymptotic, term = lax.full_like(x, 1), lax.full_like(x, 1)
    for k in range(1, _EI_ASYMPTOTIC_TERMS + 1):
        term = lax.div(lax.mul(term, _k(x, k)), large_x)
        asymptotic = lax.add(asymptotic, term)
    asymptotic = lax.mul(lax.div(lax.exp(large_x), large_x), asymptotic)
    return _where(large, asymptotic, series)


def expi(x: Any) -> Any:
    """The exponential integral ``Ei(x)`` (principal value; ``-E1(-x)`` for negative ``x``; NaN at 0, as in
    JAX)."""
    x, = util.promote_args_inexact("expi", x)
    positive = lax.gt(x, _k(x, 0))
    value = _where(positive, _expi_positive(_where(positive, x, _k(x, 1))),
                   lax.neg(_positive_exp1(_where(positive, _k(x, 1), lax.neg(x)))))
    return _where(lax.eq(x, _k(x, 0)), _k(x, np.nan), value)


def _expn_series(n: Any, x: Any) -> Any:
    """``E_n(x)`` for small positive ``x``: the power series, whose ``k = n - 1`` term carries the logarithm."""
    special_k = lax.sub(n, _k(n, 1))
    log_term = lax.sub(lax.digamma(n), lax.log(x))
    total = lax.full_like(x, 0)
    power = lax.full_like(x, 1)
    for k in range(_SERIES_TERMS + 1):
        if k:
            power = lax.div(lax.mul(power, lax.neg(x)), _k(x, k))  # (-x)**k / k!
        is_special = lax.eq(special_k, _k(n, k))
        denominator = lax.sub(_k(n, k), special_k)
        safe = _where(is_special, _k(n, 1), denominator)
        regular = lax.neg(lax.div(power, safe))
        total = lax.add(total, _where(is_special, lax.mul(power, log_term), regular))
    return total


def expn(n: Any, x: Any) -> Any:
    """The generalized exponential integral ``E_n(x)`` for integer orders ``n >= 0`` (NaN for other ``n`` or
    negative ``x``)."""
    n, x = util.promote_args_inexact("expn", asarray(n), asarray(x))
    positive = lax.gt(x, _k(x, 0))
    small = lax.le(x, _k(x, 2))
    safe_n = _where(lax.ge(n, _k(n, 1)), n, _k(n, 1))
    series = _expn_series(safe_n, _where(positive & small, x, _k(x, 1)))
    fraction = _expn_fraction(safe_n, _where(small, _k(x, 2), x))
    value = _where(small, series, fraction)
    order_zero = lax.div(lax.exp(lax.neg(x)), x)
    value = _where(lax.eq(n, _k(n, 0)), order_zero, value)
    at_zero = _where(lax.gt(n, _k(n, 1)), lax.div(_k(n, 1), lax.sub(n, _k(n, 1))), _k(x, np.inf))
    value = _where(lax.eq(x, _k(x, 0)), at_zero, value)
    invalid = lax.bitwise_or(lax.bitwise_or(lax.lt(n, _k(n, 0)), lax.ne(lax.floor(n), n)), lax.lt(x, _k(x, 0)))
    return _where(invalid, _k(x, np.nan), value)


def sici(x: Any) -> tuple[Any, Any]:
    """The sine and cosine integrals ``(Si(x), Ci(x))``: power series up to ``|x| = 4``, beyond it the continued
    fraction of ``E1(i |x|) = -Ci(|x|) + i (Si(|x|) - pi / 2)``. ``Ci`` of a negative ``x`` is ``Ci(|x|)`` (SciPy's
    real part)."""
    x, = util.promote_args_inexact("sici", x)
    magnitude = lax.abs(x)
    small = lax.le(magnitude, _k(x, 4))
    t = _where(small, magnitude, _k(x, 1))
    sine, cosine = lax.full_like(x, 0), lax.full_like(x, 0)
    term = t  # (-1)**k t**(2k+1) / (2k+1)!
    for k in range(_SERIES_TERMS):
        if k:
            term = lax.neg(lax.div(lax.mul(lax.mul(term, t), t), _k(x, (2 * k) * (2 * k + 1))))
        sine = lax.add(sine, lax.div(term, _k(x, 2 * k + 1)))
        even = lax.div(lax.mul(term, t), _k(x, 2 * k + 2))  # (-1)**k t**(2k+2) / (2k+2)!
        cosine = lax.sub(cosine, lax.div(even, _k(x, 2 * k + 2)))
    cosine = lax.add(lax.add(_k(x, _EULER_GAMMA), lax.log(t)), cosine)
    large_t = _where(small, _k(x, 5), magnitude)
    z = lax.complex(lax.full_like(large_t, 0), large_t)
    e1 = _expn_fraction(lax.full_like(z, 1), z)
    sine = _where(small, sine, lax.add(_k(x, np.pi / 2), lax.imag(e1)))
    cosine = _where(small, cosine, lax.neg(lax.real(e1)))
    sine = lax.mul(lax.sign(x), sine)
    cosine = _where(lax.eq(x, _k(x, 0)), _k(x, -np.inf), cosine)
    return sine, cosine
