"""The chi-squared distribution with ``df`` degrees of freedom (a gamma distribution of shape ``df / 2`` and
scale 2)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]


def logpdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, df, loc, scale = promote("chi2.logpdf", x, df, loc, scale)
    y = standardize(x, loc, scale)
    half_df = lax.div(df, c(df, 2))
    log_kernel = lax.sub(lax.mul(lax.sub(half_df, c(df, 1)), lax.log(y)), lax.div(y, c(y, 2)))
    log_normalizer = lax.add(lax.lgamma(half_df), lax.div(lax.mul(lax.log(c(df, 2)), df), c(df, 2)))
    log_density = lax.add(lax.sub(lax.neg(log_normalizer), lax.log(scale)), log_kernel)
    return _where(lax.lt(x, loc), -np.inf, log_density)


def pdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, df, loc, scale))


def _half_df_and_point(name: str, x: Any, df: Any, loc: Any, scale: Any) -> tuple[Any, Any]:
    """``df / 2`` and ``(x - loc) / (2 scale)`` clamped to the support: the gamma distribution's arguments."""
    x, df, loc, scale = promote(name, x, df, loc, scale)
    half_df = lax.div(df, c(df, 2))
    point = lax.div(lax.sub(x, loc), lax.mul(scale, c(scale, 2)))
    return half_df, lax.clamp(c(point, 0), point, c(point, np.inf))


def cdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.igamma(*_half_df_and_point("chi2.cdf", x, df, loc, scale))


def logcdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    return lax.log(cdf(x, df, loc, scale))


def sf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.igammac(*_half_df_and_point("chi2.sf", x, df, loc, scale))


def logsf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    return lax.log(sf(x, df, loc, scale))
