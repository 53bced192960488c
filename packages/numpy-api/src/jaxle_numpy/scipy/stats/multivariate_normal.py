"""The multivariate normal distribution: the last axis of ``x`` runs over the ``n`` dimensions of ``mean``; ``cov``
is an ``(n, n)`` covariance (its Cholesky factor whitens ``x - mean``) or a scalar variance."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg
from jaxle_numpy import util
from jaxle_numpy.linalg.array_api import diagonal
from jaxle_numpy.ufuncs import log, subtract

__all__ = ["logpdf", "pdf"]


def _sum_last(x: Any) -> Any:
    return lax.reduce_sum(x, (get_aval(x).ndim - 1,))


def logpdf(x: Any, mean: Any, cov: Any, allow_singular: None = None) -> Any:
    """The log of the probability density at ``x``."""
    if allow_singular is not None:
        raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    util.check_arraylike("multivariate_normal.logpdf", x, mean, cov)
    x, mean, cov = util.promote_dtypes_inexact(x, mean, cov)
    dtype = get_aval(x).dtype
    log_two_pi = lax.convert_element_type(log(2 * np.pi), dtype)
    mean_shape, cov_shape = get_aval(mean).shape, get_aval(cov).shape
    if not mean_shape:  # one dimension
        deviation = subtract(x, mean)
        return lax.sub(lax.div(lax.mul(util.scalar_like(x, -0.5), lax.square(deviation)), cov),
                       lax.mul(util.scalar_like(x, 0.5), lax.add(log_two_pi, lax.log(cov))))
    n = mean_shape[-1]
    half_n = util.scalar_like(x, n / 2)
    deviation = subtract(x, mean)
    if not cov_shape:  # an isotropic variance
        squared = _sum_last(lax.square(deviation))
        return lax.sub(lax.div(lax.mul(util.scalar_like(x, -0.5), squared), cov),
                       lax.mul(half_n, lax.add(log_two_pi, lax.log(cov))))
    if len(cov_shape) < 2 or cov_shape[-2:] != (n, n):
        raise ValueError("multivariate_normal.logpdf got incompatible shapes")
    factor = linalg.cholesky(cov)
    deviation_shape = get_aval(deviation).shape
    rows = lax.reshape(deviation, (int(np.prod(deviation_shape[:-1])), n)) if len(deviation_shape) > 1 else deviation
    whitened = linalg.triangular_solve(factor, rows, left_side=False, lower=True, transpose_a=True)
    whitened = lax.reshape(whitened, deviation_shape)
    quadratic = lax.mul(util.scalar_like(x, -0.5), _sum_last(lax.square(whitened)))
    log_determinant = _sum_last(lax.log(diagonal(factor)))
    return lax.sub(lax.sub(quadratic, lax.mul(half_n, log_two_pi)), log_determinant)


def pdf(x: Any, mean: Any, cov: Any) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, mean, cov))
