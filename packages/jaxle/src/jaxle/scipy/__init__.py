"""``jax.scipy``: jaxle-numpy's SciPy namespaces (``jaxle.scipy.special``, ``jaxle.scipy.stats``)."""

from jaxle.scipy import cluster, fft, integrate, linalg, ndimage, special, stats  # noqa: F401
