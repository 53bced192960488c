"""``jax.scipy`` over jaxle-numpy: SciPy's special functions and statistical distributions as JAX has them."""

from jaxle_numpy.scipy import special, stats  # noqa: F401
