"""The negative binomial distribution: failures before the ``n``-th success (probability ``p``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import _xlogy
from jaxle_numpy.scipy.stats._common import c, promote

__all__ = ["logpmf", "pmf"]


def logpmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the probability of ``k`` failures (``-inf`` below 0)."""
    k, n, p, loc = promote("nbinom.logpmf", k, n, p, loc)
    y = lax.sub(k, loc)
    log_combinations = lax.sub(lax.sub(lax.lgamma(lax.add(y, n)), lax.lgamma(n)), lax.lgamma(lax.add(y, c(y, 1))))
    log_linear = lax.add(_xlogy(n, p), _xlogy(y, lax.sub(c(p, 1), p)))
    log_probability = lax.add(log_combinations, log_linear)
    return _where(lax.lt(k, loc), -np.inf, log_probability)


def pmf(k: Any, n: Any, p: Any, loc: Any = 0) -> Any:
    """The probability of ``k`` failures."""
    return lax.exp(logpmf(k, n, p, loc))
