"""The Laplace (double exponential) distribution."""

from __future__ import annotations

from typing import Any

from jaxle_core import lax
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["cdf", "logpdf", "pdf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("laplace.logpdf", x, loc, scale)
    scaled_distance = lax.div(lax.abs(lax.sub(x, loc)), scale)
    return lax.neg(lax.add(scaled_distance, lax.log(lax.mul(c(scale, 2), scale))))


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, loc, scale = promote("laplace.cdf", x, loc, scale)
    z = standardize(x, loc, scale)
    return lax.select(lax.le(z, c(z, 0)), lax.mul(c(z, 0.5), lax.exp(z)),
                      lax.sub(c(z, 1), lax.mul(c(z, 0.5), lax.exp(lax.neg(z)))))
