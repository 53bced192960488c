"""``jax.scipy.interpolate``: jaxle-numpy's ``scipy.interpolate``."""

from jaxle_numpy.scipy.interpolate import *  # noqa: F403
