"""``jax.numpy.fft``: jaxle-numpy's discrete Fourier transforms."""

from jaxle_numpy.fft import *  # noqa: F403
from jaxle_numpy.fft import __all__  # noqa: F401
