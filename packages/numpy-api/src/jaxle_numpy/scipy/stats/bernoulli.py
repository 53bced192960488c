"""The Bernoulli distribution with success probability ``p``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import _xlog1py, _xlogy
from jaxle_numpy.scipy.stats._common import c, promote
from jaxle_numpy.selection import select

__all__ = ["cdf", "logpmf", "pmf", "ppf"]


def _invalid(x: Any, p: Any) -> Any:
    """Where ``x`` or ``p`` is NaN or ``p`` is not a probability."""
    return lax.ne(x, x) | lax.ne(p, p) | lax.lt(p, c(p, 0)) | lax.gt(p, c(p, 1))


def logpmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the probability of ``k`` (``-inf`` outside [0, 1])."""
    k, p, loc = promote("bernoulli.logpmf", k, p, loc)
    x = lax.sub(k, loc)
    log_probability = lax.add(_xlogy(x, p), _xlog1py(lax.sub(c(x, 1), x), lax.neg(p)))
    return _where(lax.lt(x, c(x, 0)) | lax.gt(x, c(x, 1)), -np.inf, log_probability)


def pmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The probability of ``k``."""
    return lax.exp(logpmf(k, p, loc))


def cdf(k: Any, p: Any) -> Any:
    """The probability of at most ``k``."""
    k, p = promote("bernoulli.cdf", k, p)
    invalid = _invalid(k, p)
    below = lax.lt(k, c(k, 0))
    between = lax.ge(k, c(k, 0)) & lax.lt(k, c(k, 1))
    above = lax.ge(k, c(k, 1))
    return select([invalid, below, between, above], [np.nan, c(k, 0), lax.sub(c(p, 1), p), c(k, 1)])


def ppf(q: Any, p: Any) -> Any:
    """The quantile function at ``q``: 0 up to ``1 - p``, then 1."""
    q, p = promote("bernoulli.ppf", q, p)
    outside = _invalid(q, p) | lax.lt(q, c(q, 0)) | lax.gt(q, c(q, 1))
    return _where(outside, np.nan, _where(lax.le(q, lax.sub(c(p, 1), p)), c(q, 0), c(q, 1)))
