"""The Poisson distribution with mean ``mu``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy.conditional import _where
from jaxle_numpy.manipulation import expand_dims
from jaxle_numpy.scipy.special.logarithmic import _xlogy, entr
from jaxle_numpy.scipy.stats._common import c, promote
from jaxle_numpy.ufuncs import floor, round

__all__ = ["cdf", "entropy", "logpmf", "pmf"]


def logpmf(k: Any, mu: Any, loc: Any = 0) -> Any:
    """The log of the probability of ``k`` (``-inf`` off the non-negative integers)."""
    k, mu, loc = promote("poisson.logpmf", k, mu, loc)
    x = lax.sub(k, loc)
    log_probability = lax.sub(lax.sub(_xlogy(x, mu), lax.lgamma(lax.add(x, c(x, 1)))), mu)
    off_support = lax.bitwise_or(lax.lt(x, c(x, 0)), lax.ne(round(k), k))
    return _where(off_support, -np.inf, log_probability)


def pmf(k: Any, mu: Any, loc: Any = 0) -> Any:
    """The probability of ``k``."""
    return lax.exp(logpmf(k, mu, loc))


def cdf(k: Any, mu: Any, loc: Any = 0) -> Any:
    """The probability of at most ``k``."""
    k, mu, loc = promote("poisson.cdf", k, mu, loc)
    x = lax.sub(k, loc)
    probability = lax.igammac(floor(lax.add(c(x, 1), x)), mu)
    return _where(lax.lt(x, c(x, 0)), c(x, 0), probability)


def _summed_entropy(mu: Any, terms: int, last: Any) -> Any:
    """``sum(entr(pmf(k)))`` over ``k < min(terms, last)``."""
    dtype = get_aval(mu).dtype
    k = expand_dims(lax.iota(dtype, terms), 1)
    probabilities = pmf(k, expand_dims(mu, 0))
    probabilities = _where(lax.lt(k, expand_dims(last, 0)), probabilities, c(mu, 0))
    return lax.reduce_sum(entr(probabilities), (0,))


def entropy(mu: Any, loc: Any = 0) -> Any:
    """The entropy of the distribution (``loc`` does not change it): a sum over the probable values for small
    ``mu``, its asymptotic series for large ``mu``."""
    mu, loc = promote("poisson.entropy", mu, loc)
    flat = lax.reshape(mu, (max(1, int(np.prod(get_aval(mu).shape))),))
    small = _summed_entropy(flat, 35, lax.ceil(lax.add(flat, c(flat, 20))))
    spread = lax.add(lax.add(flat, lax.mul(c(flat, 10), lax.sqrt(flat))), c(flat, 20))
    medium = _summed_entropy(flat, 250, lax.ceil(spread))
    safe = _where(lax.gt(flat, c(flat, 0)), flat, c(flat, 1))
    inverse = lax.div(c(flat, 1), safe)
    series = lax.mul(inverse, lax.add(c(flat, 1 / 12), lax.mul(inverse, lax.add(
        c(flat, 1 / 24), lax.mul(inverse, c(flat, 19 / 360))))))
    asymptotic = lax.sub(lax.mul(c(flat, 0.5), lax.log(lax.mul(c(flat, 2 * np.pi * np.e), safe))), series)
    result = _where(lax.lt(flat, c(flat, 10)), small, _where(lax.lt(flat, c(flat, 100)), medium, asymptotic))
    result = _where(lax.eq(flat, c(flat, 0)), c(flat, 0), result)
    return lax.reshape(result, get_aval(mu).shape)
