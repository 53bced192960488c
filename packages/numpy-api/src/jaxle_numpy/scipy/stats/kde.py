"""``gaussian_kde``: a weighted Gaussian kernel density estimate over a ``(d, n)`` dataset (a pytree, so it passes
through ``jit`` and ``vmap``), with Scott's or Silverman's bandwidth, a scalar or a callable."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg
from jaxle_numpy import util
from jaxle_numpy.creation import asarray, full
from jaxle_numpy.linalg.array_api import diagonal
from jaxle_numpy.manipulation import atleast_2d, reshape
from jaxle_numpy.matrices import eye
from jaxle_numpy.reductions import sum as jnp_sum
from jaxle_numpy.scipy.special.error_functions import _ndtr
from jaxle_numpy.scipy.special.log_sum_exp import logsumexp
from jaxle_numpy.statistics import cov
from jaxle_tree import register_pytree_node_class

__all__ = ["gaussian_kde"]


def _cholesky_solve_rows(factor: Any, columns: Any) -> Any:
    """``factor^-1 columns`` for the lower triangular ``factor``: whitens the columns of a ``(d, m)`` array."""
    return linalg.triangular_solve(factor, columns, left_side=True, lower=True)


def _gaussian_sum(covariance: Any, differences: Any, weights: Any, log: bool = False) -> Any:
    """``sum_j weights[j] N(differences[:, i, j]; 0, covariance)`` for each ``i`` (or its log)."""
    d, m, n = get_aval(differences).shape
    factor = linalg.cholesky(covariance)
    whitened = reshape(_cholesky_solve_rows(factor, reshape(differences, (d, m * n))), (d, m, n))
    energy = lax.mul(util.scalar_like(whitened, 0.5), lax.reduce_sum(lax.square(whitened), (0,)))
    log_norm = lax.add(lax.reduce_sum(lax.log(diagonal(factor)), (0,)),
                       util.scalar_like(factor, 0.5 * d * np.log(2 * np.pi)))
    log_total = lax.sub(logsumexp(lax.neg(energy), axis=1, b=weights), log_norm)
    return log_total if log else lax.exp(log_total)


@register_pytree_node_class
@dataclasses.dataclass(frozen=True, init=False)
class gaussian_kde:  # noqa: N801 - SciPy's name
    """A Gaussian kernel density estimate of ``dataset`` (``(d, n)``: ``n`` points in ``d`` dimensions)."""

    neff: Any
    dataset: Any
    weights: Any
    covariance: Any
    inv_cov: Any

    def __init__(self, dataset: Any, bw_method: None | str | Any | Callable[[Any], Any] = None,
                 weights: Any = None):
        util.check_arraylike("gaussian_kde", dataset)
        dataset = atleast_2d(dataset)
        dataset, = util.promote_dtypes_inexact(dataset)
        d, n = get_aval(dataset).shape
        if weights is not None:
            util.check_arraylike("gaussian_kde", weights)
            weights, = util.promote_dtypes_inexact(asarray(weights))
            weights = lax.convert_element_type(weights, get_aval(dataset).dtype)
            if get_aval(weights).ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if get_aval(weights).shape[0] != n:
                raise ValueError("`weights` input should be of length n")
            weights = lax.div(weights, jnp_sum(weights))
        else:
            weights = full(n, 1.0 / n, dtype=get_aval(dataset).dtype)
        neff = lax.div(util.scalar_like(weights, 1), jnp_sum(lax.square(weights)))
        if bw_method is None or bw_method == "scott":
            factor = lax.pow(neff, util.scalar_like(neff, -1.0 / (d + 4)))
        elif bw_method == "silverman":
            factor = lax.pow(lax.div(lax.mul(neff, util.scalar_like(neff, d + 2.0)), util.scalar_like(neff, 4.0)),
                             util.scalar_like(neff, -1.0 / (d + 4)))
        elif callable(bw_method):
            factor = bw_method(self)
        elif util.is_arraylike(bw_method) and not isinstance(bw_method, str):
            factor = bw_method
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")
        data_covariance = atleast_2d(cov(dataset, rowvar=True, bias=False, aweights=weights))
        factor_squared = lax.square(asarray(factor, dtype=get_aval(dataset).dtype))
        inverse_factor = _cholesky_solve_rows(linalg.cholesky(data_covariance), eye(d, dtype=get_aval(dataset).dtype))
        data_inverse = lax.dot_general(inverse_factor, inverse_factor, (((0,), (0,)), ((), ())))
        object.__setattr__(self, "neff", neff)
        object.__setattr__(self, "dataset", dataset)
        object.__setattr__(self, "weights", weights)
        object.__setattr__(self, "covariance", lax.mul(data_covariance, factor_squared))
        object.__setattr__(self, "inv_cov", lax.div(data_inverse, factor_squared))

    def tree_flatten(self) -> tuple[tuple[Any, ...], None]:
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: tuple[Any, ...]) -> gaussian_kde:
        kde = object.__new__(cls)
        for field, value in zip(("neff", "dataset", "weights", "covariance", "inv_cov"), children):
            object.__setattr__(kde, field, value)
        return kde

    @property
    def d(self) -> int:
        """The number of dimensions."""
        return get_aval(self.dataset).shape[0]

    @property
    def n(self) -> int:
        """The number of data points."""
        return get_aval(self.dataset).shape[1]

    def _points(self, points: Any) -> Any:
        points = atleast_2d(asarray(points))
        d, m = get_aval(points).shape
        if d != self.d:
            if d == 1 and m == self.d:
                return reshape(points, (self.d, 1))
            raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        points, = util.promote_dtypes_inexact(points)
        return lax.convert_element_type(points, get_aval(self.dataset).dtype)

    def _differences(self, points: Any) -> Any:
        return lax.sub(lax.expand_dims(self._points(points), (2,)), lax.expand_dims(self.dataset, (1,)))

    def evaluate(self, points: Any) -> Any:
        """The estimated density at ``points`` (``(d, m)``)."""
        return _gaussian_sum(self.covariance, self._differences(points), self.weights)

    __call__ = evaluate

    def pdf(self, x: Any) -> Any:
        """The estimated density at ``x`` (``evaluate``)."""
        return self.evaluate(x)

    def logpdf(self, x: Any) -> Any:
        """The log of the estimated density at ``x``."""
        return _gaussian_sum(self.covariance, self._differences(x), self.weights, log=True)

    def integrate_gaussian(self, mean: Any, cov: Any) -> Any:
        """The integral of the product of the estimate and the Gaussian ``N(mean, cov)``."""
        mean = reshape(self._points(mean), (self.d, 1, 1))
        total_covariance = lax.add(self.covariance, atleast_2d(asarray(cov, dtype=get_aval(self.dataset).dtype)))
        differences = lax.sub(lax.expand_dims(self.dataset, (1,)), mean)
        return _gaussian_sum(total_covariance, differences, self.weights)[0]

    def integrate_box_1d(self, low: Any, high: Any) -> Any:
        """The probability mass of a one-dimensional estimate between ``low`` and ``high``."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        deviation = lax.sqrt(self.covariance[0, 0])
        data = self.dataset[0]
        upper = _ndtr(lax.div(lax.sub(asarray(high, dtype=get_aval(data).dtype), data), deviation))
        lower = _ndtr(lax.div(lax.sub(asarray(low, dtype=get_aval(data).dtype), data), deviation))
        return jnp_sum(lax.mul(self.weights, lax.sub(upper, lower)))

    def integrate_kde(self, other: gaussian_kde) -> Any:
        """The integral of the product of this estimate and ``other``."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        differences = lax.sub(lax.expand_dims(self.dataset, (2,)), lax.expand_dims(other.dataset, (1,)))
        per_point = _gaussian_sum(lax.add(self.covariance, other.covariance), differences, other.weights)
        return jnp_sum(lax.mul(self.weights, per_point))

    def integrate_box(self, low_bounds: Any, high_bounds: Any, maxpts: Any = None) -> Any:
        """Not supported beyond one dimension (as in JAX): use ``integrate_box_1d``."""
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method: Any = None) -> None:
        """Not supported (as in JAX): the estimate is immutable; build a new one with the bandwidth wanted."""
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")
