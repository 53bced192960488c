"""The uniform distribution on ``[loc, loc + scale]``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c, not_probability, promote, standardize
from jaxle_numpy.selection import select
from jaxle_numpy.util import scalar_like

__all__ = ["cdf", "logpdf", "pdf", "ppf"]


def logpdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, loc, scale = promote("uniform.logpdf", x, loc, scale)
    log_density = lax.neg(lax.log(scale))
    outside = lax.gt(x, lax.add(loc, scale)) | lax.lt(x, loc)
    return _where(outside, -np.inf, log_density)


def pdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, loc, scale))


def cdf(x: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    x, loc, scale = promote("uniform.cdf", x, loc, scale)
    below, above = lax.lt(x, loc), lax.gt(x, lax.add(loc, scale))
    inside = lax.ge(x, loc) & lax.le(x, lax.add(loc, scale))
    # strong constants, as JAX's: a weakly typed x makes a strong result
    return select([below, above, inside], [scalar_like(x, 0), scalar_like(x, 1), standardize(x, loc, scale)],
                  c(x, 0))


def ppf(q: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The quantile function at ``q``."""
    q, loc, scale = promote("uniform.ppf", q, loc, scale)
    outside = not_probability(q)
    return _where(outside, np.nan, lax.add(loc, lax.mul(scale, q)))
