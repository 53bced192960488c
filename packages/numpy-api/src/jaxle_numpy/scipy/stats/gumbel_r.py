"""The right-skewed Gumbel (extreme value of maxima) distribution."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c, nan_unless_positive_scale, promote, promoted_standard_point

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    z, scale = promoted_standard_point("gumbel_r.logpdf", x, loc, scale)
    return nan_unless_positive_scale(scale, lax.sub(lax.neg(lax.add(z, lax.exp(lax.neg(z)))), lax.log(scale)))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    z, scale = promoted_standard_point("gumbel_r.logcdf", x, loc, scale)
    return nan_unless_positive_scale(scale, lax.neg(lax.exp(lax.neg(z))))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.exp(logcdf(x, loc, scale))


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.neg(lax.expm1(logcdf(x, loc, scale)))


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    return lax.log(sf(x, loc, scale))


def ppf(p: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``p`` (NaN outside (0, 1))."""
    p, loc, scale = promote("gumbel_r.ppf", p, loc, scale)
    inside = lax.bitwise_and(lax.gt(p, c(p, 0)), lax.lt(p, c(p, 1)))
    return _where(inside, lax.sub(loc, lax.mul(scale, lax.log(lax.neg(lax.log(p))))), np.nan)
