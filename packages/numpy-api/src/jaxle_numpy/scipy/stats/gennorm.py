"""The generalized normal distribution with shape ``beta`` (``beta = 2``: a normal, ``1``: a Laplace)."""

from __future__ import annotations

from typing import Any

from jaxle_core import lax
from jaxle_numpy.scipy.stats._common import c, promote

__all__ = ["cdf", "logpdf", "pdf"]


def logpdf(x: Any, beta: Any) -> Any:
    """The log of the probability density at ``x``."""
    x, beta = promote("gennorm.logpdf", x, beta)
    log_normalizer = lax.sub(lax.log(lax.mul(c(beta, 0.5), beta)), lax.lgamma(lax.div(c(beta, 1), beta)))
    return lax.sub(log_normalizer, lax.pow(lax.abs(x), beta))


def pdf(x: Any, beta: Any) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, beta))


def cdf(x: Any, beta: Any) -> Any:
    """The cumulative distribution function at ``x``."""
    x, beta = promote("gennorm.cdf", x, beta)
    sign = lax.sign(x)
    mass = lax.igamma(lax.div(c(beta, 1), beta), lax.pow(lax.abs(x), beta))
    return lax.mul(c(x, 0.5), lax.add(c(x, 1), lax.mul(sign, mass)))
