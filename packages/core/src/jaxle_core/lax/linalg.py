"""``jaxle_core.lax.linalg``: the linear-algebra primitives and functions (``jax.lax.linalg``).

Each primitive lives with its family (``factorizations``, ``householder``, ``matrix_solves``,
``symmetric_product``, ``eigen``, ``svd``, ``schur``, ``condensed_forms``) or, for ``qdwh``, in its module of
lax operations; this module gathers their public names.
"""

from jaxle_core.lax.condensed_forms import *  # noqa: F403
from jaxle_core.lax.condensed_forms import __all__ as _condensed_forms
from jaxle_core.lax.eigen import *  # noqa: F403
from jaxle_core.lax.eigen import __all__ as _eigen
from jaxle_core.lax.factorizations import *  # noqa: F403
from jaxle_core.lax.factorizations import __all__ as _factorizations
from jaxle_core.lax.householder import *  # noqa: F403
from jaxle_core.lax.householder import __all__ as _householder
from jaxle_core.lax.matrix_solves import *  # noqa: F403
from jaxle_core.lax.matrix_solves import __all__ as _matrix_solves
from jaxle_core.lax.qdwh import *  # noqa: F403
from jaxle_core.lax.qdwh import __all__ as _qdwh
from jaxle_core.lax.schur import *  # noqa: F403
from jaxle_core.lax.schur import __all__ as _schur
from jaxle_core.lax.svd import *  # noqa: F403
from jaxle_core.lax.svd import __all__ as _svd
from jaxle_core.lax.symmetric_product import *  # noqa: F403
from jaxle_core.lax.symmetric_product import __all__ as _symmetric_product

__all__ = [*_factorizations, *_householder, *_matrix_solves, *_symmetric_product, *_eigen, *_svd, *_schur,
           *_condensed_forms,
           *_qdwh]
