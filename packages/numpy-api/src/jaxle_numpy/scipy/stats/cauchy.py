"""The Cauchy distribution."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["cdf", "isf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("cauchy.logpdf", x, loc, scale)
    z = standardize(x, loc, scale)
    normalizer = lax.log(lax.mul(c(scale, np.pi), scale))
    return lax.neg(lax.add(normalizer, lax.log1p(lax.mul(z, z))))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, loc, scale = promote("cauchy.cdf", x, loc, scale)
    z = standardize(x, loc, scale)
    inverse_pi = lax.div(c(z, 1), c(z, np.pi))
    return lax.add(c(z, 0.5), lax.mul(inverse_pi, lax.atan(z)))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    return lax.log(cdf(x, loc, scale))


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    x, loc, scale = promote("cauchy.sf", x, loc, scale)
    return cdf(lax.neg(x), lax.neg(loc), scale)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    x, loc, scale = promote("cauchy.logsf", x, loc, scale)
    return logcdf(lax.neg(x), lax.neg(loc), scale)


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``q``."""
    q, loc, scale = promote("cauchy.ppf", q, loc, scale)
    return lax.add(lax.mul(lax.tan(lax.sub(lax.mul(c(q, np.pi), q), c(q, np.pi / 2))), scale), loc)


def isf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The inverse of the survival function at ``q``."""
    q, loc, scale = promote("cauchy.isf", q, loc, scale)
    return lax.add(lax.mul(lax.tan(lax.sub(c(q, np.pi / 2), lax.mul(c(q, np.pi), q))), scale), loc)
