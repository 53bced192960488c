"""``jax.scipy.signal`` over jaxle-numpy: convolutions and correlations, detrending, and spectral analysis."""

from jaxle_numpy.scipy.signal import convolution
from jaxle_numpy.scipy.signal.convolution import *  # noqa: F403

__all__ = sorted(convolution.__all__)
