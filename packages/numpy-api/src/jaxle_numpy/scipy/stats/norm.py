"""The normal distribution (``loc`` its mean, ``scale`` its standard deviation)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.creation import asarray
from jaxle_numpy.scipy.special.error_functions import _log_ndtr, _ndtr, ndtri
from jaxle_numpy.scipy.stats._common import c, promote, standardize
from jaxle_numpy.ufuncs import add, multiply

__all__ = ["cdf", "isf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("norm.logpdf", x, loc, scale)
    scale_squared = lax.square(scale)
    log_normalizer = lax.log(lax.mul(c(scale, 2 * np.pi), scale_squared))
    quadratic = lax.div(lax.square(lax.sub(x, loc)), scale_squared)
    return lax.div(lax.add(log_normalizer, quadratic), c(x, -2))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, loc, scale = promote("norm.cdf", x, loc, scale)
    return _ndtr(standardize(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    x, loc, scale = promote("norm.logcdf", x, loc, scale)
    return _log_ndtr(standardize(x, loc, scale), 3)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function ``1 - cdf`` at ``x``."""
    x, loc, scale = promote("norm.sf", x, loc, scale)
    return cdf(lax.neg(x), lax.neg(loc), scale)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    x, loc, scale = promote("norm.logsf", x, loc, scale)
    return logcdf(lax.neg(x), lax.neg(loc), scale)


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function (inverse of ``cdf``) at ``q``: float32 or float64 ``q`` only (``ndtri``'s)."""
    return asarray(add(multiply(ndtri(q), scale), loc), float)


def isf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The inverse of the survival function at ``q``."""
    return ppf(1 - q, loc, scale)
