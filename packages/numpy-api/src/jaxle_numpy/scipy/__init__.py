"""``jax.scipy`` over jaxle-numpy: SciPy's special functions and statistical distributions as JAX has them."""

from jaxle_numpy.scipy import (  # noqa: F401
    cluster,
    fft,
    integrate,
    interpolate,
    linalg,
    ndimage,
    optimize,
    signal,
    sparse,
    special,
    stats,
)
