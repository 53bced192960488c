"""The Pareto distribution with shape ``b``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c, not_probability, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def logpdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, b, loc, scale = promote("pareto.logpdf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    log_density = lax.sub(lax.log(b), lax.add(lax.log(scale), lax.mul(lax.add(b, c(b, 1)), lax.log(z))))
    return _where(lax.lt(z, c(z, 1)), -np.inf, log_density)


def pdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, b, loc, scale))


def logsf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    x, b, loc, scale = promote("pareto.logsf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    return _where(lax.lt(z, c(z, 1)), c(z, 0), lax.neg(lax.mul(b, lax.log(z))))


def sf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.exp(logsf(x, b, loc, scale))


def cdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.neg(lax.expm1(logsf(x, b, loc, scale)))


def logcdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    return lax.log1p(lax.neg(sf(x, b, loc, scale)))


def ppf(q: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``q``."""
    q, b, loc, scale = promote("pareto.ppf", q, b, loc, scale)
    outside = not_probability(q)
    quantile = lax.add(lax.mul(scale, lax.pow(lax.sub(c(q, 1), q), lax.neg(lax.div(c(b, 1), b)))), loc)
    return _where(outside, np.nan, quantile)
