"""``jax.scipy.sparse``: jaxle-numpy's iterative solvers."""

from jaxle.scipy.sparse import linalg  # noqa: F401
