"""The von Mises distribution on the circle with concentration ``kappa``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_numpy.conditional import _where
from jaxle_numpy.scipy.stats._common import c, promote

__all__ = ["logpdf", "pdf"]


def logpdf(x: Any, kappa: Any) -> Any:
    """The log of the probability density at the angle ``x`` (NaN unless ``kappa > 0``)."""
    x, kappa = promote("vonmises.logpdf", x, kappa)
    valid = lax.gt(kappa, c(kappa, 0))
    # log(2 pi i0(kappa)) = log(2 pi i0e(kappa)) + kappa, folded into the cosine term to keep large kappa finite
    log_density = lax.sub(lax.mul(kappa, lax.sub(lax.cos(x), c(x, 1))),
                          lax.log(lax.mul(c(kappa, 2 * np.pi), lax.bessel_i0e(kappa))))
    return _where(valid, log_density, np.nan)


def pdf(x: Any, kappa: Any) -> Any:
    """The probability density at the angle ``x``."""
    return lax.exp(logpdf(x, kappa))
