"""The normal distribution truncated to ``[a, b]`` (bounds in standard units: ``loc + a * scale`` and up).

The normalizing mass, ``log(ndtr(b) - ndtr(a))``, is taken in the tail beyond the interval's nearer end (a
signed ``logsumexp`` of ``log_ndtr`` values) unless the interval holds 0, where ``log1p`` of the two tails' sum is
exact; these are JAX's operations, so jaxprs and values are JAX's. Bounds with ``a >= b`` give NaN.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import jit, lax
from jaxle_numpy.scipy.special.error_functions import log_ndtr, ndtr
from jaxle_numpy.scipy.special.log_sum_exp import logsumexp
from jaxle_numpy.scipy.stats import norm
from jaxle_numpy.scipy.stats._common import promote

__all__ = ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]


def _log_difference(x: Any, y: Any) -> Any:
    """``log(exp(x) - exp(y))``: a ``logsumexp`` with weights 1 and -1."""
    values = jnp.array([x, y])
    return logsumexp(values, b=jnp.array([jnp.ones_like(x), jnp.negative(jnp.ones_like(y))]), axis=0)


def _log_gauss_mass(a: Any, b: Any) -> Any:
    """``log(ndtr(b) - ndtr(a))``: from the tail beyond the nearer bound where the interval is on one side of 0."""
    a, b = jnp.array(a), jnp.array(b)
    a, b = jnp.broadcast_arrays(a, b)
    left = jnp.less_equal(b, 0)
    right = jnp.greater(a, 0)
    central = jnp.invert(jnp.bitwise_or(left, right))
    a_tail = jnp.where(right, jnp.negative(b), a)
    b_tail = jnp.where(right, jnp.negative(a), b)
    tail = _log_difference(log_ndtr(b_tail), log_ndtr(a_tail))
    middle = jnp.log1p(jnp.subtract(jnp.negative(ndtr(a)), ndtr(jnp.negative(b))))
    return jnp.where(central, middle, tail)


@jit
def logpdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the probability density at ``x`` (``-inf`` outside the bounds)."""
    x, a, b, loc, scale = promote("truncnorm.logpdf", x, a, b, loc, scale)
    value = lax.sub(norm.logpdf(x, loc, scale), _log_gauss_mass(a, b))
    z = lax.div(lax.sub(x, loc), scale)
    value = jnp.where(jnp.bitwise_or(jnp.less(z, a), jnp.greater(z, b)), -np.inf, value)
    return jnp.where(jnp.greater_equal(a, b), np.nan, value)


def pdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The probability density at ``x``."""
    return lax.exp(logpdf(x, a, b, loc, scale))


@jit
def logsf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the survival function at ``x``: the ``logcdf`` of the mirrored distribution."""
    x, a, b, loc, scale = promote("truncnorm.logsf", x, a, b, loc, scale)
    return logcdf(jnp.negative(x), jnp.negative(b), jnp.negative(a), jnp.negative(loc), scale)


@jit
def sf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The survival function at ``x``."""
    return lax.exp(logsf(x, a, b, loc, scale))


@jit
def logcdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The log of the cumulative distribution function at ``x``: from the mass above ``x`` near 1."""
    x, a, b, loc, scale = promote("truncnorm.logcdf", x, a, b, loc, scale)
    x, a, b = jnp.broadcast_arrays(x, a, b)
    x = lax.div(lax.sub(x, loc), scale)
    total = _log_gauss_mass(a, b)
    below = jnp.subtract(_log_gauss_mass(a, x), total)
    above = jnp.subtract(_log_gauss_mass(x, b), total)
    value = jnp.select([jnp.greater_equal(x, b), jnp.less_equal(x, a), jnp.greater(below, -0.1), jnp.greater(x, a)],
                       [0, -np.inf, jnp.log1p(jnp.negative(jnp.exp(above))), below])
    return jnp.where(jnp.greater_equal(a, b), np.nan, value)


@jit
def cdf(x: Any, a: Any, b: Any, loc: Any = 0, scale: Any = 1) -> Any:
    """The cumulative distribution function at ``x``."""
    return lax.exp(logcdf(x, a, b, loc, scale))
