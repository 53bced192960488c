"""The multivariate normal distribution: the last axis of ``x`` runs over the ``n`` dimensions of ``mean``; ``cov``
is an ``(n, n)`` covariance (its Cholesky factor whitens ``x - mean``, one triangular solve per point) or a scalar
variance; JAX's operations, so its jaxprs and values."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg
from jaxle_numpy import util

__all__ = ["logpdf", "pdf"]


def _squared_norm(y: Any) -> Any:
    return jnp.einsum("...i,...i->...", y, y)


def logpdf(x: Any, mean: Any, cov: Any, allow_singular: None = None) -> Any:
    """The log of the probability density at ``x``."""
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    util.check_arraylike("multivariate_normal.logpdf", x, mean, cov)
    x, mean, cov = util.promote_dtypes_inexact(x, mean, cov)
    if not get_aval(mean).shape:  # one dimension
        return jnp.subtract(jnp.true_divide(jnp.multiply(-1 / 2, jnp.square(jnp.subtract(x, mean))), cov),
                            jnp.multiply(1 / 2, jnp.add(jnp.log(2 * np.pi), jnp.log(cov))))
    n = get_aval(mean).shape[-1]
    if not np.shape(cov):  # an isotropic variance
        y = jnp.subtract(x, mean)
        return jnp.subtract(jnp.true_divide(jnp.multiply(-1 / 2, _squared_norm(y)), cov),
                            jnp.multiply(n / 2, jnp.add(jnp.log(2 * np.pi), jnp.log(cov))))
    cov_shape = get_aval(cov).shape
    if len(cov_shape) < 2 or cov_shape[-2:] != (n, n):
        raise ValueError("multivariate_normal.logpdf got incompatible shapes")
    factor = linalg.cholesky(cov)
    solve = jnp.vectorize(partial(linalg.triangular_solve, lower=True, transpose_a=True),
                          signature="(n,n),(n)->(n)")
    y = solve(factor, jnp.subtract(x, mean))
    quadratic = jnp.subtract(jnp.multiply(-1 / 2, _squared_norm(y)), jnp.multiply(n / 2, jnp.log(2 * np.pi)))
    return jnp.subtract(quadratic, jnp.sum(jnp.log(jnp.diagonal(factor, axis1=-1, axis2=-2)), -1))


def pdf(x: Any, mean: Any, cov: Any) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, mean, cov))
