"""The confluent (``hyp1f1``) and Gauss (``hyp2f1``) hypergeometric functions of real arguments, summed as power
series (a running product of term ratios) after transformations that keep the series short and free of cancellation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, jit, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.creation import asarray
from jaxle_numpy.manipulation import broadcast_arrays
from jaxle_numpy.scalar_types import finfo
from jaxle_numpy.scipy.special.gamma_functions import gamma
from jaxle_numpy.ufuncs import abs as absolute
from jaxle_numpy.ufuncs import exp
from jaxle_numpy.vectorize import vectorize

__all__ = ["hyp1f1", "hyp2f1"]

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


_MAX_TERMS = 250  # the series stop here, or once a term is below the float's epsilon relative to their sum


def _summed(terms_of: Callable[[Any, Any, Any], tuple[Any, Any]], first_term: Any, start: float) -> Any:
    """``start`` plus the terms ``first_term, ...``, each step of ``terms_of(total, k, term)`` giving the next total
    and term, until a term is negligible or the series is long enough."""
    dtype = get_aval(first_term).dtype
    epsilon = finfo(dtype).eps

    def going(state: tuple) -> Any:
        total, k, term = state
        return (k < _MAX_TERMS) & (absolute(term) / absolute(total) > epsilon)

    def step(state: tuple) -> tuple:
        total, k, term = state
        total, term = terms_of(total, k, term)
        return total, k + 1, term

    return lax.while_loop(going, step, (dtype.type(start), 1, first_term))[0]  # a strongly typed start


def _kummer_ratio(a: Any, b: Any, x: Any, k: Any) -> Any:
    """The ratio of the ``k + 1``-th to the ``k``-th term of Kummer's series."""
    return (a + k) / (b + k) * x / (k + 1)


def _kummer_series(a: Any, b: Any, x: Any) -> Any:
    """``1F1(a; b; x)`` by its power series (``|x| < 100``)."""
    return _summed(lambda total, k, term: (total + term, term * _kummer_ratio(a, b, x, k)), a / b * x, 1.0)


def _kummer_asymptotic(a: Any, b: Any, x: Any) -> Any:
    """``1F1(a; b; x)`` by its asymptotic series in ``1 / x`` (``|x| >= 100``)."""
    def terms_of(total: Any, k: Any, term: Any) -> tuple[Any, Any]:
        return total + term, term * (((b - a) + k) * ((1 - a) + k) / (k + 1) / x)

    total = _summed(terms_of, (b - a) * (1 - a) / x, 1.0)
    return gamma(b) / gamma(a) * exp(x) * x ** (a - b) * total


@custom_jvp
@jit
@vectorize
def hyp1f1(a: Any, b: Any, x: Any) -> Any:
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)`` for real arguments: its power series for
    ``|x| < 100``, its asymptotic series beyond."""
    a, b, x = util.promote_args_inexact("hyp1f1", a, b, x)
    value = lax.cond(absolute(x) < 100, _kummer_series, _kummer_asymptotic, a, b, x)
    case = (a == 0) * 1 + ((a == b) & (a != 0)) * 2 + ((b == 0) & (a != 0)) * 3
    return lax.select_n(case, value, lax.full_like(value, 1.0), exp(x), lax.full_like(value, np.inf))


@jit
def _hyp1f1_a_derivative(a: Any, b: Any, x: Any) -> Any:
    def terms_of(total: Any, k: Any, term: Any) -> tuple[Any, Any]:
        return total + term * (lax.digamma(a + k) - lax.digamma(a)), term * _kummer_ratio(a, b, x, k)

    return _summed(terms_of, a / b * x, 0.0)


@jit
def _hyp1f1_b_derivative(a: Any, b: Any, x: Any) -> Any:
    def terms_of(total: Any, k: Any, term: Any) -> tuple[Any, Any]:
        return total + term * (lax.digamma(b) - lax.digamma(b + k)), term * _kummer_ratio(a, b, x, k)

    return _summed(terms_of, a / b * x, 0.0)


@jit
def _hyp1f1_x_derivative(a: Any, b: Any, x: Any) -> Any:
    return a / b * hyp1f1(a + 1, b + 1, x)


hyp1f1.defjvps(lambda t, ans, a, b, x: _hyp1f1_a_derivative(a, b, x) * t,
               lambda t, ans, a, b, x: _hyp1f1_b_derivative(a, b, x) * t,
               lambda t, ans, a, b, x: _hyp1f1_x_derivative(a, b, x) * t)


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
