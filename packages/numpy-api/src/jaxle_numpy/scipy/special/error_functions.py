"""Error functions and the normal distribution function: ``erf``, ``erfc``, ``erfinv``, ``erfcx``, ``ndtr``,
``log_ndtr`` (asymptotic series in the far left tail) and its inverse ``ndtri``."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where, where
from jaxle_numpy.creation import asarray, full_like
from jaxle_numpy.polynomial import polyval
from jaxle_numpy.ufuncs import log, multiply, negative, sqrt, square, true_divide

__all__ = ["erf", "erfc", "erfcx", "erfinv", "log_ndtr", "ndtr", "ndtri", "owens_t"]

_HALF_LOG_TWO_PI = 0.5 * np.log(2 * np.pi)


def _c(x: Any, value: float) -> np.generic:
    return util.scalar_like(x, value)


def _is_f64(x: Any) -> bool:
    return get_aval(x).dtype == np.float64


def erf(x: Any) -> Any:
    """The error function."""
    x, = util.promote_args_inexact("erf", x)
    return lax.erf(x)


def erfc(x: Any) -> Any:
    """The complementary error function ``1 - erf(x)``."""
    x, = util.promote_args_inexact("erfc", x)
    return lax.erfc(x)


def erfinv(x: Any) -> Any:
    """The inverse of the error function."""
    x, = util.promote_args_inexact("erfinv", x)
    return lax.erf_inv(x)


def _ndtr(x: Any) -> Any:
    half_sqrt_2 = _c(x, np.sqrt(0.5))
    x = multiply(x, half_sqrt_2)  # a weakly typed x is made strong, as in JAX
    z = lax.abs(x)
    y = lax.select(lax.lt(z, half_sqrt_2), lax.add(_c(x, 1), lax.erf(x)),
                   lax.select(lax.gt(x, _c(x, 0)), lax.sub(_c(x, 2), lax.erfc(z)), lax.erfc(z)))
    return lax.mul(_c(x, 0.5), y)


def ndtr(x: Any) -> Any:
    """The standard normal cumulative distribution function (of float32 or float64 ``x``)."""
    x = asarray(x)
    if get_aval(x).dtype not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={get_aval(x).dtype} is not supported, see docstring for supported types.")
    return _ndtr(x)


def _log_ndtr_lower_tail(x: Any, series_order: int) -> Any:
    """``log ndtr(x)`` for very negative ``x``: the asymptotic series of the Mills ratio."""
    log_scale = lax.sub(lax.sub(lax.mul(_c(x, -0.5), lax.square(x)), lax.log(lax.neg(x))), _c(x, _HALF_LOG_TWO_PI))
    x_2 = lax.square(x)
    even_sum, odd_sum = lax.full_like(x, 0), lax.full_like(x, 0)
    x_2i = x_2
    double_factorial = 1
    for i in range(1, series_order + 1):
        term = lax.div(_c(x, double_factorial), x_2i)
        if i % 2:
            odd_sum = lax.add(odd_sum, term)
        else:
            even_sum = lax.add(even_sum, term)
        x_2i = lax.mul(x_2i, x_2)
        double_factorial *= 2 * i + 1
    return lax.add(log_scale, lax.log(lax.sub(lax.add(_c(x, 1), even_sum), odd_sum)))


def _log_ndtr_body(x: Any, series_order: int) -> Any:
    lower, upper = (-20.0, 8.0) if _is_f64(x) else (-10.0, 5.0)
    above = lax.gt(x, _c(x, upper))
    ndtr_of = _ndtr(_where(above, lax.neg(x), lax.max(x, _c(x, lower))))
    return _where(above, lax.neg(ndtr_of),
                  _where(lax.gt(x, _c(x, lower)), lax.log(ndtr_of),
                         _log_ndtr_lower_tail(lax.min(x, _c(x, lower)), series_order)))


_log_ndtr_body.__name__ = _log_ndtr_body.__qualname__ = "log_ndtr"
_log_ndtr = custom_jvp(_log_ndtr_body, nondiff_argnums=(1,))


def _log_ndtr_jvp(series_order, primals, tangents):
    (x,), (t,) = primals, tangents
    out = _log_ndtr(x, series_order)
    log_pdf = lax.sub(lax.mul(_c(x, -0.5), lax.square(x)), _c(x, _HALF_LOG_TWO_PI))
    return out, lax.mul(t, lax.exp(lax.sub(log_pdf, out)))


_log_ndtr.defjvp(_log_ndtr_jvp)


def log_ndtr(x: Any, series_order: int = 3) -> Any:
    """``log(ndtr(x))``, accurate far into both tails (``series_order`` terms of the left-tail series)."""
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    util.check_arraylike("log_ndtr", x)
    dtype = dtypes.dtype(util.ensure_array(x)) if not hasattr(x, "aval") else get_aval(x).dtype
    if not dtypes.issubdtype(dtype, np.floating):
        raise TypeError(f"x.dtype={dtypes.canonicalize_dtype(dtype)} is not supported.")
    x, = util.promote_args_inexact("log_ndtr", x)
    return _log_ndtr(x, series_order)


# Cephes' rational approximations of the normal quantile, numerator and denominator coefficients highest power
# first: in w = p - 1/2 for the central range, in 1/z (z = sqrt(-2 log p)) for the tails z < 8 and z >= 8
_NDTRI_CENTRAL = ((-59.96335010141079, 98.00107541859997, -56.67628574690703, 13.931260938727968,
                   -1.2391658386738125),
                  (1.0, 1.9544885833814176, 4.676279128988815, 86.36024213908905, -225.46268785411937,
                   200.26021238006066, -82.03722561683334, 15.90562251262117, -1.1833162112133))
_NDTRI_FAR_TAIL = ((3.2377489177694603, 6.915228890689842, 3.9388102529247444, 1.3330346081580755,
                    0.20148538954917908, 0.012371663481782003, 0.00030158155350823543, 2.6580697468673755e-06,
                    6.239745391849833e-09),
                   (1.0, 6.02427039364742, 3.6798356385616087, 1.3770209948908132, 0.21623699359449663,
                    0.013420400608854318, 0.00032801446468212774, 2.8924786474538068e-06, 6.790194080099813e-09))
_NDTRI_NEAR_TAIL = ((4.0554489230596245, 31.525109459989388, 57.16281922464213, 44.08050738932008,
                     14.684956192885803, 2.1866330685079025, -0.1402560791713545, -0.03504246268278482,
                     -0.0008574567851546854),
                    (1.0, 15.779988325646675, 45.39076351288792, 41.3172038254672, 15.04253856929075,
                     2.504649462083094, -0.14218292285478779, -0.03808064076915783, -0.0009332594808954574))


def _rational(coefficients: tuple, argument: Callable[[], Any], dtype: np.dtype) -> Any:
    """Numerator over denominator polynomial, each at its own evaluation of ``argument``."""
    numerator, denominator = (np.array(c, dtype) for c in coefficients)
    return true_divide(polyval(numerator, argument()), polyval(denominator, argument()))


def ndtri(p: Any) -> Any:
    """The inverse of ``ndtr``: the standard normal quantile function (float32 and float64 only)."""
    dtype = dtypes.dtype(p, canonicalize=True)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={dtype} is not supported, see docstring for supported types.")
    const = functools.partial(np.array, dtype=dtype)
    upper = const(1 - np.exp(-2.0))  # p above 1 - exp(-2): work with the complement's tail
    # p itself meets operators, as in JAX: on a NumPy array they compute in NumPy, at its precision
    complement = where(p > upper, const(1) - p, p)
    complement = where(complement == const(0), full_like(complement, 0.5), complement)
    w = complement - const(0.5)
    w2 = square(w)
    central = (w + w * w2 * _rational(_NDTRI_CENTRAL, lambda: w2, dtype)) * const(-np.sqrt(2 * np.pi))
    z = sqrt(multiply(const(-2), log(complement)))
    leading = z - log(z) / z
    far_tail, near_tail = (_rational(coefficients, lambda: true_divide(const(1), z), dtype) / z
                           for coefficients in (_NDTRI_FAR_TAIL, _NDTRI_NEAR_TAIL))
    far_tail, near_tail = leading - far_tail, leading - near_tail
    x = where(complement > const(np.exp(-2.0)), central, where(z >= const(8), far_tail, near_tail))
    x = where(p > upper, x, negative(x))
    infinity = full_like(x, np.inf)
    return where(p == const(0), negative(infinity), where(p == const(1), infinity, x))


def _erfcx_series(dtype: np.dtype) -> np.ndarray:
    """The asymptotic series of ``x sqrt(pi) erfcx(x)`` in ``1 / x**2``, highest power first: the terms
    ``(-1)**n (2n - 1)!! / 2**n`` for n below 5 (float32) or 9 (float64)."""
    terms = 9 if dtype == np.float64 else 5
    return np.array([(-1) ** n * math.prod(range(1, 2 * n, 2)) / 2 ** n for n in reversed(range(terms))], dtype)


def _erfcx_body(x: Any) -> Any:
    dtype = get_aval(x).dtype
    if dtype in (dtypes.float16, dtypes.bfloat16):
        x = lax.convert_element_type(x, np.float32)
    computed = get_aval(x).dtype
    # beyond sqrt(log(max)) exp(x**2) overflows: the asymptotic series takes over there
    large = lax.gt(x, _c(x, np.sqrt(np.log(np.finfo(computed).max))))
    safe_x = lax.select(large, lax.full_like(x, 1), x)
    direct = lax.mul(lax.exp(lax.square(safe_x)), lax.erfc(safe_x))
    asymptotic = polyval(_erfcx_series(computed), 1.0 / lax.square(x)) / (x * math.sqrt(math.pi))
    return lax.convert_element_type(lax.select(large, asymptotic, direct), dtype)


_erfcx_body.__name__ = _erfcx_body.__qualname__ = "_erfcx"
_erfcx = custom_jvp(_erfcx_body)
_erfcx.defjvps(lambda g, ans, x: g * (2.0 * x * ans - 2 / math.sqrt(math.pi)))


def erfcx(x: Any) -> Any:
    """The scaled complementary error function ``exp(x**2) erfc(x)``."""
    x, = util.promote_args_inexact("erfcx", x)
    return _erfcx(x)


@functools.cache
def _owens_t_rule() -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Legendre nodes and weights on [-1, 1] for Owen's T integral over [0, a] with |a| <= 1 (computed on
    first use: numpy.polynomial and the eigenproblem are not worth paying at import)."""
    return np.polynomial.legendre.leggauss(40)


def _owens_t_quadrature(h: Any, a: Any) -> Any:
    """``T(h, a) = integral of exp(-h**2 (1 + t**2) / 2) / (1 + t**2) / (2 pi) from 0 to a`` by quadrature."""
    total = lax.full_like(lax.add(h, a), 0)
    half_a = lax.mul(a, _c(a, 0.5))
    minus_half_h2 = lax.mul(_c(h, -0.5), lax.square(h))
    for node, weight in zip(*_owens_t_rule()):
        t = lax.mul(half_a, _c(a, node + 1))
        one_plus_t2 = lax.add(_c(t, 1), lax.square(t))
        total = lax.add(total, lax.mul(_c(t, weight), lax.div(lax.exp(lax.mul(minus_half_h2, one_plus_t2)),
                                                              one_plus_t2)))
    return lax.mul(total, lax.div(half_a, _c(a, 2 * np.pi)))


def owens_t(h: Any, a: Any) -> Any:
    """Owen's T function: the probability that a standard bivariate normal ``(X, Y)`` has ``X > h`` and
    ``0 < Y < a X``."""
    h, a = util.promote_args_inexact("owens_t", h, a)
    h, sign, a = lax.abs(h), lax.sign(a), lax.abs(a)
    wide = lax.gt(a, _c(a, 1))
    narrow_a = _where(wide, _c(a, 0.5), a)
    wide_a = _where(wide, a, _c(a, 2))
    # T(h, a) + T(a h, 1/a) = (Q(h) + Q(a h)) / 2 - Q(h) Q(a h), Q the upper normal tail, for h >= 0
    tail_h, tail_ah = _ndtr(lax.neg(h)), _ndtr(lax.neg(lax.mul(wide_a, h)))
    complement = lax.sub(lax.mul(_c(h, 0.5), lax.add(tail_h, tail_ah)), lax.mul(tail_h, tail_ah))
    reflected = lax.sub(complement, _owens_t_quadrature(lax.mul(wide_a, h), lax.div(_c(a, 1), wide_a)))
    return lax.mul(sign, _where(wide, reflected, _owens_t_quadrature(h, narrow_a)))
