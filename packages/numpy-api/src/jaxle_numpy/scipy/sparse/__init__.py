"""``jax.scipy.sparse``: iterative linear solvers (``linalg``)."""

from jaxle_numpy.scipy.sparse import linalg

__all__ = ["linalg"]
