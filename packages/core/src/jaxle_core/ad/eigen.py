"""JVP rule of ``eigh``.

For ``a = v diag(w) v^H`` and a Hermitian tangent ``da``, with ``p = v^H da v``: ``dw`` is the real diagonal of
``p`` and ``dv = v (F * p)``, where ``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal and 0 on it (``F`` is formed
as ``1 / (I + w[j] - w[i]) - I``, which never divides by zero on the diagonal). The equations are JAX 0.10.2's.
"""

from __future__ import annotations

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import Precision, batch_matmul
from jaxle_core.lax.eigen import eigh_p
from jaxle_core.lax.linalg_support import adjoint, indexed_diagonal, symmetrize


def _eigh_jvp(primals, tangents, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    (a,), (a_dot,) = primals, tangents
    # the rule decomposes the symmetrized primal, whether or not the caller symmetrized it
    v, w_real = eigh_p.bind(symmetrize(a), lower=lower, sort_eigenvalues=sort_eigenvalues,
                            subset_by_index=subset_by_index, algorithm=algorithm)
    aval = get_aval(v)
    ndim, n = aval.ndim, aval.shape[-1]
    w = lax.convert_element_type(w_real, aval.dtype)
    eye = lax_structural.eye(aval.dtype, (n, n))
    row = lax.expand_dims(w, (ndim - 2,))
    gaps = lax.sub(lax.add(lax.broadcast_to_rank(eye, ndim), row), lax.expand_dims(w, (ndim - 1,)))
    inverse_gaps = lax.sub(lax.integer_pow(gaps, -1), lax.broadcast_to_rank(eye, ndim))
    projected = batch_matmul(batch_matmul(adjoint(v), a_dot, Precision.HIGHEST), v, Precision.HIGHEST)
    v_dot = batch_matmul(v, lax.mul(inverse_gaps, projected), Precision.HIGHEST)
    if dtypes.issubdtype(aval.dtype, np.complexfloating):
        projected = lax.real(projected)
    return [v, w_real], [v_dot, indexed_diagonal(projected)]


jvp_rules[eigh_p] = _eigh_jvp
