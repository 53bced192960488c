"""The left-skewed Gumbel (extreme value of minima) distribution."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import xlog1py, xlogy
from jaxle_numpy.scipy.stats._common import c, positive_scale, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def _standardized(name: str, x: Any, loc: Any, scale: Any) -> tuple[Any, Any, Any]:
    """The promoted ``scale``, whether it is positive and ``(x - loc) / scale``."""
    x, loc, scale = promote(name, x, loc, scale)
    ok = positive_scale(scale)
    return scale, ok, standardize(x, loc, scale)


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    scale, ok, z = _standardized("gumbel_l.logpdf", x, loc, scale)
    return _where(ok, lax.add(xlogy(-1, scale), lax.sub(z, lax.exp(z))), np.nan)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    _, ok, z = _standardized("gumbel_l.logcdf", x, loc, scale)
    return _where(ok, lax.log(lax.neg(lax.expm1(lax.neg(lax.exp(z))))), np.nan)


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.exp(logcdf(x, loc, scale))


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    _, ok, z = _standardized("gumbel_l.logsf", x, loc, scale)
    return _where(ok, lax.neg(lax.exp(z)), np.nan)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.exp(logsf(x, loc, scale))


def ppf(p: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``p`` (NaN outside (0, 1))."""
    p, loc, scale = promote("gumbel_l.ppf", p, loc, scale)
    inside = lax.bitwise_and(lax.gt(p, c(p, 0)), lax.lt(p, c(p, 1)))
    return _where(inside, lax.add(loc, lax.mul(scale, lax.log(xlog1py(-1, lax.neg(p))))), np.nan)
