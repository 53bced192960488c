"""``gaussian_kde``: a weighted Gaussian kernel density estimate over a ``(d, n)`` dataset (a pytree, so it passes
through ``jit`` and ``vmap``), with Scott's or Silverman's bandwidth, a scalar or a callable. Every method stages
JAX's operations in JAX's order: the kernel sums whiten points and data with the Cholesky factor of the inverse
covariance (one jitted ``_gaussian_kernel_eval``); the integrals solve with the factor of the summed covariances."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import vmap
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.scipy import linalg as scipy_linalg
from jaxle_numpy.scipy.special import logsumexp, ndtr
from jaxle_tree import register_pytree_node_class

__all__ = ["gaussian_kde"]

_FIELDS = ("neff", "dataset", "weights", "covariance", "inv_cov")


@util.named_jit("_gaussian_kernel_eval", ("in_log",))
def _gaussian_kernel_eval(in_log: bool, points: Any, values: Any, xi: Any, precision: Any) -> Any:
    """``sum_j values[j] N(xi[i]; points[j], precision^-1)`` for each row ``xi[i]`` (``(m, p)`` for ``(n, p)``
    ``values``), or its log: the Gaussian kernel over the ``(n, d)`` points."""
    points, values, xi, precision = util.promote_dtypes_inexact(points, values, xi, precision)
    d = get_aval(points).shape[1]
    if get_aval(xi).shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if get_aval(precision).shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whitening = scipy_linalg.cholesky(precision, lower=True)
    points = jnp.dot(points, whitening)
    xi = jnp.dot(xi, whitening)
    log_norm = jnp.sum(jnp.log(jnp.diag(whitening))) - d / 2 * jnp.log(2 * np.pi)

    def kernel_sum(x: Any) -> Any:  # at one point ``x`` of ``xi``
        exponent = log_norm - 0.5 * jnp.sum(jnp.square(points - x), -1)
        if in_log:
            return logsumexp(jnp.log(values) + exponent[:, None], axis=0)
        return jnp.sum(values * jnp.exp(exponent)[:, None], axis=0)

    return vmap(kernel_sum)(xi)


def _gaussian_normalizer(factor: Any, d: int) -> Any:
    """``1 / ((2 pi)^(d/2) det(factor))``: the normalizer of a Gaussian whose covariance has Cholesky ``factor``."""
    return 1.0 / (jnp.sqrt(2 * np.pi) ** d * jnp.prod(jnp.diag(factor)))


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
        dataset = jnp.atleast_2d(dataset)
        if jnp.issubdtype(get_aval(dataset).dtype, np.complexfloating):
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not get_aval(dataset).size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = get_aval(dataset).shape
        if weights is not None:
            util.check_arraylike("gaussian_kde", weights)
            dataset, weights = util.promote_dtypes_inexact(dataset, weights)
            weights = jnp.atleast_1d(weights)
            weights = weights / jnp.sum(weights)
            if get_aval(weights).ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if get_aval(weights).shape[0] != n:
                raise ValueError("`weights` input should be of length n")
        else:
            dataset, = util.promote_dtypes_inexact(dataset)
            weights = jnp.full(n, 1.0 / n, dtype=get_aval(dataset).dtype)
        object.__setattr__(self, "dataset", dataset)
        object.__setattr__(self, "weights", weights)
        neff = 1 / jnp.sum(weights ** 2)
        object.__setattr__(self, "neff", neff)
        if bw_method is None or bw_method == "scott":
            factor = jnp.power(neff, -1.0 / (d + 4))
        elif bw_method == "silverman":
            factor = jnp.power(neff * (d + 2.0) / 4.0, -1.0 / (d + 4))
        elif jnp.isscalar(bw_method) and not isinstance(bw_method, str):
            factor = bw_method
        elif callable(bw_method):
            factor = bw_method(self)
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")
        data_covariance = jnp.atleast_2d(jnp.cov(dataset, rowvar=1, bias=False, aweights=weights))
        data_inv_cov = jnp.linalg.inv(data_covariance)
        object.__setattr__(self, "covariance", data_covariance * factor ** 2)
        object.__setattr__(self, "inv_cov", data_inv_cov / factor ** 2)

    def tree_flatten(self) -> tuple[tuple[Any, ...], None]:
        return tuple(getattr(self, field) for field in _FIELDS), None

    @classmethod
    def tree_unflatten(cls, aux_data: None, children: tuple[Any, ...]) -> gaussian_kde:
        kde = object.__new__(cls)
        for field, value in zip(_FIELDS, children):
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

    def _kernel_sum(self, points: Any, in_log: bool) -> Any:
        points = jnp.atleast_2d(points)
        d, m = get_aval(points).shape
        if d != self.d:
            if d == 1 and m == self.d:
                points = jnp.reshape(points, (self.d, 1))
            else:
                raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        result = _gaussian_kernel_eval(in_log, self.dataset.T, self.weights[:, None], points.T, self.inv_cov)
        return result[:, 0]

    def evaluate(self, points: Any) -> Any:
        """The estimated density at ``points`` (``(d, m)``)."""
        return self._kernel_sum(points, False)

    __call__ = evaluate

    def pdf(self, x: Any) -> Any:
        """The estimated density at ``x`` (``evaluate``)."""
        return self.evaluate(x)

    def logpdf(self, x: Any) -> Any:
        """The log of the estimated density at ``x``."""
        return self._kernel_sum(x, True)

    def integrate_gaussian(self, mean: Any, cov: Any) -> Any:
        """The integral of the product of the estimate and the Gaussian ``N(mean, cov)``."""
        mean = jnp.atleast_1d(jnp.squeeze(mean))
        cov = jnp.atleast_2d(cov)
        if get_aval(mean).shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if get_aval(cov).shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        factor = scipy_linalg.cho_factor(self.covariance + cov)
        normalizer = _gaussian_normalizer(factor[0], self.d)
        differences = self.dataset - mean[:, None]
        solved = scipy_linalg.cho_solve(factor, differences)
        energy = 0.5 * jnp.sum(differences * solved, axis=0)
        return normalizer * jnp.sum(jnp.exp(-energy) * self.weights, axis=0)

    def integrate_box_1d(self, low: Any, high: Any) -> Any:
        """The probability mass of a one-dimensional estimate between ``low`` and ``high``."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        return _integrate_box_1d(self, low, high)

    def integrate_kde(self, other: gaussian_kde) -> Any:
        """The integral of the product of this estimate and ``other``."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        factor = scipy_linalg.cho_factor(self.covariance + other.covariance)
        normalizer = _gaussian_normalizer(factor[0], self.d)

        def mass_at(x: Any) -> Any:  # of this estimate's kernels against ``other``'s kernel at its point ``x``
            differences = self.dataset - x[:, None]
            solved = scipy_linalg.cho_solve(factor, differences)
            energy = 0.5 * jnp.sum(differences * solved, axis=0)
            return normalizer * jnp.sum(jnp.exp(-energy) * self.weights)

        return jnp.sum(vmap(mass_at)(other.dataset.T) * other.weights)

    def integrate_box(self, low_bounds: Any, high_bounds: Any, maxpts: Any = None) -> Any:
        """Not supported beyond one dimension (as in JAX): use ``integrate_box_1d``."""
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method: Any = None) -> None:
        """Not supported (as in JAX): the estimate is immutable; build a new one with the bandwidth wanted."""
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")


@util.named_jit("integrate_box_1d")
def _integrate_box_1d(kde: gaussian_kde, low: Any, high: Any) -> Any:
    """The mass of the one-dimensional ``kde`` between ``low`` and ``high``: each kernel's normal CDF difference."""
    deviation = jnp.squeeze(jnp.sqrt(kde.covariance))
    low = jnp.squeeze((low - kde.dataset) / deviation, axis=0)
    high = jnp.squeeze((high - kde.dataset) / deviation, axis=0)
    return jnp.sum(kde.weights * (ndtr(high) - ndtr(low)))
