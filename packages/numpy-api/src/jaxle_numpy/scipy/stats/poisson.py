"""The Poisson distribution with mean ``mu``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import jit, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
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


def _entropy_summed(mu: Any, terms: int, last: Callable[[Any], Any]) -> Any:
    """``sum(entr(pmf(k)))`` over ``k < min(terms, ceil(last(mu)))``, for each element of the flat ``mu``."""
    k = jnp.arange(terms, dtype=get_aval(mu).dtype)[:, None]
    probabilities = pmf(k, mu, 0)
    in_range = jnp.less(k, jnp.ceil(last(mu)).astype(get_aval(k).dtype)[None, :])
    return jnp.sum(entr(jnp.where(in_range, probabilities, 0.0)), axis=0)


def _entropy_small_mu(mu: Any) -> Any:
    return _entropy_summed(mu, 35, lambda mu: jnp.add(mu, 20))


def _entropy_medium_mu(mu: Any) -> Any:
    return _entropy_summed(mu, 250, lambda mu: jnp.add(jnp.add(mu, jnp.multiply(10, jnp.sqrt(mu))), 20))


def _entropy_large_mu(mu: Any) -> Any:
    """The first terms of the asymptotic series, ``log(2 pi e mu) / 2 - 1 / (12 mu)``."""
    return jnp.subtract(jnp.multiply(0.5, jnp.log(jnp.multiply(2 * np.pi * np.e, mu))),
                        jnp.true_divide(1.0, jnp.multiply(12, mu)))


@jit
def entropy(mu: Any, loc: Any = 0) -> Any:
    """The entropy of the distribution (``loc`` does not change it): a sum over the probable values for
    ``mu < 100`` (35 terms below 10, 250 from there), two terms of its asymptotic series beyond."""
    mu, loc = util.ensure_arraylike("poisson.entropy", mu, loc)
    mu, loc = util.promote_dtypes_inexact(mu, loc)
    shape = jnp.broadcast_shapes(get_aval(mu).shape, get_aval(loc).shape)
    flat = jnp.ravel(mu)
    zeros = jnp.zeros_like(flat)
    result = jnp.where(jnp.equal(flat, 0), zeros,
                       jnp.where(jnp.less(flat, 10), _entropy_small_mu(flat),
                                 jnp.where(jnp.less(flat, 100), _entropy_medium_mu(flat), _entropy_large_mu(flat))))
    return jnp.broadcast_to(jnp.reshape(result, get_aval(mu).shape), shape)
