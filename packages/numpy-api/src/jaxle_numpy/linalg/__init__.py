"""``jnp.linalg``: norms, products and (through ``jaxle_core.lax.linalg``) the LAPACK-backed factorizations and
solvers, staged as JAX 0.10.2 stages them."""

from jaxle_numpy.linalg import array_api, matrix_products, norms
from jaxle_numpy.linalg.array_api import *  # noqa: F403
from jaxle_numpy.linalg.matrix_products import *  # noqa: F403
from jaxle_numpy.linalg.norms import *  # noqa: F403

__all__ = sorted(array_api.__all__ + matrix_products.__all__ + norms.__all__)
