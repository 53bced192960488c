"""The normal distribution truncated to ``[a, b]`` (bounds in standard units: ``loc + a * scale`` and up)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.error_functions import _log_ndtr
from jaxle_numpy.scipy.stats import norm
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]


def _log_ndtr3(x: Any) -> Any:
    return _log_ndtr(x, 3)


def _log_difference(log_big: Any, log_small: Any) -> Any:
    """``log(exp(log_big) - exp(log_small))`` without leaving log space."""
    return lax.add(log_big, lax.log1p(lax.neg(lax.exp(lax.sub(log_small, log_big)))))


def _log_mass_between(low: Any, high: Any) -> Any:
    """``log(ndtr(high) - ndtr(low))``, computed in the tail where both probabilities are small."""
    left = _log_difference(_log_ndtr3(high), _log_ndtr3(low))
    right = _log_difference(_log_ndtr3(lax.neg(low)), _log_ndtr3(lax.neg(high)))
    return _where(lax.gt(low, c(low, 0)), right, left)


def logpdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x`` (``-inf`` outside the bounds)."""
    x, a, b, loc, scale = promote("truncnorm.logpdf", x, a, b, loc, scale)
    z = standardize(x, loc, scale)
    log_density = lax.sub(norm.logpdf(x, loc, scale), _log_mass_between(a, b))
    return _where(lax.bitwise_or(lax.lt(z, a), lax.gt(z, b)), -np.inf, log_density)


def pdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, a, b, loc, scale))


def logcdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    x, a, b, loc, scale = promote("truncnorm.logcdf", x, a, b, loc, scale)
    z = standardize(x, loc, scale)
    clipped = lax.min(lax.max(z, a), b)
    log_cdf = lax.sub(_log_mass_between(a, clipped), _log_mass_between(a, b))
    log_cdf = _where(lax.le(z, a), -np.inf, log_cdf)
    return _where(lax.ge(z, b), c(z, 0), log_cdf)


def cdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.exp(logcdf(x, a, b, loc, scale))


def logsf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``: the ``logcdf`` of the mirrored distribution."""
    x, a, b, loc, scale = promote("truncnorm.logsf", x, a, b, loc, scale)
    return logcdf(lax.neg(x), lax.neg(b), lax.neg(a), lax.neg(loc), scale)


def sf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.exp(logsf(x, a, b, loc, scale))
