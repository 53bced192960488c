"""The Pareto distribution with shape ``b``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c, not_probability, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def _below_support(x: Any, loc: Any, scale: Any) -> Any:
    return lax.lt(x, lax.add(loc, scale))


def logpdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, b, loc, scale = promote("pareto.logpdf", x, b, loc, scale)
    z = standardize(x, loc, scale)
    log_density = lax.neg(lax.add(lax.log(lax.div(scale, b)), lax.mul(lax.add(b, c(b, 1)), lax.log(z))))
    return _where(_below_support(x, loc, scale), -np.inf, log_density)


def pdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, b, loc, scale))


def cdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, b, loc, scale = promote("pareto.cdf", x, b, loc, scale)
    probability = lax.sub(c(x, 1), lax.pow(standardize(x, loc, scale), lax.neg(b)))
    return _where(_below_support(x, loc, scale), c(probability, 0), probability)


def logcdf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    x, b, loc, scale = promote("pareto.logcdf", x, b, loc, scale)
    log_probability = lax.log1p(lax.neg(lax.pow(standardize(x, loc, scale), lax.neg(b))))
    return _where(_below_support(x, loc, scale), -np.inf, log_probability)


def logsf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    x, b, loc, scale = promote("pareto.logsf", x, b, loc, scale)
    log_survival = lax.neg(lax.mul(b, lax.log(standardize(x, loc, scale))))
    return _where(_below_support(x, loc, scale), c(log_survival, 0), log_survival)


def sf(x: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.exp(logsf(x, b, loc, scale))


def ppf(q: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``q``."""
    q, b, loc, scale = promote("pareto.ppf", q, b, loc, scale)
    quantile = lax.add(loc, lax.mul(scale, lax.pow(lax.sub(c(q, 1), q), lax.neg(lax.div(c(b, 1), b)))))
    outside = not_probability(q)
    return _where(outside, np.nan, quantile)
