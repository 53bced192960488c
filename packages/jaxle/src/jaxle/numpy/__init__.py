"""``jax.numpy``: jaxle-numpy's namespace."""

from jaxle_numpy import *  # noqa: F403
from jaxle_numpy import fft  # noqa: F401
