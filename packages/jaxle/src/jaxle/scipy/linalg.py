"""``jax.scipy.linalg``: jaxle-numpy's ``scipy.linalg``."""

from jaxle_numpy.scipy.linalg import *  # noqa: F403
