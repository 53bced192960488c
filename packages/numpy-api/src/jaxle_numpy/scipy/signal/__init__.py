"""``jax.scipy.signal`` over jaxle-numpy: convolutions and correlations, detrending, and spectral analysis."""

from jaxle_numpy.scipy.signal import convolution, spectral
from jaxle_numpy.scipy.signal.convolution import *  # noqa: F403
from jaxle_numpy.scipy.signal.spectral import *  # noqa: F403

__all__ = sorted(convolution.__all__ + spectral.__all__)
