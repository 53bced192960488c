"""``jax.numpy``: jaxle-numpy's namespace, with its ``fft`` and ``linalg`` submodules."""

# The submodules are imported after the star import, which would otherwise rebind them to jaxle_numpy's.
from jaxle_numpy import *  # noqa: F403, I001
from jaxle.numpy import fft, linalg  # noqa: F401, E402


def __getattr__(name: str):
    # Names JAX 0.10.2 removed answer with its message pointing to their replacement.
    if name == "fix":
        raise AttributeError("jax.numpy.fix was deprecated in JAX v0.9.0, and will be removed in JAX v0.10.0. Use "
                             "jax.numpy.trunc instead.")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
