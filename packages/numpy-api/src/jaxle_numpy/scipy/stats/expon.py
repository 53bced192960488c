"""The exponential distribution (rate ``1 / scale``, shifted by ``loc``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import not_probability, promote

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("expon.logpdf", x, loc, scale)
    log_scale = lax.log(scale)
    log_density = lax.neg(lax.add(lax.div(lax.sub(x, loc), scale), log_scale))
    return _where(lax.lt(x, loc), -np.inf, log_density)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def _log_survival(name: str, x: Any, loc: Any, scale: Any) -> tuple[Any, Any, Any]:
    """(below the support, zeros, ``-(x - loc) / scale``)."""
    x, loc, scale = promote(name, x, loc, scale)
    negative_scaled = lax.div(lax.sub(loc, x), scale)
    return lax.lt(x, loc), lax.full_like(negative_scaled, 0), negative_scaled


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    below, zeros, negative_scaled = _log_survival("expon.cdf", x, loc, scale)
    return _where(below, zeros, lax.neg(lax.expm1(negative_scaled)))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    below, zeros, negative_scaled = _log_survival("expon.logcdf", x, loc, scale)
    return lax.log1p(lax.neg(lax.exp(_where(below, zeros, negative_scaled))))


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    below, zeros, negative_scaled = _log_survival("expon.logsf", x, loc, scale)
    return _where(below, zeros, negative_scaled)


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.exp(logsf(x, loc, scale))


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``q``."""
    q, loc, scale = promote("expon.ppf", q, loc, scale)
    outside = not_probability(q)
    return _where(outside, np.nan, lax.sub(loc, lax.mul(scale, lax.log1p(lax.neg(q)))))
