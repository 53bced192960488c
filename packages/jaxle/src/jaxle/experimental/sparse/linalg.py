"""``jax.experimental.sparse.linalg``: sparse linear solves and the LOBPCG eigensolver (``lobpcg_standard``).

``spsolve`` solves with a CSR matrix by SciPy's sparse direct solver, called from the computation as JAX calls it
on CPU; its derivatives are solves with the same matrix (or its transpose).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

from jaxle import numpy as jnp
from jaxle.experimental.sparse import bcsr
from jaxle.experimental.sparse._lobpcg import lobpcg_standard
from jaxle.experimental.sparse._primitives import Zero, batching_rules, define_primitive, jvp_rules, transpose_rules
from jaxle.experimental.sparse.util import SparseInfo
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.callbacks import pure_callback

__all__ = ["lobpcg_standard", "spsolve", "spsolve_p"]


def _solve_on_host(data, indices, indptr, b, *, tol, reorder):
    matrix = scipy.sparse.csr_matrix((np.asarray(data), np.asarray(indices), np.asarray(indptr)),
                                     shape=(b.shape[0], b.shape[0]))
    return scipy.sparse.linalg.spsolve(matrix, np.asarray(b)).astype(b.dtype)


def _spsolve_impl(data, indices, indptr, b, *, tol, reorder):
    return pure_callback(lambda *xs: _solve_on_host(*xs, tol=tol, reorder=reorder),
                         ShapedArray(b.shape, b.dtype), data, indices, indptr, b)


def _spsolve_abstract_eval(data, indices, indptr, b, *, tol, reorder):
    if data.dtype != b.dtype:
        raise ValueError(f"data types do not match: {data.dtype=} {b.dtype=}")
    if not (data.ndim == indices.ndim == indptr.ndim == b.ndim == 1):
        raise ValueError("all inputs must be 1D arrays.")
    if indptr.shape[0] != b.shape[0] + 1:
        raise ValueError(f"indptr.shape={indptr.shape} does not match b.shape={b.shape}")
    return ShapedArray(b.shape, b.dtype)


spsolve_p = define_primitive("spsolve", _spsolve_impl, _spsolve_abstract_eval)
del batching_rules[spsolve_p]  # as in JAX, a sparse solve has no batching rule


def spsolve(data: Any, indices: Any, indptr: Any, b: Any, tol: float = 1e-6, reorder: int = 1) -> Any:
    """The solution ``x`` of ``A x = b`` for the square CSR matrix ``A`` of ``data``, ``indices``, ``indptr``."""
    return spsolve_p.bind(*map(jnp.asarray, (data, indices, indptr, b)), tol=tol, reorder=reorder)


def _matvec(data, indices, indptr, x):
    n = x.shape[0]
    return bcsr.bcsr_dot_general_p.bind(data, indices, indptr, x, dimension_numbers=(((1,), (0,)), ((), ())),
                                        lhs_spinfo=SparseInfo((n, n)), preferred_element_type=None)


def _spsolve_jvp(primals, tangents, *, tol, reorder):
    data, indices, indptr, b = primals
    x = spsolve_p.bind(*primals, tol=tol, reorder=reorder)
    data_dot, _, _, b_dot = tangents
    rhs = None if type(b_dot) is Zero else b_dot
    if type(data_dot) is not Zero:
        change = -_matvec(data_dot, indices, indptr, x)
        rhs = change if rhs is None else rhs + change
    if rhs is None:
        return x, Zero(get_aval(x))
    return x, spsolve_p.bind(data, indices, indptr, rhs, tol=tol, reorder=reorder)


def _transposed_csr(data, indices, indptr):
    """The CSR buffers of the transposed matrix: entries ordered by column, then row."""
    nse, n = data.shape[0], indptr.shape[0] - 1
    rows = jnp.searchsorted(indptr[1:], jnp.arange(nse, dtype=indptr.dtype), side="right").astype(indices.dtype)
    order = jnp.lexsort((rows, indices))
    counts = jnp.zeros((n,), indptr.dtype).at[indices].add(1, mode="drop")
    pointers = jnp.concatenate([jnp.zeros((1,), indptr.dtype), jnp.cumsum(counts).astype(indptr.dtype)])
    return data[order], rows[order], pointers


def _spsolve_transpose(ct, data, indices, indptr, b, *, tol, reorder):
    if type(ct) is Zero:
        return [None, None, None, Zero(b.aval)]
    return [None, None, None, spsolve_p.bind(*_transposed_csr(data, indices, indptr), ct, tol=tol, reorder=reorder)]


jvp_rules[spsolve_p] = _spsolve_jvp
transpose_rules[spsolve_p] = _spsolve_transpose
