"""``jax.scipy``: jaxle-numpy's SciPy namespaces (``jaxle.scipy.special``, ``jaxle.scipy.stats``)."""

from jaxle.scipy import cluster, fft, integrate, interpolate, linalg, ndimage, optimize, signal, sparse, special, stats  # noqa: F401
