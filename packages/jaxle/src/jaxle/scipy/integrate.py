"""``jax.scipy.integrate``: jaxle-numpy's ``scipy.integrate``."""

from jaxle_numpy.scipy.integrate import *  # noqa: F403
