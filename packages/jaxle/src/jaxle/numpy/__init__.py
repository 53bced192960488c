"""``jax.numpy``: jaxle-numpy's namespace, with its ``fft`` and ``linalg`` submodules."""

# The submodules are imported after the star import, which would otherwise rebind them to jaxle_numpy's.
from jaxle_numpy import *  # noqa: F403, I001
from jaxle.numpy import fft, linalg  # noqa: F401, E402
