"""Error functions and the normal distribution function: ``erf``, ``erfc``, ``erfinv``, ``erfcx``, ``ndtr``,
``log_ndtr`` (asymptotic series in the far left tail) and its inverse ``ndtri``."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where

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
    x = lax.mul(x, half_sqrt_2)
    z = lax.abs(x)
    y = lax.select(lax.lt(z, half_sqrt_2), lax.add(_c(x, 1), lax.erf(x)),
                   lax.select(lax.gt(x, _c(x, 0)), lax.sub(_c(x, 2), lax.erfc(z)), lax.erfc(z)))
    return lax.mul(_c(x, 0.5), y)


def ndtr(x: Any) -> Any:
    """The standard normal cumulative distribution function."""
    x, = util.promote_args_inexact("ndtr", x)
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


def ndtri(p: Any) -> Any:
    """The inverse of ``ndtr``: the standard normal quantile function."""
    p, = util.promote_args_inexact("ndtri", p)
    upper_half = lax.gt(p, _c(p, 0.5))
    tail = _where(upper_half, lax.sub(_c(p, 1), p), p)  # the smaller tail probability, in (0, 1/2]
    safe_tail = _where(lax.eq(tail, _c(tail, 0)), _c(tail, 0.5), tail)
    # a rational approximation of the lower-tail quantile (absolute error below 5e-4) ...
    t = lax.sqrt(lax.mul(_c(p, -2), lax.log(safe_tail)))
    numerator = lax.add(_c(t, 2.515517), lax.mul(t, lax.add(_c(t, 0.802853), lax.mul(t, _c(t, 0.010328)))))
    denominator = lax.add(_c(t, 1), lax.mul(t, lax.add(_c(t, 1.432788), lax.mul(
        t, lax.add(_c(t, 0.189269), lax.mul(t, _c(t, 0.001308)))))))
    x = lax.sub(lax.div(numerator, denominator), t)
    # ... polished by Newton steps on log ndtr(x) = log(tail), which converge quadratically from there
    log_tail = lax.log(safe_tail)
    for _ in range(3):
        log_cdf = _log_ndtr_body(x, 3)
        log_pdf = lax.sub(lax.mul(_c(x, -0.5), lax.square(x)), _c(x, _HALF_LOG_TWO_PI))
        x = lax.sub(x, lax.mul(lax.sub(log_cdf, log_tail), lax.exp(lax.sub(log_cdf, log_pdf))))
    x = _where(upper_half, lax.neg(x), x)
    x = _where(lax.eq(tail, _c(tail, 0)), lax.mul(lax.sign(lax.sub(p, _c(p, 0.5))), _c(p, np.inf)), x)
    return _where(lax.bitwise_or(lax.lt(p, _c(p, 0)), lax.gt(p, _c(p, 1))), _c(p, np.nan), x)


def _erfcx_asymptotic(x: Any) -> Any:
    """``erfcx(x)`` for large ``x``: ``1 / (x sqrt(pi))`` times the series in ``1 / x**2``."""
    inverse_square = lax.div(_c(x, 1), lax.square(x))
    series = _c(x, 0)
    for coefficient in (105 / 16, -15 / 8, 3 / 4, -1 / 2, 1):
        series = lax.add(lax.mul(series, inverse_square), _c(x, coefficient))
    return lax.div(series, lax.mul(x, _c(x, np.sqrt(np.pi))))


def _erfcx_body(x: Any) -> Any:
    large = lax.gt(x, _c(x, 26.0 if _is_f64(x) else 9.0))
    safe_x = lax.select(large, lax.full_like(x, 1), x)
    direct = lax.mul(lax.exp(lax.square(safe_x)), lax.erfc(safe_x))
    return lax.select(large, _erfcx_asymptotic(x), direct)


_erfcx_body.__name__ = _erfcx_body.__qualname__ = "_erfcx"
_erfcx = custom_jvp(_erfcx_body)
_erfcx.defjvps(lambda g, ans, x: lax.mul(g, lax.sub(lax.mul(lax.mul(_c(x, 2), x), ans), _c(x, 2 / np.sqrt(np.pi)))))


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
