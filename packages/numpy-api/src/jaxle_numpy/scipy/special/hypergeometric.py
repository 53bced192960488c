"""The confluent (``hyp1f1``) and Gauss (``hyp2f1``) hypergeometric functions of real arguments, summed as power
series (a running product of term ratios) after transformations that keep the series short and free of cancellation."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.creation import asarray
from jaxle_numpy.manipulation import broadcast_arrays

__all__ = ["hyp1f1", "hyp2f1"]

_KUMMER_TERMS = 500  # the series of 1F1 up to x in the hundreds (past which exp(x) overflows)
_GAUSS_TERMS = 3000  # the series of 2F1 up to z = 0.99 to double precision


def _k(x: Any, value: float) -> Any:
    return util.scalar_like(x, value)


def _series(numerator_parameters: tuple[Any, ...], denominator: Any, z: Any, terms: int) -> Any:
    """``sum(prod((p)_k) / (denominator)_k z**k / k!)`` over ``k < terms`` (``(p)_k`` the rising factorial): the
    ratios of consecutive terms along a new leading axis, their running product, its sum."""
    shape = get_aval(z).shape
    k = lax.broadcast_in_dim(lax.iota(get_aval(z).dtype, terms - 1), (terms - 1,) + shape, (0,))

    def along(x: Any) -> Any:
        return lax.broadcast_in_dim(x, (terms - 1,) + shape, tuple(range(1, len(shape) + 1)))

    ratio = lax.div(along(z), lax.mul(lax.add(along(denominator), k), lax.add(k, _k(z, 1))))
    for parameter in numerator_parameters:
        ratio = lax.mul(ratio, lax.add(along(parameter), k))
    return lax.add(_k(z, 1), lax.reduce_sum(lax.cumprod(ratio, axis=0), (0,)))


def hyp1f1(a: Any, b: Any, x: Any) -> Any:
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)``; for negative ``x`` through Kummer's
    transformation ``1F1(a; b; x) = exp(x) 1F1(b - a; b; -x)``, whose series has no cancellation."""
    a, b, x = broadcast_arrays(*util.promote_args_inexact("hyp1f1", *map(asarray, (a, b, x))))
    negative = lax.lt(x, _k(x, 0))
    top = _where(negative, lax.sub(b, a), a)
    value = _series((top,), b, lax.abs(x), _KUMMER_TERMS)
    return _where(negative, lax.mul(lax.exp(x), value), value)


def _is_nonpositive_integer(p: Any) -> Any:
    return lax.bitwise_and(lax.le(p, _k(p, 0)), lax.eq(lax.floor(p), p))


def hyp2f1(a: Any, b: Any, c: Any, x: Any) -> Any:
    """The Gauss hypergeometric function ``2F1(a, b; c; x)`` for ``x < 1`` (negative ``x`` through Pfaff's
    transformation), at 1 by Gauss's theorem, and for any ``x`` when ``a`` or ``b`` ends the series; infinite
    elsewhere above 1, as in JAX."""
    a, b, c, x = broadcast_arrays(*util.promote_args_inexact("hyp2f1", *map(asarray, (a, b, c, x))))
    polynomial = lax.bitwise_or(_is_nonpositive_integer(a), _is_nonpositive_integer(b))
    pfaff = lax.bitwise_and(lax.lt(x, _k(x, 0)), lax.bitwise_not(polynomial))
    # Pfaff: 2F1(a, b; c; x) = (1 - x)**-a 2F1(a, c - b; c; x / (x - 1)), x / (x - 1) in (0, 1) for x < 0
    z = _where(pfaff, lax.div(x, lax.sub(x, _k(x, 1))), _where(lax.lt(x, _k(x, 1)), x, _k(x, 0)))
    z = _where(polynomial, x, z)
    second = _where(pfaff, lax.sub(c, b), b)
    value = _series((a, second), c, z, _GAUSS_TERMS)
    value = _where(pfaff, lax.mul(lax.pow(lax.sub(_k(x, 1), x), lax.neg(a)), value), value)
    excess = lax.sub(lax.sub(c, a), b)
    gauss = lax.exp(lax.sub(lax.add(lax.lgamma(c), lax.lgamma(excess)),
                            lax.add(lax.lgamma(lax.sub(c, a)), lax.lgamma(lax.sub(c, b)))))
    at_one = _where(lax.gt(excess, _k(excess, 0)), gauss, _k(x, np.inf))
    value = _where(lax.bitwise_and(lax.eq(x, _k(x, 1)), lax.bitwise_not(polynomial)), at_one, value)
    above = lax.bitwise_and(lax.gt(x, _k(x, 1)), lax.bitwise_not(polynomial))
    return _where(above, _k(x, np.inf), value)
