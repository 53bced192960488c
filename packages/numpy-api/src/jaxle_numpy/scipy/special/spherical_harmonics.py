"""``sph_harm_y``: the spherical harmonics ``Y_n^m(theta, phi)`` (``theta`` polar, ``phi`` azimuthal), from the
fully normalized associated Legendre functions by their three-term recurrence in the degree."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.creation import asarray
from jaxle_numpy.manipulation import broadcast_arrays

__all__ = ["sph_harm_y"]


def _normalized_legendre(n: Any, order: Any, x: Any, n_max: int) -> Any:
    """``sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m(x)`` (with the Condon-Shortley phase) for ``0 <= m = order``."""
    def k(value: float) -> Any:
        return util.scalar_like(x, value)

    sine = lax.sqrt(lax.sub(k(1), lax.square(x)))
    # the diagonal term: (-1)^m sqrt((2m+1)/(4 pi) Gamma(m + 1/2) / (sqrt(pi) m!)) sin^m
    log_diagonal = lax.mul(k(0.5), lax.sub(lax.add(lax.log(lax.div(lax.add(lax.mul(k(2), order), k(1)),
                                                                      k(4 * np.pi))),
                                                   lax.lgamma(lax.add(order, k(0.5)))),
                                           lax.add(lax.lgamma(lax.add(order, k(1))), k(0.5 * np.log(np.pi)))))
    parity = lax.sub(k(1), lax.mul(k(2), lax.rem(order, k(2))))
    diagonal = lax.mul(lax.mul(parity, lax.exp(log_diagonal)), lax.pow(sine, order))
    previous, current, result = lax.full_like(x, 0), lax.full_like(x, 0), lax.full_like(x, 0)
    previous_factor = lax.full_like(x, 1)
    for degree in range(n_max + 1):
        l = k(degree)  # noqa: E741 - the degree's usual name
        above = lax.max(lax.sub(lax.square(l), lax.square(order)), k(1))
        factor = lax.sqrt(lax.div(lax.sub(lax.mul(k(4), lax.square(l)), k(1)), above))
        recurrence = lax.mul(factor, lax.sub(lax.mul(x, current), lax.div(previous, previous_factor)))
        first_above = lax.mul(lax.mul(x, lax.sqrt(lax.add(lax.mul(k(2), order), k(3)))), current)
        value = _where(lax.eq(l, order), diagonal, _where(lax.eq(l, lax.add(order, k(1))), first_above, recurrence))
        value = _where(lax.lt(l, order), k(0), value)
        previous, current = current, value
        previous_factor = _where(lax.lt(l, lax.add(order, k(1))), k(1), factor)
        previous_factor = _where(lax.eq(l, lax.add(order, k(1))), lax.sqrt(lax.add(lax.mul(k(2), order), k(3))),
                                 previous_factor)
        result = _where(lax.eq(n, l), value, result)
    return result


def sph_harm_y(n: Any, m: Any, theta: Any, phi: Any, diff_n: int | None = None, n_max: int | None = None) -> Any:
    """The spherical harmonic of degree ``n`` and order ``m`` at polar angle ``theta`` and azimuth ``phi``
    (0 where ``|m| > n``). ``n_max`` bounds the degrees (by default the largest of ``n``, which must then be
    concrete)."""
    if diff_n is not None:
        raise NotImplementedError("The 'diff_n' argument to jax.scipy.special.sph_harm_y is not supported.")
    util.check_arraylike("cos", theta)  # where JAX's check falls (n and m may be lists)
    util.check_arraylike("sph_harm_y", phi)
    if n_max is None:
        context = "The `n_max` argument of sph_harm_y is computed from `n`; pass n_max to trace n."
        n_max = int(np.max(util.concrete_or_error(asarray(n), context)))
    theta, phi = util.promote_args_inexact("sph_harm_y", theta, phi)
    dtype = get_aval(theta).dtype
    n, m, theta, phi = broadcast_arrays(lax.convert_element_type(asarray(n), dtype),
                                        lax.convert_element_type(asarray(m), dtype), theta, phi)
    order = lax.abs(m)
    legendre = _normalized_legendre(n, order, lax.cos(theta), n_max)
    angle = lax.mul(order, phi)
    harmonic = lax.complex(lax.mul(legendre, lax.cos(angle)), lax.mul(legendre, lax.sin(angle)))
    # Y_n^-m = (-1)^m conj(Y_n^m)
    parity = lax.sub(util.scalar_like(order, 1), lax.mul(util.scalar_like(order, 2), lax.rem(order, util.scalar_like(
        order, 2))))
    negative = lax.mul(lax.convert_element_type(parity, dtypes.to_complex_dtype(dtype)), lax.conj(harmonic))
    return _where(lax.lt(m, util.zero_of(m)), negative, harmonic)
