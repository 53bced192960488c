"""The logistic distribution."""

from __future__ import annotations

from typing import Any

from jaxle_core import lax
from jaxle_numpy.scipy.special.logarithmic import _logit
from jaxle_numpy.scipy.stats._common import c, promote, standardize
from jaxle_numpy.ufuncs import logaddexp

__all__ = ["cdf", "isf", "logpdf", "pdf", "ppf", "sf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("logistic.logpdf", x, loc, scale)
    half_z = lax.div(standardize(x, loc, scale), c(x, 2))
    minus_two = lax.neg(c(x, 2))
    return lax.sub(lax.mul(minus_two, logaddexp(half_z, lax.neg(half_z))), lax.log(scale))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, loc, scale = promote("logistic.cdf", x, loc, scale)
    return lax.logistic(standardize(x, loc, scale))


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    x, loc, scale = promote("logistic.sf", x, loc, scale)
    return lax.logistic(lax.neg(standardize(x, loc, scale)))


def ppf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``x`` (a probability)."""
    x, loc, scale = promote("logistic.ppf", x, loc, scale)
    return lax.add(lax.mul(_logit(x), scale), loc)


def isf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The inverse of the survival function at ``x`` (a probability)."""
    x, loc, scale = promote("logistic.isf", x, loc, scale)
    return lax.add(lax.mul(lax.neg(_logit(x)), scale), loc)
