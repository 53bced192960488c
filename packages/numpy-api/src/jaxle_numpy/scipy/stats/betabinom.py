"""The beta-binomial distribution: ``n`` trials with a success probability drawn from ``beta(a, b)``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.gamma_functions import betaln
from jaxle_numpy.scipy.stats._common import c, promote
from jaxle_numpy.ufuncs import floor

__all__ = ["logpmf", "pmf"]


@util.named_jit("logpmf")
def logpmf(k: Any, n: Any, a: Any, b: Any, loc: Any = 0) -> Any:
    """The log of the probability of ``floor(k)`` successes (``-inf`` outside [0, n], NaN for invalid
    parameters)."""
    k, n, a, b, loc = promote("betabinom.logpmf", k, n, a, b, loc)
    y = lax.sub(floor(k), loc)
    log_combinations = lax.neg(lax.add(lax.log1p(n), betaln(lax.add(lax.sub(n, y), c(n, 1)), lax.add(y, c(y, 1)))))
    log_beta_ratio = lax.sub(betaln(lax.add(y, a), lax.add(lax.sub(n, y), b)), betaln(a, b))
    log_probability = lax.add(log_combinations, log_beta_ratio)
    log_probability = _where(lax.bitwise_and(lax.eq(y, c(y, 0)), lax.eq(n, c(n, 0))), 0.0, log_probability)
    outside = lax.bitwise_or(lax.bitwise_or(lax.lt(y, lax.neg(loc)), lax.gt(y, n)), lax.le(lax.add(y, a), c(a, 0)))
    log_probability = _where(outside, -np.inf, log_probability)
    invalid = lax.bitwise_or(lax.bitwise_or(lax.lt(n, c(n, 0)), lax.le(a, c(a, 0))), lax.le(b, c(b, 0)))
    return _where(invalid, np.nan, log_probability)


def pmf(k: Any, n: Any, a: Any, b: Any, loc: Any = 0) -> Any:
    """The probability of ``floor(k)`` successes."""
    return lax.exp(logpmf(k, n, a, b, loc))
