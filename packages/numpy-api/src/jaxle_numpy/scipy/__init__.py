"""``jax.scipy`` over jaxle-numpy: SciPy's special functions and statistical distributions as JAX has them."""

from jaxle_numpy.scipy import cluster, fft, integrate, linalg, ndimage, special, stats  # noqa: F401
