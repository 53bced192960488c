"""``gaussian_kde`` with ``resample``: drawing from the estimate needs jaxle-random, which jaxle-numpy (home of the
estimate itself) cannot depend on, so the meta-package's class adds the method."""

from __future__ import annotations

from typing import Any

import jaxle_numpy as jnp
import jaxle_random
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.scipy.stats import kde
from jaxle_tree import register_pytree_node_class

__all__ = ["gaussian_kde"]


@register_pytree_node_class
class gaussian_kde(kde.gaussian_kde):  # noqa: N801 - SciPy's name
    """A Gaussian kernel density estimate of ``dataset`` (``(d, n)``), with ``resample``."""

    @util.named_jit("resample", ("shape",))
    def resample(self, key: Any, shape: tuple[int, ...] = ()) -> Any:
        """``shape`` draws from the estimate, as a ``(d,) + shape`` array: data points chosen by weight, each
        moved by a draw from the kernel ``N(0, covariance)``, whose axes come reversed as JAX's (``.T``): with
        several sample axes, the two broadcast only as far as JAX's do."""
        point_key, kernel_key = jaxle_random.split(key)
        chosen = jaxle_random.choice(point_key, self.n, shape=shape, p=self.weights)
        kernel = jaxle_random.multivariate_normal(kernel_key, jnp.zeros(self.d, get_aval(self.covariance).dtype),
                                                  self.covariance, shape=shape, dtype=get_aval(self.dataset).dtype).T
        return self.dataset[:, chosen] + kernel
