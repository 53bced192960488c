"""``jax.scipy.optimize``: jaxle-numpy's ``scipy.optimize``."""

from jaxle_numpy.scipy.optimize import *  # noqa: F403
