"""The gamma distribution with shape ``a``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import _xlogy
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]


def logpdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, a, loc, scale = promote("gamma.logpdf", x, a, loc, scale)
    inside = lax.ge(x, loc)
    y = _where(inside, standardize(x, loc, scale), c(x, 1))
    log_linear = lax.sub(_xlogy(lax.sub(a, c(a, 1)), y), y)
    log_density = lax.sub(log_linear, lax.add(lax.lgamma(a), lax.log(scale)))
    return _where(inside, log_density, -np.inf)


def pdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, a, loc, scale))


def cdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, a, loc, scale = promote("gamma.cdf", x, a, loc, scale)
    return lax.igamma(a, lax.clamp(c(x, 0), standardize(x, loc, scale), c(x, np.inf)))


def logcdf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    return lax.log(cdf(x, a, loc, scale))


def sf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    x, a, loc, scale = promote("gamma.sf", x, a, loc, scale)
    y = standardize(x, loc, scale)
    return _where(lax.lt(y, c(y, 0)), 1, lax.igammac(a, y))


def logsf(x: Any, a: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    return lax.log(sf(x, a, loc, scale))
