"""``jax.experimental.sparse.bcsr``: the batched compressed-row format ``BCSR``.

A BCSR array of shape ``batch + (rows, cols) + dense`` stores ``data`` (``batch + (nse,) + dense``), the column of
each entry in ``indices`` (``batch + (nse,)``) and, per row, where its entries start in ``indptr``
(``batch + (rows + 1,)``). Entries past ``indptr[-1]`` are padding. Its operations convert the row pointers to row
coordinates and share the BCOO machinery.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle import numpy as jnp
from jaxle.experimental.sparse import bcoo
from jaxle.experimental.sparse._base import JAXSparse
from jaxle.experimental.sparse._primitives import (
    Zero,
    batching_rules,
    define_primitive,
    jvp_rules,
    transpose_rules,
)
from jaxle.experimental.sparse.bcoo import BCOO
from jaxle.experimental.sparse.util import SparseInfo, nfold_vmap
from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_tree import register_pytree_node_class

__all__ = ["BCSR", "bcsr_broadcast_in_dim", "bcsr_concatenate", "bcsr_dot_general", "bcsr_dot_general_p",
           "bcsr_extract", "bcsr_extract_p", "bcsr_fromdense", "bcsr_fromdense_p", "bcsr_sum_duplicates",
           "bcsr_todense", "bcsr_todense_p"]


def _coo_indices(indices, indptr, nse: int):
    """The (row, column) coordinates ``batch + (nse, 2)`` of compressed-row indices."""

    def one(cols, pointers):
        rows = jnp.searchsorted(pointers[1:], jnp.arange(nse, dtype=pointers.dtype), side="right")
        return jnp.stack([rows.astype(cols.dtype), cols], axis=-1)

    return nfold_vmap(one, indices.ndim - 1)(indices, indptr)


def _row_pointers(rows, n_rows: int, dtype: Any):
    """``indptr`` of entries whose (sorted) rows are ``rows``; rows out of bounds count nowhere."""

    def one(r):
        counts = jnp.zeros((n_rows,), dtype).at[r].add(1, mode="drop")
        return jnp.concatenate([jnp.zeros((1,), dtype), jnp.cumsum(counts).astype(dtype)])

    return nfold_vmap(one, rows.ndim - 1)(rows)


def _todense_impl(data, indices, indptr, *, spinfo):
    coords = _coo_indices(indices, indptr, indices.shape[-1])
    return bcoo._todense_impl(data, coords, spinfo=spinfo)


def _todense_abstract_eval(data, indices, indptr, *, spinfo):
    return ShapedArray(tuple(spinfo.shape), data.dtype)


bcsr_todense_p = define_primitive("bcsr_todense", _todense_impl, _todense_abstract_eval)


def bcsr_todense(mat: BCSR) -> Any:
    """The dense array of a BCSR array."""
    return bcsr_todense_p.bind(mat.data, mat.indices, mat.indptr, spinfo=mat._info)


def _fromdense_impl(mat, *, nse, n_batch, n_dense, index_dtype):
    data, coords = bcoo._fromdense_impl(mat, nse=nse, n_batch=n_batch, n_dense=n_dense, index_dtype=index_dtype)
    indptr = _row_pointers(coords[..., 0], mat.shape[n_batch], np.dtype(index_dtype))
    return data, coords[..., 1], indptr


def _fromdense_abstract_eval(mat, *, nse, n_batch, n_dense, index_dtype):
    data, _ = bcoo._fromdense_abstract_eval(mat, nse=nse, n_batch=n_batch, n_dense=n_dense, index_dtype=index_dtype)
    batch = mat.shape[:n_batch]
    return [data, ShapedArray((*batch, nse), np.dtype(index_dtype)),
            ShapedArray((*batch, mat.shape[n_batch] + 1), np.dtype(index_dtype))]


bcsr_fromdense_p = define_primitive("bcsr_fromdense", _fromdense_impl, _fromdense_abstract_eval, True)


def bcsr_fromdense(mat: Any, *, nse: int | None = None, n_batch: int = 0, n_dense: int = 0,
                   index_dtype: Any = jnp.int32) -> BCSR:
    """The BCSR array of ``mat``'s nonzero entries (``nse`` of them per batch element, counted when omitted)."""
    mat = jnp.asarray(mat)
    n_sparse = mat.ndim - n_batch - n_dense
    if n_sparse != 2:
        raise ValueError("bcsr_fromdense: must have 2 sparse dimensions.")
    nse = bcoo.static_nse(mat, nse, n_batch, n_dense)
    data, indices, indptr = bcsr_fromdense_p.bind(mat, nse=nse, n_batch=n_batch, n_dense=n_dense,
                                                  index_dtype=np.dtype(index_dtype).type)
    return BCSR((data, indices, indptr), shape=mat.shape)


def _extract_impl(indices, indptr, mat):
    coords = _coo_indices(indices, indptr, indices.shape[-1])
    return bcoo._extract_impl(coords, mat, assume_unique=True)


def _extract_abstract_eval(indices, indptr, mat):
    n_batch = indices.ndim - 1
    return ShapedArray((*mat.shape[:n_batch], indices.shape[-1], *mat.shape[n_batch + 2:]), mat.dtype)


bcsr_extract_p = define_primitive("bcsr_extract", _extract_impl, _extract_abstract_eval)


def bcsr_extract(indices: Any, indptr: Any, mat: Any) -> Any:
    """The values of the dense ``mat`` at the entries of compressed-row ``indices``/``indptr``."""
    return bcsr_extract_p.bind(jnp.asarray(indices), jnp.asarray(indptr), jnp.asarray(mat))


def _dot_general_impl(lhs_data, lhs_indices, lhs_indptr, rhs, *, dimension_numbers, lhs_spinfo,
                      preferred_element_type):
    coords = _coo_indices(lhs_indices, lhs_indptr, lhs_indices.shape[-1])
    return bcoo._dot_general_impl(lhs_data, coords, rhs, dimension_numbers=dimension_numbers,
                                  lhs_spinfo=lhs_spinfo, preferred_element_type=preferred_element_type)


def _dot_general_abstract_eval(lhs_data, lhs_indices, lhs_indptr, rhs, **params):
    return bcoo._dot_general_abstract_eval(lhs_data, lhs_indices, rhs, **params)


bcsr_dot_general_p = define_primitive("bcsr_dot_general", _dot_general_impl, _dot_general_abstract_eval)


def bcsr_dot_general(lhs: Any, rhs: Any, *, dimension_numbers: Any, precision: None = None,
                     preferred_element_type: None = None, out_sharding: Any = None) -> Any:
    """``lax.dot_general`` of a BCSR array with a dense one (either order)."""
    dimension_numbers = bcoo._normalized_dims(dimension_numbers)
    if isinstance(lhs, BCSR) and not isinstance(rhs, JAXSparse):
        rhs = jnp.asarray(rhs)
        preferred = np.dtype(preferred_element_type or dtypes.result_type(lhs.dtype, rhs.dtype))
        return bcsr_dot_general_p.bind(lhs.data, lhs.indices, lhs.indptr, rhs, dimension_numbers=dimension_numbers,
                                       lhs_spinfo=lhs._info, preferred_element_type=preferred)
    if isinstance(rhs, BCSR) and not isinstance(lhs, JAXSparse):
        return bcoo._dense_sparse_dot(jnp.asarray(lhs), rhs.to_bcoo(), dimension_numbers, preferred_element_type)
    raise NotImplementedError("bcsr_dot_general: exactly one operand must be a BCSR array")


# derivative and batching rules: the BCOO rules, with the row pointers carried beside the indices


def _todense_jvp(primals, tangents, *, spinfo):
    out = bcsr_todense_p.bind(*primals, spinfo=spinfo)
    if type(tangents[0]) is Zero:
        return out, Zero(get_aval(out))
    return out, bcsr_todense_p.bind(tangents[0], *primals[1:], spinfo=spinfo)


def _todense_transpose(ct, data, indices, indptr, *, spinfo):
    if type(ct) is Zero:
        return [Zero(data.aval), None, None]
    return [bcsr_extract_p.bind(indices, indptr, ct), None, None]


def _extract_jvp(primals, tangents, **params):
    out = bcsr_extract_p.bind(*primals)
    if type(tangents[2]) is Zero:
        return out, Zero(get_aval(out))
    return out, bcsr_extract_p.bind(primals[0], primals[1], tangents[2])


def _extract_transpose(ct, indices, indptr, mat):
    if type(ct) is Zero:
        return [None, None, Zero(mat.aval)]
    return [None, None, bcsr_todense_p.bind(ct, indices, indptr, spinfo=SparseInfo(tuple(mat.aval.shape)))]


def _dot_general_jvp(primals, tangents, **params):
    data, indices, indptr, rhs = primals
    out = bcsr_dot_general_p.bind(*primals, **params)
    total = None
    if type(tangents[0]) is not Zero:
        total = bcsr_dot_general_p.bind(tangents[0], indices, indptr, rhs, **params)
    if type(tangents[3]) is not Zero:
        term = bcsr_dot_general_p.bind(data, indices, indptr, tangents[3], **params)
        total = term if total is None else total + term
    return out, Zero(get_aval(out)) if total is None else total


def _dot_general_transpose(ct, data, indices, indptr, rhs, **params):
    coords = _coo_indices(indices, indptr, get_aval(indices).shape[-1])
    cts = bcoo._dot_general_transpose(ct, data, coords, rhs, **params)
    return [cts[0], None, None, cts[2]]


def _batch_dims_first(values, dims):
    return bcoo._batched_buffers(values, dims), bcoo._batch_size(values, dims)


def _todense_batch(values, dims, *, spinfo):
    buffers, size = _batch_dims_first(values, dims)
    return bcsr_todense_p.bind(*_full_batch(buffers, size), spinfo=spinfo._replace(shape=(size, *spinfo.shape))), 0


def _full_batch(buffers, size):
    """Row pointers cannot broadcast: every buffer gets the full batch dimension."""
    return [jnp.broadcast_to(b, (size, *b.shape[1:])) for b in buffers]


jvp_rules[bcsr_todense_p] = _todense_jvp
transpose_rules[bcsr_todense_p] = _todense_transpose
batching_rules[bcsr_todense_p] = _todense_batch
jvp_rules[bcsr_extract_p] = _extract_jvp
transpose_rules[bcsr_extract_p] = _extract_transpose
jvp_rules[bcsr_dot_general_p] = _dot_general_jvp
transpose_rules[bcsr_dot_general_p] = _dot_general_transpose


def _fromdense_jvp(primals, tangents, **params):
    out = bcsr_fromdense_p.bind(*primals, **params)
    data_dot = Zero(get_aval(out[0])) if type(tangents[0]) is Zero else bcsr_extract_p.bind(out[1], out[2],
                                                                                           tangents[0])
    return out, [data_dot, bcoo._float0_zero(out[1]), bcoo._float0_zero(out[2])]


jvp_rules[bcsr_fromdense_p] = _fromdense_jvp


def bcsr_sum_duplicates(mat: BCSR, nse: int | None = None) -> BCSR:
    """``mat`` with the values at equal indices summed."""
    return BCSR.from_bcoo(bcoo.bcoo_sum_duplicates(mat.to_bcoo(), nse=nse))


def bcsr_broadcast_in_dim(mat: BCSR, *, shape: Sequence[int], broadcast_dimensions: Sequence[int],
                          sharding: Any = None) -> BCSR:
    """``lax.broadcast_in_dim`` of a BCSR array (new dimensions are batch or dense ones)."""
    out = bcoo.bcoo_broadcast_in_dim(mat.to_bcoo(), shape=shape, broadcast_dimensions=broadcast_dimensions)
    if out.n_sparse != 2:
        raise ValueError("bcsr_broadcast_in_dim: new dimensions must be batch or dense dimensions")
    return BCSR.from_bcoo(out)


def bcsr_concatenate(operands: Sequence[BCSR], *, dimension: int) -> BCSR:
    """The BCSR arrays joined along ``dimension``."""
    if not operands or not all(isinstance(op, BCSR) for op in operands):
        raise ValueError("bcsr_concatenate: expected a sequence of BCSR arrays")
    joined = bcoo.bcoo_concatenate([op.to_bcoo() for op in operands], dimension=dimension)
    return BCSR.from_bcoo(bcoo.bcoo_sort_indices(joined))


@register_pytree_node_class
class BCSR(JAXSparse):
    """A batched compressed-sparse-row array: ``BCSR((data, indices, indptr), shape=shape)``."""

    _bufs = ("data", "indices", "indptr")

    def __init__(self, args: tuple[Any, Any, Any], *, shape: Sequence[int], indices_sorted: bool = False,
                 unique_indices: bool = False):
        self.data, self.indices, self.indptr = map(jnp.asarray, args)
        self.indices_sorted = indices_sorted
        self.unique_indices = unique_indices
        super().__init__(args, shape=tuple(shape))

    @property
    def dtype(self) -> Any:
        return self.data.dtype

    @property
    def nse(self) -> int:
        return self.indices.shape[-1]

    @property
    def n_batch(self) -> int:
        return self.indices.ndim - 1

    @property
    def n_sparse(self) -> int:
        return 2

    @property
    def n_dense(self) -> int:
        return self.data.ndim - 1 - self.n_batch

    @property
    def _sparse_shape(self) -> tuple[int, ...]:
        return self.shape[self.n_batch:self.n_batch + 2]

    @property
    def _info(self) -> SparseInfo:
        return SparseInfo(self.shape, self.indices_sorted, self.unique_indices)

    def tree_flatten(self):
        return (self.data, self.indices, self.indptr), {"shape": self.shape, "indices_sorted": self.indices_sorted,
                                                        "unique_indices": self.unique_indices}

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32, n_dense: int = 0,
                  n_batch: int = 0) -> BCSR:
        """The BCSR array of ``mat``'s nonzero entries."""
        return bcsr_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense, n_batch=n_batch)

    @classmethod
    def from_bcoo(cls, arr: BCOO) -> BCSR:
        """The BCSR array of a BCOO array with two sparse dimensions and indices sorted by row."""
        if arr.n_sparse != 2:
            raise NotImplementedError(f"BSCR must have 2 sparse dimensions; got n_sparse={arr.n_sparse}")
        indptr = _row_pointers(arr.indices[..., 0], arr.shape[arr.n_batch], arr.indices.dtype)
        return cls((arr.data, arr.indices[..., 1], indptr), shape=arr.shape, indices_sorted=arr.indices_sorted,
                   unique_indices=arr.unique_indices)

    @classmethod
    def from_scipy_sparse(cls, mat: Any, *, index_dtype: Any = None, n_dense: int = 0, n_batch: int = 0) -> BCSR:
        """The BCSR array of a ``scipy.sparse`` matrix."""
        if n_dense != 0 or n_batch != 0:
            raise NotImplementedError("BCSR.fromscipy with nonzero n_dense/n_batch")
        mat = mat.tocsr()
        dtype = index_dtype or jnp.int32
        return cls((jnp.asarray(mat.data), jnp.asarray(mat.indices.astype(dtype)),
                    jnp.asarray(mat.indptr.astype(dtype))), shape=mat.shape)

    @classmethod
    def _empty(cls, shape: Sequence[int], *, dtype: Any = None, index_dtype: Any = "int32", n_dense: int = 0,
               n_batch: int = 0, nse: int = 0) -> BCSR:
        """An all-zero BCSR array."""
        shape = tuple(shape)
        if len(shape) - n_batch - n_dense != 2:
            raise ValueError("BCSR arrays must have 2 sparse dimensions")
        batch, dense = shape[:n_batch], shape[n_batch + 2:]
        data = jnp.zeros((*batch, nse, *dense), dtype)
        indices = jnp.full((*batch, nse), shape[n_batch + 1], index_dtype)
        indptr = jnp.zeros((*batch, shape[n_batch] + 1), index_dtype)
        return cls((data, indices, indptr), shape=shape)

    @classmethod
    def _eye(cls, N: int, M: int, k: int, *, dtype: Any = None, index_dtype: Any = "int32", n_batch: int = 0,
             n_dense: int = 0) -> BCSR:
        """The ``N x M`` matrix of ones on diagonal ``k``."""
        return cls.from_bcoo(BCOO._eye(N, M, k, dtype=dtype, index_dtype=index_dtype, n_batch=n_batch,
                                       n_dense=n_dense))

    def to_bcoo(self) -> BCOO:
        """The BCOO array of the same entries."""
        coords = _coo_indices(self.indices, self.indptr, self.nse)
        return BCOO((self.data, coords), shape=self.shape, indices_sorted=self.indices_sorted,
                    unique_indices=self.unique_indices)

    def todense(self) -> Any:
        """The dense array."""
        return bcsr_todense(self)

    def sum_duplicates(self, nse: int | None = None, remove_zeros: bool = True) -> BCSR:
        """The array with duplicate indices summed (and stored zeros dropped with ``remove_zeros``)."""
        mat = self.to_bcoo()
        return BCSR.from_bcoo(bcoo.bcoo_eliminate_zeros(mat, nse=nse) if remove_zeros else
                              bcoo.bcoo_sum_duplicates(mat, nse=nse))

    def transpose(self, *args: Any, **kwargs: Any) -> BCSR:
        raise NotImplementedError("Transpose is not implemented.")

    def __matmul__(self, other: Any) -> Any:
        return bcsr_dot_general(self, other, dimension_numbers=(((self.ndim - 1,), (0,)), ((), ())))

    def __rmatmul__(self, other: Any) -> Any:
        other_ndim = np.ndim(other)
        return bcsr_dot_general(other, self, dimension_numbers=(((other_ndim - 1,), (0,)), ((), ())))
