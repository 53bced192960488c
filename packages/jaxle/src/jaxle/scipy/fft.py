"""``jax.scipy.fft``: jaxle-numpy's ``scipy.fft``."""

from jaxle_numpy.scipy.fft import *  # noqa: F403
