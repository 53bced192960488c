"""``jax.scipy.ndimage``: jaxle-numpy's ``scipy.ndimage``."""

from jaxle_numpy.scipy.ndimage import *  # noqa: F403
