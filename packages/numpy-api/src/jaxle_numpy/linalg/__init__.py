"""``jnp.linalg``: norms, products and the LAPACK-backed factorizations and solvers over ``jaxle_core.lax.linalg``,
staged as JAX 0.10.2 stages them."""

from jaxle_numpy.linalg import array_api, eigen, factorizations, matrix_products, norms, solves, spectral
from jaxle_numpy.linalg import svd as _svd_module

__all__ = sorted(array_api.__all__ + eigen.__all__ + factorizations.__all__ + matrix_products.__all__
                 + norms.__all__ + solves.__all__ + spectral.__all__ + _svd_module.__all__)

# The svd function takes the place of its module's name, as in JAX.
from jaxle_numpy.linalg.array_api import *  # noqa: F403, E402
from jaxle_numpy.linalg.eigen import *  # noqa: F403, E402
from jaxle_numpy.linalg.factorizations import *  # noqa: F403, E402
from jaxle_numpy.linalg.matrix_products import *  # noqa: F403, E402
from jaxle_numpy.linalg.norms import *  # noqa: F403, E402
from jaxle_numpy.linalg.solves import *  # noqa: F403, E402
from jaxle_numpy.linalg.spectral import *  # noqa: F403, E402
from jaxle_numpy.linalg.svd import *  # noqa: F403, E402
