"""``gaussian_kde`` with ``resample``: drawing from the estimate needs jaxle-random, which jaxle-numpy (home of the
estimate itself) cannot depend on, so the meta-package's class adds the method."""

from __future__ import annotations

from typing import Any

import jaxle_random
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg
from jaxle_numpy.scipy.stats import kde
from jaxle_tree import register_pytree_node_class

__all__ = ["gaussian_kde"]


@register_pytree_node_class
class gaussian_kde(kde.gaussian_kde):  # noqa: N801 - SciPy's name
    """A Gaussian kernel density estimate of ``dataset`` (``(d, n)``), with ``resample``."""

    def resample(self, key: Any, shape: tuple[int, ...] = ()) -> Any:
        """``shape`` draws from the estimate, as a ``(d,) + shape`` array: data points chosen by weight, each
        moved by a draw from the kernel ``N(0, covariance)``."""
        shape = tuple(shape)
        point_key, kernel_key = jaxle_random.split(key)
        chosen = jaxle_random.choice(point_key, self.n, shape=shape, p=self.weights)
        factor = linalg.cholesky(self.covariance)
        standard = jaxle_random.normal(kernel_key, shape + (self.d,), dtype=get_aval(self.dataset).dtype)
        ndim = len(shape) + 1
        kernel = lax.dot_general(standard, factor, (((ndim - 1,), (1,)), ((), ())))
        # the draws' axes reversed, as JAX's ``.T`` (for several sample axes these pair with the chosen points in
        # reverse order, which is JAX's result)
        moved = lax.transpose(kernel, tuple(reversed(range(ndim))))
        return lax.add(self.dataset[:, chosen], moved)
