"""``jax.scipy.sparse.linalg``: jaxle-numpy's ``scipy.sparse.linalg``."""

from jaxle_numpy.scipy.sparse.linalg import *  # noqa: F403
