"""The Faddeeva function ``wofz(z) = exp(-z**2) erfc(-i z)`` and the real functions built on it: Dawson's integral
``dawsn`` and the Fresnel integrals ``fresnel``.

``wofz`` is Weideman's rational approximation (J. A. C. Weideman, SIAM J. Numer. Anal. 31, 1994) with 32 terms,
accurate to about 1e-13 in the upper half-plane; the lower half-plane follows from ``w(z) = 2 exp(-z**2) - w(-z)``.
Its coefficients are computed here with NumPy's FFT when the module is imported.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where

__all__ = ["dawsn", "fresnel", "wofz"]

_TERMS = 32
_SCALE = np.sqrt(_TERMS / np.sqrt(2))


def _weideman_coefficients() -> np.ndarray:
    """The polynomial coefficients (highest degree first) of Weideman's approximation: the Fourier coefficients of
    ``exp(-t**2) (L**2 + t**2)`` on the circle that ``t = L tan(theta / 2)`` maps the real line to."""
    m = 2 * _TERMS
    k = np.arange(-m + 1, m)
    t = _SCALE * np.tan(k * np.pi / m / 2)
    samples = np.concatenate([[0.0], np.exp(-t ** 2) * (_SCALE ** 2 + t ** 2)])
    fourier = np.real(np.fft.fft(np.fft.fftshift(samples))) / (2 * m)
    return np.flipud(fourier[1:_TERMS + 1])


_COEFFICIENTS = _weideman_coefficients()


def _upper_half_plane(z: Any) -> Any:
    """``w(z)`` for ``Im z >= 0``."""
    i_z = lax.mul(util.scalar_like(z, 1j), z)
    denominator = lax.sub(util.scalar_like(z, _SCALE), i_z)
    ratio = lax.div(lax.add(util.scalar_like(z, _SCALE), i_z), denominator)
    polynomial = lax.full_like(z, 0)
    for coefficient in _COEFFICIENTS:
        polynomial = lax.add(lax.mul(polynomial, ratio), util.scalar_like(z, coefficient))
    return lax.add(lax.div(lax.mul(util.scalar_like(z, 2), polynomial), lax.square(denominator)),
                   lax.div(util.scalar_like(z, 1 / np.sqrt(np.pi)), denominator))


def _wofz(z: Any) -> Any:
    lower = lax.lt(lax.imag(z), util.scalar_like(lax.imag(z), 0))
    reflected = _upper_half_plane(_where(lower, lax.neg(z), z))
    return _where(lower, lax.sub(lax.mul(util.scalar_like(z, 2), lax.exp(lax.neg(lax.square(z)))), reflected),
                  reflected)


def wofz(z: Any) -> Any:
    """The Faddeeva function ``exp(-z**2) erfc(-i z)`` (real input is taken as complex)."""
    z, = util.promote_args_inexact("wofz", z)
    dtype = get_aval(z).dtype
    if not dtypes.issubdtype(dtype, np.complexfloating):
        z = lax.convert_element_type(z, dtypes.to_complex_dtype(dtype))
    return _wofz(z)


def _real_only(name: str, x: Any, message: str, error: type) -> Any:
    x, = util.promote_args_inexact(name, x)
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        raise error(message)
    return x


def _as_complex(x: Any) -> Any:
    return lax.complex(x, lax.full_like(x, 0))


def dawsn(x: Any) -> Any:
    """Dawson's integral ``exp(-x**2) * integral of exp(t**2) from 0 to x``."""
    x = _real_only("dawsn", x, "dawsn does not support complex-valued inputs.", ValueError)
    small = lax.lt(lax.abs(x), util.scalar_like(x, 0.2))
    # near 0: the series sum((-2)**k x**(2k+1) / (2k+1)!!), where Weideman's relative accuracy fades
    t = _where(small, x, util.scalar_like(x, 0))
    term, series = t, t
    for k in range(1, 12):
        term = lax.div(lax.mul(lax.mul(term, util.scalar_like(x, -2)), lax.square(t)), util.scalar_like(x, 2 * k + 1))
        series = lax.add(series, term)
    faddeeva = _wofz(_as_complex(_where(small, util.scalar_like(x, 1), x)))
    return _where(small, series, lax.mul(util.scalar_like(x, np.sqrt(np.pi) / 2), lax.imag(faddeeva)))


def fresnel(x: Any) -> tuple[Any, Any]:
    """The Fresnel integrals ``(S(x), C(x))``: the integrals of ``sin(pi t**2 / 2)`` and ``cos(pi t**2 / 2)`` from
    0 to ``x``."""
    x = _real_only("fresnel", x, "Support for complex-valued inputs is not implemented yet.", NotImplementedError)
    magnitude = lax.abs(x)
    small = lax.le(magnitude, util.scalar_like(x, 1.2))
    t = _where(small, magnitude, util.scalar_like(x, 0))
    # near 0: S = sum((-1)**k (pi/2)**(2k+1) t**(4k+3) / ((2k+1)! (4k+3))), C likewise with even powers
    half_pi_t2 = lax.mul(util.scalar_like(x, np.pi / 2), lax.square(t))
    sine, cosine = lax.full_like(x, 0), lax.full_like(x, 0)
    term = t  # (pi t**2 / 2)**j t / j!, signed
    for j in range(24):
        if j:
            term = lax.div(lax.mul(term, half_pi_t2), util.scalar_like(x, j))
        signed = term if j % 4 in (0, 1) else lax.neg(term)
        if j % 2:
            sine = lax.add(sine, lax.div(signed, util.scalar_like(x, 2 * j + 1)))
        else:
            cosine = lax.add(cosine, lax.div(signed, util.scalar_like(x, 2 * j + 1)))
    # beyond: C + i S = (1 + i)/2 (1 - exp(i pi x**2 / 2) w((1 + i) sqrt(pi) x / 2))
    u = _where(small, util.scalar_like(x, 2), magnitude)
    scaled = lax.mul(util.scalar_like(u, np.sqrt(np.pi) / 2), u)
    faddeeva = _wofz(lax.complex(scaled, scaled))
    phase = lax.mul(util.scalar_like(u, np.pi / 2), lax.square(u))
    rotation = lax.complex(lax.cos(phase), lax.sin(phase))
    one = util.scalar_like(faddeeva, 1)
    integral = lax.mul(util.scalar_like(faddeeva, 0.5 + 0.5j), lax.sub(one, lax.mul(rotation, faddeeva)))
    sine = _where(small, sine, lax.imag(integral))
    cosine = _where(small, cosine, lax.real(integral))
    sign = lax.sign(x)
    return lax.mul(sign, sine), lax.mul(sign, cosine)
