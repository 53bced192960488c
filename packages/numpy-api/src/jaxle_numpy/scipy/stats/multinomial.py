"""The multinomial distribution: counts ``x`` of ``n`` draws over categories of probabilities ``p`` (last axis)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.special.logarithmic import _xlogy
from jaxle_numpy.scipy.stats._common import c

__all__ = ["logpmf", "pmf"]


def logpmf(x: Any, n: Any, p: Any) -> Any:
    """The log of the probability of the counts ``x`` (``-inf`` unless they add up to ``n``)."""
    util.check_arraylike("multinomial.logpmf", x, n, p)
    x_dtype, n_dtype = (get_aval(util.ensure_array(v)).dtype for v in (x, n))
    if not (dtypes.issubdtype(x_dtype, np.integer) and dtypes.issubdtype(n_dtype, np.integer)):
        raise ValueError(f"x and n must be of integer type; got x.dtype={x_dtype}, n.dtype={n_dtype}")
    x, n = util.promote_dtypes_numeric(x, n)  # a weakly typed n becomes x's integer type first
    x, n, p = util.promote_dtypes_inexact(x, n, p)
    x, p = util.promote_shapes("multinomial.logpmf", x, p)
    last = get_aval(x).ndim - 1
    log_probability = lax.add(lax.lgamma(lax.add(n, c(n, 1))),
                              lax.reduce_sum(lax.sub(_xlogy(x, p), lax.lgamma(lax.add(x, c(x, 1)))), (last,)))
    return _where(lax.eq(lax.reduce_sum(x, (last,)), n), log_probability, -np.inf)


def pmf(x: Any, n: Any, p: Any) -> Any:
    """The probability of the counts ``x``."""
    return lax.exp(logpmf(x, n, p))
