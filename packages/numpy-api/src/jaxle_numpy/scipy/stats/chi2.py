"""The chi-squared distribution with ``df`` degrees of freedom: a gamma distribution of shape ``df / 2`` and
scale 2."""

from __future__ import annotations

from typing import Any

from jaxle_core import lax
from jaxle_numpy.scipy.stats import gamma
from jaxle_numpy.scipy.stats._common import c, promote

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]


def _as_gamma(name: str, x: Any, df: Any, loc: Any, scale: Any) -> tuple[Any, Any, Any, Any]:
    x, df, loc, scale = promote(name, x, df, loc, scale)
    return x, lax.div(df, c(df, 2)), loc, lax.mul(scale, c(scale, 2))


def logpdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    return gamma.logpdf(*_as_gamma("chi2.logpdf", x, df, loc, scale))


def pdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, df, loc, scale))


def cdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return gamma.cdf(*_as_gamma("chi2.cdf", x, df, loc, scale))


def logcdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    return lax.log(cdf(x, df, loc, scale))


def sf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return gamma.sf(*_as_gamma("chi2.sf", x, df, loc, scale))


def logsf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    return lax.log(sf(x, df, loc, scale))
