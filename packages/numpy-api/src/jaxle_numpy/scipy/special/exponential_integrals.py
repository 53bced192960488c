"""The exponential integrals ``exp1``, ``expi``, ``expn`` and the sine and cosine integrals ``sici``. ``expn`` (and
``exp1``, its order 1) is Cephes' algorithm as JAX stages it: a ``custom_jvp`` over a vectorized, jitted piecewise
evaluation. ``expi`` and ``sici`` use power series near zero, continued fractions (evaluated from a fixed depth back)
or asymptotic series beyond."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where, where
from jaxle_numpy.polynomial import polyval
from jaxle_numpy.scalar_types import finfo
from jaxle_numpy.selection import piecewise
from jaxle_numpy.ufuncs import remainder
from jaxle_numpy.vectorize import vectorize

__all__ = ["exp1", "expi", "expn", "sici"]

_SERIES_TERMS = 30  # enough for |x| <= 2 (and |x| <= 4 for sici) to double precision
_FRACTION_DEPTH = 60  # enough for |x| >= 2 to double precision
_EULER_GAMMA = 0.5772156649015329


def _k(x: Any, value: complex | float) -> Any:
    return util.scalar_like(x, value)


def _c(x: Any, value: float) -> Any:
    """``value`` as a constant beside ``x`` (weak beside a weak scalar), as JAX's ``expn`` stages its constants."""
    return util.weak_scalar_like(x, value)


def _complex_expn_fraction(n: Any, x: Any) -> Any:
    """``E_n(x) = exp(-x) / (x + n - 1 n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...)))`` (``n = 1`` for E1;
    complex ``x`` allowed)."""
    tail = lax.full_like(x, 0)
    for k in range(_FRACTION_DEPTH, 0, -1):
        numerator = lax.mul(_k(n, k), lax.add(n, _k(n, k - 1)))
        tail = lax.div(lax.convert_element_type(numerator, get_aval(x).dtype),
                       lax.sub(lax.add(x, lax.convert_element_type(lax.add(n, _k(n, 2 * k)), get_aval(x).dtype)),
                               tail))
    return lax.div(lax.exp(lax.neg(x)), lax.sub(lax.add(x, lax.convert_element_type(n, get_aval(x).dtype)), tail))


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
    e1 = _complex_expn_fraction(lax.full_like(z, 1), z)
    sine = _where(small, sine, lax.add(_k(x, np.pi / 2), lax.imag(e1)))
    cosine = _where(small, cosine, lax.neg(lax.real(e1)))
    sine = lax.mul(lax.sign(x), sine)
    cosine = _where(lax.eq(x, _k(x, 0)), _k(x, -np.inf), cosine)
    return sine, cosine


_EULER = 0.5772156649015329
_BIG = 1.44115188075855872e17  # Cephes' rescaling threshold of the continued fraction, 2**57


def _expn_series(x: Any, n: Any) -> Any:
    """``E_n(x)`` for ``0 < x <= 1``: the power series, whose ``k = n - 1`` term carries ``psi(n) - log(x)``."""
    eps = finfo(get_aval(x).dtype).eps
    psi = -_EULER - lax.log(x)
    psi = lax.fori_loop(_c(n, 1), n, lambda i, psi: psi + 1.0 / i, psi)
    n1 = where(n == 1, _c(n, 2), n)
    z = -x
    pk = 1 - n
    total = where(n == 1, _c(x, 0), 1.0 / (1 - n1))

    def body(carry):
        total, pk, _, x, xk, yk = carry
        xk = xk + 1
        yk = yk * (z / xk)
        pk = pk + 1
        total = total + where(pk != 0, yk / pk, _c(x, 0))
        t = where(total != 0, abs(yk / total), _c(x, 1))
        return total, pk, t, x, xk, yk

    total, *_ = lax.while_loop(lambda c: (c[3] > 0) & (c[2] > eps), body, (total, pk, np.inf, x, _c(x, 0), _c(x, 1)))
    return z ** (n - 1) * psi / lax.exp(lax.lgamma(n)) - total


def _expn_fraction(x: Any, n: Any) -> Any:
    """``E_n(x)`` for ``x > 1``: Cephes' continued fraction, its convergents rescaled past 2**57."""
    eps = finfo(get_aval(x).dtype).eps

    def body(carry):
        total, k, pkm1, pkm2, qkm1, qkm2, r, _, x = carry
        k = k + 1
        odd = remainder(k, _c(x, 2)) == 1
        yk = where(odd, _c(x, 1), x)
        xk = where(odd, n + (k - 1) / 2, k / 2)
        pk = pkm1 * yk + pkm2 * xk
        qk = qkm1 * yk + qkm2 * xk
        nonzero = qk != 0
        r = where(nonzero, pk / qk, r)
        t = where(nonzero, abs((total - r) / r), _c(x, 1))
        total = where(nonzero, r, total)
        rescale = abs(pk) > _BIG
        pk, pkm1 = where(rescale, pk / _BIG, pk), where(rescale, pkm1 / _BIG, pkm1)
        qk, qkm1 = where(rescale, qk / _BIG, qk), where(rescale, qkm1 / _BIG, qkm1)
        return total, k, pk, pkm1, qk, qkm1, r, t, x

    qkm1 = x + n
    total = 1.0 / (x + n)
    one = _c(x, 1)
    carry = (total, one, one, one, qkm1, x, _c(x, 0), _c(x, np.inf), x)
    total, *_ = lax.while_loop(lambda c: (c[8] > 0) & (c[7] > eps), body, carry)
    return total * lax.exp(-x)


def _expn_large_order(x: Any, n: Any) -> Any:
    """``E_n(x)`` for ``n >= 5000``: the asymptotic expansion in ``1 / (n + x)**2``."""
    k = x + n
    kk = 1.0 / (k * k)
    total = kk * n * (6.0 * x * x - 8.0 * n * x + n * n) + n * (n - 2.0 * x)
    total = kk * (kk * total + n) + 1.0
    return total * lax.exp(-x) / k


@util.named_jit("expn")
def _expn_body(n: Any, x: Any) -> Any:
    n, x = util.promote_args_inexact("expn", n, x)
    conditions = [(n < 0) | (x < 0), (x == 0) & (n < 2), (x == 0) & (n >= 2), (n == 0) & (x >= 0), n >= 5000,
                  x > 1]
    at_zero = 1.0 / where(n == 1, n + n, n)  # JAX's 1 / n where SciPy has 1 / (n - 1)
    values = [np.nan, np.inf, at_zero, lax.exp(-x) / x, _expn_large_order, _expn_fraction, _expn_series]
    return piecewise(x, conditions, values, n)


_expn = custom_jvp(vectorize(_expn_body), nondiff_argnums=(0,))


@_expn.defjvp
@util.named_jit("expn_jvp")
def _expn_jvp(n: Any, primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (x,), (x_dot,) = primals, tangents
    return _expn(n, x), lax.mul(lax.neg(x_dot), _expn(lax.sub(n, 1), x))


def expn(n: Any, x: Any) -> Any:
    """The generalized exponential integral ``E_n(x)`` (Cephes' algorithm: power series up to ``x = 1``, continued
    fraction beyond, an asymptotic expansion for ``n >= 5000``; NaN for negative ``n`` or ``x``)."""
    return _expn(n, x)


def exp1(x: Any) -> Any:
    """The exponential integral ``E1(x) = integral of exp(-t) / t from x to infinity``: ``expn(1, x)``."""
    x, = util.promote_args_inexact("exp1", x)
    return _expn(1, x)


# Cephes' rational approximations of Ei: (numerator, denominator) coefficients, highest power first, on x > 64
# in 1 / x, on (0, 2] in x, then on (2, 4], (4, 8], ..., (32, 64] in 1 / x
_EXPI_COEFFICIENTS = (
    ([-0.7657847078286127, 0.6886192415566705, -0.2132598113545206, 0.033461075523841935, -0.003076541477344756,
      0.00017471193164549074, -6.1037116822741705e-06, 1.218032765428652e-07, -1.0860761027932903e-09],
     [1.0, -1.8888028686623086, 1.066691687211409, -0.27519159823063805, 0.039308526882338234,
      -0.003414684558602365, 0.00018668443707035555, -6.345146083130515e-06, 1.239754287483207e-07,
      -1.0860761027931265e-09]),
    ([-5.350447357812543, 218.50491688166133, -4176.572384826693, 55411.76756393557, -331338.13311781443,
      1592627.1633849454],
     [1.0, -52.505479591128626, 1259.6161867867906, -17565.495819735348, 149306.2117002726, -729494.9239640528,
      1592627.1633849454]),
    ([0.019818085032596897, -1.2716456259849176, -2.0881603356812284, 2.7555445091879367, -0.44095070487016,
      0.046656238059358916, -0.0015450426796734852, 7.059980605299618e-05],
     [1.0, 1.4764986709149215, 0.5629177174822436, 0.16990178978793072, 0.02291647179034212, 0.0044501504397287525,
      0.00017274396122065214, 3.953167195549672e-05]),
    ([-1.3732153758712087, -0.7084559133740839, 1.580806855547941, -0.2601500427425623, 0.029946746941137137,
      -0.001038086040188744, 4.371064420753005e-05, 2.141783679522603e-06],
     [1.0, 0.8585231423622028, 0.4483285822873995, 0.07687932158124476, 0.024498682410218877, 0.0008832165941927797,
      0.00045909522995113536, -4.729848351866523e-06, 2.66519553739071e-06]),
    ([-2.1069346016919166, 1.7327338696646881, -0.2423619178935842, 0.02322724180937566, 0.00023728804404931798,
      -8.343219561192553e-05, 1.3634087956052505e-05, -3.655412321999254e-07, 1.4649417339759612e-08,
      6.17640786371036e-10],
     [1.0, -0.2298062239901678, 0.11050770414740378, -0.015665429666307924, 0.002761106850817353,
      -0.00020891480122840484, 1.7085289388076754e-05, -4.4593117963566865e-07, 1.3946349303538475e-08,
      6.150865933977338e-10]),
    ([-0.24581193676740204, -0.14833822533220778, 0.07248291795735552, -0.013483156873809405, 0.001342775069788637,
      -7.942465637159712e-05, 2.644179518984236e-06, -4.239473659313765e-08],
     [1.0, -0.10442259084438711, -0.26764531281014026, 0.09695000254621984, -0.01601745692712991,
      0.001496414899205908, -8.462452563778485e-05, 2.7289384034767266e-06, -4.239462431819542e-08]),
    ([0.12125611181054567, -0.5823133179043894, 0.2348887314557017, -0.030400343181132484, 0.0015100821468651906,
      -2.5231370954995714e-05],
     [1.0, -1.002252150365854, 0.2928709694872224, -0.03337004338674008, 0.0015605448811273888,
      -2.5231370936032347e-05]),
)
_EXPI_BOUNDS = (0, 2, 4, 8, 16, 32, 64)


def _expi_beyond(x: Any, numerator: list[float], denominator: list[float]) -> Any:
    """``Ei(x) = exp(x) / x (1 + w P(w) / Q(w))`` with ``w = 1 / x``."""
    w = 1.0 / x
    f = polyval(np.array(numerator, get_aval(x).dtype), w) / polyval(np.array(denominator, get_aval(x).dtype), w)
    correction = w * f + 1.0
    return lax.exp(x) * w * correction


def _expi_near_zero(x: Any) -> Any:
    """``Ei(x) = x P(x) / Q(x) + gamma + log(x)`` on ``(0, 2]``."""
    numerator, denominator = (np.array(c, get_aval(x).dtype) for c in _EXPI_COEFFICIENTS[1])
    return x * (polyval(numerator, x) / polyval(denominator, x)) + _EULER + lax.log(x)


def _expi_positive(x: Any) -> Any:
    conditions = [(x > lo) & (x <= hi) for lo, hi in zip(_EXPI_BOUNDS, _EXPI_BOUNDS[1:])]
    beyond = [partial(_expi_beyond, numerator=p, denominator=q) for p, q in _EXPI_COEFFICIENTS[2:]]
    return piecewise(x, conditions, [_expi_near_zero, *beyond, partial(_expi_beyond, numerator=_EXPI_COEFFICIENTS[0][0],
                                                                      denominator=_EXPI_COEFFICIENTS[0][1])])


def _expi_negative(x: Any) -> Any:
    return -exp1(-x)


@custom_jvp
@util.named_jit("expi")
def _expi(x: Any) -> Any:
    x, = util.promote_args_inexact("expi", x)
    return piecewise(x, [x < 0], [_expi_negative, _expi_positive])


@_expi.defjvp
@util.named_jit("expi_jvp")
def _expi_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    (x,), (x_dot,) = primals, tangents
    return _expi(x), lax.exp(x) / x * x_dot


def expi(x: Any) -> Any:
    """The exponential integral ``Ei(x)`` (principal value): Cephes' rational approximations on ``(0, 64]`` and an
    asymptotic one beyond, ``-E1(-x)`` for negative ``x``."""
    return _expi(x)
