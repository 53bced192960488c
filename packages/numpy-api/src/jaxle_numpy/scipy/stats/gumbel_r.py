"""The right-skewed Gumbel (extreme value of maxima) distribution."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import xlogy
from jaxle_numpy.scipy.stats._common import c, log1mexp, positive_scale, promote, standardize

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf", "sf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("gumbel_r.logpdf", x, loc, scale)
    ok = positive_scale(scale)
    z = standardize(x, loc, scale)
    log_density = lax.add(xlogy(-1, scale), lax.neg(lax.add(z, lax.exp(lax.neg(z)))))
    return _where(ok, log_density, np.nan)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def logcdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``."""
    x, loc, scale = promote("gumbel_r.logcdf", x, loc, scale)
    ok = positive_scale(scale)
    return _where(ok, lax.neg(lax.exp(lax.neg(standardize(x, loc, scale)))), np.nan)


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.exp(logcdf(x, loc, scale))


def _minus_exp_of_minus_z(name: str, x: Any, loc: Any, scale: Any) -> tuple[Any, Any]:
    """Whether ``scale`` is positive and ``exp(-z)``, ``-z`` formed as ``(loc - x) / scale``."""
    x, loc, scale = promote(name, x, loc, scale)
    ok = positive_scale(scale)
    return ok, lax.exp(lax.div(lax.sub(loc, x), scale))


def sf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    ok, exp_minus_z = _minus_exp_of_minus_z("gumbel_r.sf", x, loc, scale)
    return _where(ok, lax.sub(c(exp_minus_z, 1), lax.exp(lax.neg(exp_minus_z))), np.nan)


def logsf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``."""
    ok, exp_minus_z = _minus_exp_of_minus_z("gumbel_r.logsf", x, loc, scale)
    return _where(ok, log1mexp(exp_minus_z), np.nan)


def ppf(p: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``p`` (NaN outside (0, 1))."""
    p, loc, scale = promote("gumbel_r.ppf", p, loc, scale)
    inside = lax.bitwise_and(lax.gt(p, c(p, 0)), lax.lt(p, c(p, 1)))
    return _where(inside, lax.sub(loc, lax.mul(scale, lax.log(xlogy(-1, p)))), np.nan)
