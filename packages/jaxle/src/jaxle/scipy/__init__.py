"""``jax.scipy``: jaxle-numpy's SciPy namespaces (``jaxle.scipy.special``, ``jaxle.scipy.stats``)."""

from jaxle.scipy import (  # noqa: F401
    cluster, fft, integrate, interpolate, linalg, ndimage, optimize, signal, sparse, special, stats)
