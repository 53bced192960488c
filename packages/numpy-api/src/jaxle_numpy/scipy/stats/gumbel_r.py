"""The right-skewed Gumbel (extreme value of maxima) distribution."""

from __future__ import annotations

from typing import Any

from jaxle_core import lax
from jaxle_numpy.scipy.stats._common import promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def _z(name: str, x: Any, loc: Any, scale: Any) -> tuple[Any, Any]:
    x, loc, scale = promote(name, x, loc, scale)
    return standardize(x, loc, scale), scale


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    z, scale = _z("gumbel_r.logpdf", x, loc, scale)
    return lax.sub(lax.neg(lax.add(z, lax.exp(lax.neg(z)))), lax.log(scale))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    z, _ = _z("gumbel_r.logcdf", x, loc, scale)
    return lax.neg(lax.exp(lax.neg(z)))


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
    """The quantile function at ``p``."""
    p, loc, scale = promote("gumbel_r.ppf", p, loc, scale)
    return lax.sub(loc, lax.mul(scale, lax.log(lax.neg(lax.log(p)))))
