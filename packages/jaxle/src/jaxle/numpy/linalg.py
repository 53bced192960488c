"""``jax.numpy.linalg``: jaxle-numpy's linear algebra."""

from jaxle_numpy.linalg import *  # noqa: F403
from jaxle_numpy.linalg import __all__  # noqa: F401
