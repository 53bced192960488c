"""Student's t distribution with ``df`` degrees of freedom."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.scipy.stats._common import c, promote, standardize

__all__ = ["logpdf", "pdf"]


def logpdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x``."""
    x, df, loc, scale = promote("t.logpdf", x, df, loc, scale)
    z = standardize(x, loc, scale)
    half_df = lax.div(df, c(df, 2))
    half_df_plus_half = lax.add(half_df, c(df, 0.5))
    log_normalizer = lax.div(lax.log(lax.mul(lax.mul(lax.mul(scale, scale), c(df, np.pi)), df)), c(df, 2))
    log_normalizer = lax.sub(lax.add(lax.lgamma(half_df), log_normalizer), lax.lgamma(half_df_plus_half))
    return lax.neg(lax.add(log_normalizer, lax.mul(half_df_plus_half, lax.log1p(lax.div(lax.mul(z, z), df)))))


def pdf(x: Any, df: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, df, loc, scale))
