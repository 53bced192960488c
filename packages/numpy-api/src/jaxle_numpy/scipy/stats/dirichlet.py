"""The Dirichlet distribution on the probability simplex, with concentrations ``alpha``."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.manipulation import concatenate
from jaxle_numpy.scipy.special.logarithmic import _xlogy
from jaxle_numpy.scipy.stats._common import c

__all__ = ["logpdf", "pdf"]


def logpdf(x: Any, alpha: Any) -> Any:
    """The log of the density at the point ``x`` of the simplex (its first axis runs over the ``K`` components; a
    ``K - 1``-vector gets its last component as one minus the others); ``-inf`` off the simplex (a component not
    positive, or a sum off 1 by 1e-6 or more)."""
    util.check_arraylike("dirichlet.logpdf", x, alpha)
    x, alpha = util.promote_dtypes_inexact(x, alpha)
    alpha_shape = get_aval(alpha).shape
    if len(alpha_shape) != 1:
        raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={alpha_shape}")
    x_shape = get_aval(x).shape
    if not x_shape or x_shape[0] not in (alpha_shape[0], alpha_shape[0] - 1):
        raise ValueError(f"`x` must have either the same number of entries as `alpha` or one entry fewer; got "
                         f"x.shape={x_shape}, alpha.shape={alpha_shape}")
    if x_shape[0] != alpha_shape[0]:
        x = concatenate([x, lax.sub(c(x, 1), lax.reduce_sum(x, (0,)))[None]], axis=0)
    normalizer = lax.sub(lax.reduce_sum(lax.lgamma(alpha), (0,)), lax.lgamma(lax.reduce_sum(alpha, (0,))))
    trailing = get_aval(x).ndim - 1
    exponents = alpha
    if trailing:  # points stacked along the trailing axes: the components run down the first
        exponents = lax.broadcast_in_dim(alpha, alpha_shape + (1,) * trailing, (0,))
    exponents = lax.sub(exponents, c(exponents, 1))
    log_density = lax.sub(lax.reduce_sum(_xlogy(exponents, x), (0,)), normalizer)
    total = lax.reduce_sum(x, (0,))
    on_simplex = lax.bitwise_and(lax.reduce_and(lax.gt(x, c(x, 0)), (0,)),
                                 lax.lt(lax.abs(lax.sub(total, c(total, 1))), util.scalar_like(total, 1e-6)))
    return _where(on_simplex, log_density, -np.inf)


def pdf(x: Any, alpha: Any) -> Any:
    """The density at the point ``x`` of the simplex."""
    return lax.exp(logpdf(x, alpha))


