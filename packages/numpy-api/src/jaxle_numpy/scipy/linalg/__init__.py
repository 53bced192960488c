"""``jax.scipy.linalg`` over jaxle-numpy: SciPy's dense linear algebra on the LAPACK-backed primitives of
``jaxle_core.lax.linalg``."""

from jaxle_numpy.scipy.linalg import decompositions, matrix_functions, solves, special_matrices, sylvester, tridiagonal
from jaxle_numpy.scipy.linalg.decompositions import *  # noqa: F403
from jaxle_numpy.scipy.linalg.matrix_functions import *  # noqa: F403
from jaxle_numpy.scipy.linalg.solves import *  # noqa: F403
from jaxle_numpy.scipy.linalg.special_matrices import *  # noqa: F403
from jaxle_numpy.scipy.linalg.sylvester import *  # noqa: F403
from jaxle_numpy.scipy.linalg.tridiagonal import *  # noqa: F403

__all__ = sorted(decompositions.__all__ + matrix_functions.__all__ + solves.__all__ + special_matrices.__all__
                 + sylvester.__all__ + tridiagonal.__all__)
