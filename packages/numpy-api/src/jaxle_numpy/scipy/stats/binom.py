"""The binomial distribution of ``n`` trials with success probability ``p``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import _xlog1py, _xlogy
from jaxle_numpy.scipy.stats._common import c, promote

__all__ = ["logpmf", "pmf"]


def log_binomial_coefficient(n: Any, k: Any) -> Any:
    """``log(n choose k)`` for real ``n`` and ``k`` through the gamma function."""
    one = c(n, 1)
    return lax.sub(lax.lgamma(lax.add(n, one)), lax.add(lax.lgamma(lax.add(k, c(k, 1))),
                                                         lax.lgamma(lax.add(lax.sub(n, k), one))))


def logpmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the probability of ``k`` successes (``-inf`` outside [loc, loc + n + 1))."""
    k, n, p, loc = promote("binom.logpmf", k, n, p, loc)
    y = lax.sub(k, loc)
    log_combinations = log_binomial_coefficient(n, y)
    log_linear = lax.add(_xlogy(y, p), _xlog1py(lax.sub(n, y), lax.neg(p)))
    log_probability = lax.add(log_combinations, log_linear)
    # a certain outcome (no trials, or p at 0 or 1 where k allows it) has log-probability exactly 0
    certain = lax.bitwise_or(lax.bitwise_and(lax.eq(y, c(y, 0)), lax.eq(n, c(n, 0))),
                             lax.eq(log_linear, c(log_linear, 0)))
    log_probability = _where(certain, 0.0, log_probability)
    inside = lax.bitwise_and(lax.ge(k, loc), lax.lt(k, lax.add(lax.add(loc, n), c(n, 1))))
    return _where(inside, log_probability, -np.inf)


def pmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The probability of ``k`` successes."""
    return lax.exp(logpmf(k, n, p, loc))
