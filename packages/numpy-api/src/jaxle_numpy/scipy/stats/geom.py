"""The geometric distribution: the number of trials up to the first success (probability ``p``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import _xlog1py
from jaxle_numpy.scipy.stats._common import c, promote

__all__ = ["logpmf", "pmf"]


def logpmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The log of the probability of ``k`` trials (``-inf`` from 0 down)."""
    k, p, loc = promote("geom.logpmf", k, p, loc)
    x = lax.sub(k, loc)
    log_probability = lax.add(_xlog1py(lax.sub(x, c(x, 1)), lax.neg(p)), lax.log(p))
    return _where(lax.le(x, c(x, 0)), -np.inf, log_probability)


def pmf(k: Any, p: Any, loc: Any = 0) -> Any:
    """The probability of ``k`` trials."""
    return lax.exp(logpmf(k, p, loc))
