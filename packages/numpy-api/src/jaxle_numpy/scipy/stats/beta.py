"""The beta distribution with shapes ``a`` and ``b`` on ``[loc, loc + scale]``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.gamma_functions import betaln
from jaxle_numpy.scipy.special.logarithmic import _xlog1py, _xlogy
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]


def logpdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, a, b, loc, scale = promote("beta.logpdf", x, a, b, loc, scale)
    log_beta = lax.neg(betaln(a, b))
    y = standardize(x, loc, scale)
    log_linear = lax.add(_xlogy(lax.sub(a, c(a, 1)), y), _xlog1py(lax.sub(b, c(b, 1)), lax.neg(y)))
    log_density = lax.sub(lax.add(log_beta, log_linear), lax.log(scale))
    outside = lax.gt(x, lax.add(loc, scale)) | lax.lt(x, loc)
    log_density = _where(outside, -np.inf, log_density)
    invalid = lax.le(a, c(a, 0)) | lax.le(b, c(b, 0)) | lax.le(scale, c(scale, 0))
    return _where(invalid, np.nan, log_density)


def pdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, a, b, loc, scale))


def cdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, a, b, loc, scale = promote("beta.cdf", x, a, b, loc, scale)
    return lax.betainc(a, b, lax.clamp(c(x, 0), standardize(x, loc, scale), c(x, 1)))


def logcdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    return lax.log(cdf(x, a, b, loc, scale))


def sf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    x, a, b, loc, scale = promote("beta.sf", x, a, b, loc, scale)
    y = lax.clamp(c(x, 0), standardize(x, loc, scale), c(x, 1))
    return lax.betainc(b, a, lax.sub(c(y, 1), y))


def logsf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    return lax.log(sf(x, a, b, loc, scale))
