"""The wrapped Cauchy distribution on ``[0, 2 pi]`` with shape ``c`` in (0, 1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c as const
from jaxle_numpy.scipy.stats._common import promote
from jaxle_numpy.ufuncs import log, subtract

__all__ = ["logpdf", "pdf"]


def logpdf(x: Any, c: Any) -> Any:
    """The log of the probability density at ``x`` (``-inf`` off [0, 2 pi], NaN unless 0 < c < 1)."""
    x, c = promote("wrapcauchy.logpdf", x, c)
    valid = lax.gt(c, const(c, 0)) & lax.lt(c, const(c, 1))
    inside = lax.ge(x, const(x, 0)) & lax.le(x, const(x, 2 * np.pi))
    log_normalized = subtract(lax.log(lax.sub(const(c, 1), lax.mul(c, c))), log(2 * np.pi))
    log_denominator = lax.log(lax.sub(lax.add(const(c, 1), lax.mul(c, c)), lax.mul(lax.mul(const(c, 2), c),
                                                                                   lax.cos(x))))
    log_density = _where(inside, lax.sub(log_normalized, log_denominator), -np.inf)
    return _where(valid, log_density, np.nan)


def pdf(x: Any, c: Any) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, c))
