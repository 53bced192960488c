"""``jax.experimental.sparse.bcoo``: the batched-coordinate format ``BCOO`` and its operations.

A BCOO array of shape ``batch + sparse + dense`` stores ``data`` of shape ``batch + (nse,) + dense`` and ``indices``
of shape ``batch + (nse, n_sparse)``: for each batch element, ``nse`` coordinates over the sparse dimensions and the
dense block stored there. Batch dimensions of size 1 in either buffer broadcast. Duplicate coordinates add up;
padding entries have coordinates out of bounds.
"""

from __future__ import annotations

import math
import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle import lax
from jaxle import numpy as jnp
from jaxle.experimental.sparse import _entries
from jaxle.experimental.sparse._base import JAXSparse
from jaxle.experimental.sparse._primitives import (
    Zero,
    batching_rules,
    define_primitive,
    instantiate,
    is_undefined,
    jvp_rules,
    transpose_rules,
)
from jaxle.experimental.sparse.util import SparseEfficiencyError, SparseEfficiencyWarning, SparseInfo, nfold_vmap
from jaxle_core import core, dtypes
from jaxle_core.ad.reverse import vjp
from jaxle_core.ad.rule_helpers import dot_transpose_first
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.batching.trace import move_dim
from jaxle_core.lax.dot import dot_general_p
from jaxle_tree import register_pytree_node_class

__all__ = ["BCOO", "bcoo_broadcast_in_dim", "bcoo_concatenate", "bcoo_dot_general", "bcoo_dot_general_p",
           "bcoo_dot_general_sampled", "bcoo_dot_general_sampled_p", "bcoo_dynamic_slice", "bcoo_eliminate_zeros",
           "bcoo_extract", "bcoo_extract_p", "bcoo_fromdense", "bcoo_fromdense_p", "bcoo_multiply_dense",
           "bcoo_multiply_sparse", "bcoo_reduce_sum", "bcoo_reshape", "bcoo_rev", "bcoo_slice", "bcoo_sort_indices",
           "bcoo_sort_indices_p", "bcoo_spdot_general_p", "bcoo_squeeze", "bcoo_sum_duplicates",
           "bcoo_sum_duplicates_p", "bcoo_todense", "bcoo_todense_p", "bcoo_transpose", "bcoo_transpose_p",
           "bcoo_update_layout"]

_TRACED_NSE_ERROR = """
The error arose for the nse argument of bcoo_fromdense. In order for
BCOO.fromdense() to be used in traced/compiled code, you must pass a concrete
value to the nse (number of stored elements) argument.
"""


def _float0_zero(x: Any) -> Zero:
    return Zero(get_aval(x).to_tangent_aval() if hasattr(get_aval(x), "to_tangent_aval") else get_aval(x))


# ---------------------------------------------------------------- todense


def _todense_impl(data, indices, *, spinfo):
    n_batch, n_sparse, _, _ = _entries.layout(data.shape, indices.shape)
    coords, values = _entries.flat_entries(data, indices, spinfo.shape)
    return _entries.scatter_entries(coords, values, spinfo.shape)


def _todense_abstract_eval(data, indices, *, spinfo):
    return ShapedArray(tuple(spinfo.shape), data.dtype)


bcoo_todense_p = define_primitive("bcoo_todense", _todense_impl, _todense_abstract_eval)


def bcoo_todense(mat: BCOO) -> Any:
    """The dense array of a BCOO array."""
    return bcoo_todense_p.bind(mat.data, mat.indices, spinfo=mat._info)


def _todense_jvp(primals, tangents, *, spinfo):
    data, indices = primals
    out = bcoo_todense_p.bind(data, indices, spinfo=spinfo)
    if type(tangents[0]) is Zero:
        return out, Zero(get_aval(out))
    return out, bcoo_todense_p.bind(tangents[0], indices, spinfo=spinfo)


def _todense_transpose(ct, data, indices, *, spinfo):
    if type(ct) is Zero:
        return [Zero(data.aval), None]
    return [bcoo_extract_p.bind(indices, ct, assume_unique=True), None]


def _todense_batch(values, dims, *, spinfo):
    data, indices = _batched_buffers(values, dims)
    size = _batch_size(values, dims)
    return bcoo_todense_p.bind(data, indices, spinfo=spinfo._replace(shape=(size, *spinfo.shape))), 0


jvp_rules[bcoo_todense_p] = _todense_jvp
transpose_rules[bcoo_todense_p] = _todense_transpose
batching_rules[bcoo_todense_p] = _todense_batch


def _batch_size(values, dims) -> int:
    return next(get_aval(x).shape[d] for x, d in zip(values, dims) if d is not None)


def _batched_buffers(values, dims):
    """Buffers with the vmapped dimension as a new leading batch dimension (size 1 where unbatched)."""
    return [lax.expand_dims(x, (0,)) if d is None else move_dim(x, d, 0) for x, d in zip(values, dims)]


# ---------------------------------------------------------------- fromdense


def _nonzero_entries(mat, *, nse, n_dense, index_dtype):
    """``(data, indices)`` of the first ``nse`` nonzero blocks of ``mat`` (no batch dimensions), in row-major
    order, padded with zeros at the out-of-bounds coordinate."""
    n_sparse = mat.ndim - n_dense
    sparse_shape = mat.shape[:n_sparse]
    mask = mat != 0
    if n_dense:
        mask = jnp.any(mask, axis=tuple(range(n_sparse, mat.ndim)))
    flat = mask.reshape(-1)
    positions = jnp.nonzero(flat, size=nse, fill_value=math.prod(sparse_shape))[0]
    indices = _entries.unravel(positions, sparse_shape, index_dtype)
    data = _entries.gather_entries(mat, indices)
    return data, indices


def _fromdense_impl(mat, *, nse, n_batch, n_dense, index_dtype):
    def one(m):
        return _nonzero_entries(m, nse=nse, n_dense=n_dense, index_dtype=index_dtype)

    return nfold_vmap(one, n_batch, broadcasted=False)(mat)


def _fromdense_abstract_eval(mat, *, nse, n_batch, n_dense, index_dtype):
    n_sparse = mat.ndim - n_batch - n_dense
    batch, dense = mat.shape[:n_batch], mat.shape[mat.ndim - n_dense:]
    return [ShapedArray((*batch, nse, *dense), mat.dtype),
            ShapedArray((*batch, nse, n_sparse), np.dtype(index_dtype))]


bcoo_fromdense_p = define_primitive("bcoo_fromdense", _fromdense_impl, _fromdense_abstract_eval, True)


def _count_nse(mat, n_batch: int, n_dense: int) -> int:
    mask = mat != 0
    if n_dense:
        mask = jnp.any(mask, axis=tuple(range(mat.ndim - n_dense, mat.ndim)))
    counts = jnp.sum(mask, axis=tuple(range(n_batch, mask.ndim))) if mask.ndim > n_batch else mask.astype(int)
    return int(jnp.max(counts)) if np.size(counts) else 0


def static_nse(mat: Any, nse: Any, n_batch: int, n_dense: int) -> int:
    """``nse`` as a Python int, counted from ``mat``'s nonzero entries when None (either must be concrete)."""
    if nse is None:
        nse = _count_nse(core.concrete_or_error(mat, _TRACED_NSE_ERROR), n_batch, n_dense)
    return operator.index(core.concrete_or_error(nse, _TRACED_NSE_ERROR))


def _check_layout(ndim: int, n_batch: int, n_dense: int) -> None:
    if n_batch < 0 or n_dense < 0 or n_batch + n_dense > ndim:
        raise ValueError(f"Invalid n_batch={n_batch}, n_dense={n_dense} for array of ndim={ndim}")


def bcoo_fromdense(mat: Any, *, nse: int | None = None, n_batch: int = 0, n_dense: int = 0,
                   index_dtype: Any = jnp.int32) -> BCOO:
    """The BCOO array of ``mat``'s nonzero entries (``nse`` of them per batch element, counted when omitted)."""
    mat = jnp.asarray(mat)
    _check_layout(mat.ndim, n_batch, n_dense)
    nse = static_nse(mat, nse, n_batch, n_dense)
    data, indices = bcoo_fromdense_p.bind(mat, nse=nse, n_batch=n_batch, n_dense=n_dense,
                                          index_dtype=np.dtype(index_dtype).type)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


def _fromdense_jvp(primals, tangents, *, nse, n_batch, n_dense, index_dtype):
    (mat,), (tangent,) = primals, tangents
    data, indices = bcoo_fromdense_p.bind(mat, nse=nse, n_batch=n_batch, n_dense=n_dense, index_dtype=index_dtype)
    data_dot = Zero(get_aval(data)) if type(tangent) is Zero else bcoo_extract_p.bind(indices, tangent,
                                                                                      assume_unique=True)
    return [data, indices], [data_dot, _float0_zero(indices)]


def _fromdense_transpose(cts, mat, *, nse, n_batch, n_dense, index_dtype):
    data_ct, _ = cts
    if type(data_ct) is Zero:
        return [Zero(mat.aval)]
    raise ValueError("Transpose with respect to indices is not supported: bcoo_fromdense is not linear in its "
                     "indices; differentiate through bcoo_extract instead")


def _fromdense_batch(values, dims, *, nse, n_batch, n_dense, index_dtype):
    (mat,), (dim,) = values, dims
    outs = bcoo_fromdense_p.bind(move_dim(mat, dim, 0), nse=nse, n_batch=n_batch + 1, n_dense=n_dense,
                                 index_dtype=index_dtype)
    return outs, [0, 0]


jvp_rules[bcoo_fromdense_p] = _fromdense_jvp
transpose_rules[bcoo_fromdense_p] = _fromdense_transpose
batching_rules[bcoo_fromdense_p] = _fromdense_batch


# ---------------------------------------------------------------- extract


def _extract_impl(indices, mat, *, assume_unique):
    n_batch = indices.ndim - 2
    nse = indices.shape[-2]
    batch_shape = tuple(np.broadcast_shapes(indices.shape[:n_batch], mat.shape[:n_batch]))
    dense_shape = mat.shape[n_batch + indices.shape[-1]:]
    full = jnp.broadcast_to(indices, (*batch_shape, *indices.shape[n_batch:]))
    if n_batch:
        full = jnp.concatenate([_entries.batch_coordinates(batch_shape, nse, full.dtype), full], axis=-1)
    coords = full.reshape(math.prod(batch_shape) * nse, full.shape[-1])
    mat = jnp.broadcast_to(mat, (*batch_shape, *mat.shape[n_batch:]))
    values = _entries.gather_entries(mat, coords)
    if not assume_unique:
        first = _entries.first_occurrences(_entries.linear_index(coords, mat.shape[:coords.shape[1]]))
        values = jnp.where(first.reshape(-1, *[1] * len(dense_shape)), values, 0)
    return values.reshape(*batch_shape, nse, *dense_shape)


def _extract_abstract_eval(indices, mat, *, assume_unique):
    n_batch = indices.ndim - 2
    batch_shape = tuple(np.broadcast_shapes(indices.shape[:n_batch], mat.shape[:n_batch]))
    return ShapedArray((*batch_shape, indices.shape[-2], *mat.shape[n_batch + indices.shape[-1]:]), mat.dtype)


bcoo_extract_p = define_primitive("bcoo_extract", _extract_impl, _extract_abstract_eval)


def bcoo_extract(sparr: BCOO, arr: Any, *, assume_unique: bool | None = None) -> BCOO:
    """The BCOO array with ``sparr``'s indices holding ``arr``'s values there (``arr`` is a dense array of
    ``sparr``'s shape); with ``assume_unique`` False, a duplicated index holds the value once."""
    if not isinstance(sparr, BCOO):
        raise TypeError(f"First argument to bcoo_extract should be a BCOO array. Got {type(sparr)=}")
    arr = jnp.asarray(arr)
    if arr.shape != sparr.shape:
        raise ValueError(f"shape mismatch: {sparr.shape=} {arr.shape=}")
    if assume_unique is None:
        assume_unique = sparr.unique_indices
    data = bcoo_extract_p.bind(sparr.indices, arr, assume_unique=assume_unique)
    return BCOO((data, sparr.indices), **sparr._info._asdict())


def _extract_jvp(primals, tangents, *, assume_unique):
    indices, mat = primals
    out = bcoo_extract_p.bind(indices, mat, assume_unique=assume_unique)
    if type(tangents[1]) is Zero:
        return out, Zero(get_aval(out))
    return out, bcoo_extract_p.bind(indices, tangents[1], assume_unique=assume_unique)


def _extract_transpose(ct, indices, mat, *, assume_unique):
    if type(ct) is Zero:
        return [None, Zero(mat.aval)]
    if get_aval(ct).dtype != mat.aval.dtype:
        raise ValueError(f"bcoo_extract_transpose: {get_aval(ct).dtype=} != {mat.aval.dtype=}")
    return [None, bcoo_todense_p.bind(ct, indices, spinfo=SparseInfo(tuple(mat.aval.shape)))]


def _extract_batch(values, dims, *, assume_unique):
    indices, mat = _batched_buffers(values, dims)
    return bcoo_extract_p.bind(indices, mat, assume_unique=assume_unique), 0


jvp_rules[bcoo_extract_p] = _extract_jvp
transpose_rules[bcoo_extract_p] = _extract_transpose
batching_rules[bcoo_extract_p] = _extract_batch


# ---------------------------------------------------------------- transpose


def _check_permutation(permutation: Sequence[int], n_batch: int, n_sparse: int, ndim: int) -> None:
    if tuple(sorted(permutation)) != tuple(range(ndim)):
        raise ValueError(f"bcoo_transpose: permutation {tuple(permutation)} is not a permutation of the "
                         f"{ndim} dimensions")
    groups = (permutation[:n_batch], permutation[n_batch:n_batch + n_sparse], permutation[n_batch + n_sparse:])
    bounds = ((0, n_batch), (n_batch, n_batch + n_sparse), (n_batch + n_sparse, ndim))
    if any(not all(low <= p < high for p in group) for group, (low, high) in zip(groups, bounds)):
        raise NotImplementedError("bcoo_transpose: permutation must not mix batch, sparse, and dense dimensions; "
                                  f"got {permutation=} for {n_batch=}, {n_sparse=}")


def _transpose_impl(data, indices, *, permutation, spinfo):
    n_batch, n_sparse, n_dense, _ = _entries.layout(data.shape, indices.shape)
    batch_perm = list(permutation[:n_batch])
    sparse_perm = [p - n_batch for p in permutation[n_batch:n_batch + n_sparse]]
    dense_perm = [p - n_batch - n_sparse for p in permutation[n_batch + n_sparse:]]
    data = jnp.transpose(data, [*batch_perm, n_batch, *(n_batch + 1 + d for d in dense_perm)])
    indices = jnp.transpose(indices, [*batch_perm, n_batch, n_batch + 1])
    return data, indices[..., sparse_perm]


def _transpose_abstract_eval(data, indices, *, permutation, spinfo):
    n_batch, n_sparse, n_dense, nse = _entries.layout(data.shape, indices.shape)
    batch_perm = permutation[:n_batch]
    dense_perm = [p - n_batch - n_sparse for p in permutation[n_batch + n_sparse:]]
    dense = data.shape[n_batch + 1:]
    return [ShapedArray((*(data.shape[p] for p in batch_perm), nse, *(dense[d] for d in dense_perm)), data.dtype),
            ShapedArray((*(indices.shape[p] for p in batch_perm), nse, n_sparse), indices.dtype)]


bcoo_transpose_p = define_primitive("bcoo_transpose", _transpose_impl, _transpose_abstract_eval, True)


def bcoo_transpose(mat: BCOO, *, permutation: Sequence[int]) -> BCOO:
    """``mat`` with its dimensions permuted; batch, sparse and dense dimensions each stay among their kind."""
    permutation = tuple(int(p) for p in permutation)
    _check_permutation(permutation, mat.n_batch, mat.n_sparse, mat.ndim)
    data, indices = bcoo_transpose_p.bind(mat.data, mat.indices, permutation=permutation, spinfo=mat._info)
    shape = tuple(mat.shape[p] for p in permutation)
    return BCOO((data, indices), shape=shape, indices_sorted=False, unique_indices=mat.unique_indices)


def _transpose_jvp(primals, tangents, *, permutation, spinfo):
    data, indices = primals
    out = bcoo_transpose_p.bind(data, indices, permutation=permutation, spinfo=spinfo)
    if type(tangents[0]) is Zero:
        return out, [Zero(get_aval(out[0])), _float0_zero(out[1])]
    data_dot, _ = bcoo_transpose_p.bind(tangents[0], indices, permutation=permutation, spinfo=spinfo)
    return out, [data_dot, _float0_zero(out[1])]


def _transpose_transpose(cts, data, indices, *, permutation, spinfo):
    data_ct, _ = cts
    if type(data_ct) is Zero:
        return [Zero(data.aval), None]
    inverse = tuple(int(i) for i in np.argsort(permutation))
    shape = tuple(spinfo.shape[p] for p in permutation)
    moved_indices = bcoo_transpose_p.bind(jnp.zeros(data.aval.shape, data.aval.dtype), indices,
                                          permutation=permutation, spinfo=spinfo)[1]
    ct, _ = bcoo_transpose_p.bind(data_ct, moved_indices, permutation=inverse, spinfo=SparseInfo(shape))
    return [ct, None]


def _transpose_batch(values, dims, *, permutation, spinfo):
    data, indices = _batched_buffers(values, dims)
    size = _batch_size(values, dims)
    outs = bcoo_transpose_p.bind(data, indices, permutation=(0, *(p + 1 for p in permutation)),
                                 spinfo=spinfo._replace(shape=(size, *spinfo.shape)))
    return outs, [0, 0]


jvp_rules[bcoo_transpose_p] = _transpose_jvp
transpose_rules[bcoo_transpose_p] = _transpose_transpose
batching_rules[bcoo_transpose_p] = _transpose_batch


# ---------------------------------------------------------------- dot_general (sparse x dense)


def _dot_general_impl(lhs_data, lhs_indices, rhs, *, dimension_numbers, lhs_spinfo, preferred_element_type):
    coords, values = _entries.flat_entries(lhs_data, lhs_indices, lhs_spinfo.shape)
    dtype = preferred_element_type or dtypes.result_type(lhs_data.dtype, rhs.dtype)
    return _entries.sparse_dense_dot(coords, values, coords.shape[1], lhs_spinfo.shape, rhs, dimension_numbers,
                                     dtype)


def _dot_general_abstract_eval(lhs_data, lhs_indices, rhs, *, dimension_numbers, lhs_spinfo,
                               preferred_element_type):
    return dot_general_p.abstract_eval(ShapedArray(tuple(lhs_spinfo.shape), lhs_data.dtype), rhs,
                                       dimension_numbers=dimension_numbers, precision=None,
                                       preferred_element_type=preferred_element_type, out_sharding=None)


bcoo_dot_general_p = define_primitive("bcoo_dot_general", _dot_general_impl, _dot_general_abstract_eval)


def _normalized_dims(dimension_numbers: Any) -> tuple:
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = _entries.dot_dims(dimension_numbers)
    return (lhs_contract, rhs_contract), (lhs_batch, rhs_batch)


def bcoo_dot_general(lhs: Any, rhs: Any, *, dimension_numbers: Any, precision: None = None,
                     preferred_element_type: None = None, out_sharding: Any = None) -> Any:
    """``lax.dot_general`` where either operand (or both) is a BCOO array: dense unless both are sparse."""
    dimension_numbers = _normalized_dims(dimension_numbers)
    if isinstance(lhs, BCOO) and isinstance(rhs, BCOO):
        return _bcoo_spdot_general(lhs, rhs, dimension_numbers, preferred_element_type)
    if isinstance(lhs, BCOO):
        return bcoo_dot_general_p.bind(lhs.data, lhs.indices, jnp.asarray(rhs), dimension_numbers=dimension_numbers,
                                       lhs_spinfo=lhs._info, preferred_element_type=_dtype_or_none(
                                           preferred_element_type))
    if isinstance(rhs, BCOO):
        return _dense_sparse_dot(jnp.asarray(lhs), rhs, dimension_numbers, preferred_element_type)
    return lax.dot_general(lhs, rhs, dimension_numbers, preferred_element_type=preferred_element_type)


def _dtype_or_none(dtype: Any) -> np.dtype | None:
    return None if dtype is None else np.dtype(dtype)


def _dense_sparse_dot(lhs: Any, rhs: BCOO, dimension_numbers: Any, preferred_element_type: Any) -> Any:
    """dense x sparse as sparse x dense with the operands swapped, the result's dimensions put back in order."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    swapped = ((rhs_contract, lhs_contract), (rhs_batch, lhs_batch))
    out = bcoo_dot_general_p.bind(rhs.data, rhs.indices, lhs, dimension_numbers=swapped, lhs_spinfo=rhs._info,
                                  preferred_element_type=_dtype_or_none(preferred_element_type))
    n_batch = len(lhs_batch)
    n_rhs_free = rhs.ndim - len(rhs_contract) - n_batch
    n_lhs_free = lhs.ndim - len(lhs_contract) - n_batch
    permutation = (*range(n_batch), *range(n_batch + n_rhs_free, n_batch + n_rhs_free + n_lhs_free),
                   *range(n_batch, n_batch + n_rhs_free))
    return out if permutation == tuple(range(len(permutation))) else lax.transpose(out, permutation)


def _dot_general_jvp(primals, tangents, *, dimension_numbers, lhs_spinfo, preferred_element_type):
    lhs_data, lhs_indices, rhs = primals
    data_dot, _, rhs_dot = tangents
    params = dict(dimension_numbers=dimension_numbers, lhs_spinfo=lhs_spinfo,
                  preferred_element_type=preferred_element_type)
    out = bcoo_dot_general_p.bind(lhs_data, lhs_indices, rhs, **params)
    total = None
    if type(data_dot) is not Zero:
        total = bcoo_dot_general_p.bind(data_dot, lhs_indices, rhs, **params)
    if type(rhs_dot) is not Zero:
        term = bcoo_dot_general_p.bind(lhs_data, lhs_indices, rhs_dot, **params)
        total = term if total is None else total + term
    return out, Zero(get_aval(out)) if total is None else total


def _dot_general_transpose(ct, lhs_data, lhs_indices, rhs, *, dimension_numbers, lhs_spinfo,
                           preferred_element_type):
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = _entries.dot_dims(dimension_numbers)
    lhs_aval = ShapedArray(tuple(lhs_spinfo.shape), (lhs_data.aval if is_undefined(lhs_data) else
                                                     get_aval(lhs_data)).dtype)
    if is_undefined(lhs_data):
        if type(ct) is Zero:
            return [Zero(lhs_data.aval), None, None]
        return [_data_cotangent(ct, lhs_aval, rhs, lhs_indices, dimension_numbers).astype(lhs_data.aval.dtype),
                None, None]
    if type(ct) is Zero:
        return [None, None, Zero(rhs.aval)]
    lhs_free = _entries.free_dims(lhs_aval.ndim, lhs_contract, lhs_batch)
    n_batch = len(lhs_batch)
    ct_lhs_free = tuple(range(n_batch, n_batch + len(lhs_free)))
    product = bcoo_dot_general_p.bind(
        lhs_data, lhs_indices, ct, dimension_numbers=((tuple(lhs_free), ct_lhs_free),
                                                      (lhs_batch, tuple(range(n_batch)))),
        lhs_spinfo=lhs_spinfo, preferred_element_type=np.dtype(get_aval(ct).dtype))
    # product: batch, lhs contracting dimensions (in lhs order), rhs free dimensions
    rhs_free = _entries.free_dims(rhs.aval.ndim, rhs_contract, rhs_batch)
    contract_in_lhs_order = [rhs_contract[i] for i in np.argsort(lhs_contract)]
    layout = [*rhs_batch, *contract_in_lhs_order, *rhs_free]
    permutation = tuple(int(i) for i in np.argsort(layout))
    if permutation != tuple(range(len(permutation))):
        product = lax.transpose(product, permutation)
    return [None, None, product.astype(rhs.aval.dtype)]


def _data_cotangent(ct, lhs_aval, rhs, indices, dimension_numbers):
    """The cotangent of the stored values: the product of ``ct`` and ``rhs`` sampled at the indices, one
    ``bcoo_dot_general_sampled`` when the product comes out in the sparse array's dimension order, else the entries
    of the dense cotangent (permuted into that order)."""
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = _entries.dot_dims(dimension_numbers)
    lhs_free = _entries.free_dims(lhs_aval.ndim, lhs_contract, lhs_batch)
    rhs_free = _entries.free_dims(get_aval(rhs).ndim, rhs_contract, rhs_batch)
    n_batch = len(lhs_batch)
    ct_rhs_free = tuple(range(n_batch + len(lhs_free), n_batch + len(lhs_free) + len(rhs_free)))
    dims = ((ct_rhs_free, tuple(rhs_free)), (tuple(range(n_batch)), rhs_batch))
    layout = [*lhs_batch, *lhs_free, *(lhs_contract[i] for i in np.argsort(rhs_contract))]
    if layout == sorted(layout):
        # JAX's rule first makes zeros of the data's type, which its jaxpr shows (unused): so does ours
        lax.full(get_aval(indices).shape[:-1], 0, get_aval(ct).dtype)
        return bcoo_dot_general_sampled_p.bind(ct, rhs, indices, dimension_numbers=dims)

    dense = dot_transpose_first(ct, lhs_aval, rhs, (lhs_contract, rhs_contract), (lhs_batch, rhs_batch), True,
                                _dense_contract)
    return bcoo_extract_p.bind(indices, dense, assume_unique=True)


def _dot_general_batch(values, dims, *, dimension_numbers, lhs_spinfo, preferred_element_type):
    lhs_data, lhs_indices, rhs = values
    data_dim, indices_dim, rhs_dim = dims
    size = _batch_size(values, dims)
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    params = dict(preferred_element_type=preferred_element_type)
    lhs_data, lhs_indices = _batched_buffers((lhs_data, lhs_indices), (data_dim, indices_dim))
    spinfo = lhs_spinfo._replace(shape=(size, *lhs_spinfo.shape))
    lhs_contract = tuple(d + 1 for d in lhs_contract)
    lhs_batch = tuple(d + 1 for d in lhs_batch)
    if rhs_dim is None:
        out = bcoo_dot_general_p.bind(lhs_data, lhs_indices, rhs, lhs_spinfo=spinfo, dimension_numbers=(
            (lhs_contract, rhs_contract), (lhs_batch, rhs_batch)), **params)
        return out, len(lhs_batch)
    rhs = move_dim(rhs, rhs_dim, 0)
    out = bcoo_dot_general_p.bind(lhs_data, lhs_indices, rhs, lhs_spinfo=spinfo, dimension_numbers=(
        (lhs_contract, tuple(d + 1 for d in rhs_contract)), ((0, *lhs_batch), (0, *(d + 1 for d in rhs_batch)))),
        **params)
    return out, 0


jvp_rules[bcoo_dot_general_p] = _dot_general_jvp
transpose_rules[bcoo_dot_general_p] = _dot_general_transpose
batching_rules[bcoo_dot_general_p] = _dot_general_batch


# ---------------------------------------------------------------- dot_general_sampled


def _sampled_impl(A, B, indices, *, dimension_numbers):
    return _extract_impl(indices, lax.dot_general(A, B, dimension_numbers), assume_unique=True)


def _sampled_abstract_eval(A, B, indices, *, dimension_numbers):
    product = dot_general_p.abstract_eval(A, B, dimension_numbers=dimension_numbers, precision=None,
                                          preferred_element_type=None, out_sharding=None)
    return _extract_abstract_eval(indices, product, assume_unique=True)


bcoo_dot_general_sampled_p = define_primitive("bcoo_dot_general_sampled", _sampled_impl, _sampled_abstract_eval)


def bcoo_dot_general_sampled(A: Any, B: Any, indices: Any, *, dimension_numbers: Any) -> Any:
    """The entries of ``lax.dot_general(A, B)`` at ``indices`` (the stored values of a BCOO array's data)."""
    return bcoo_dot_general_sampled_p.bind(jnp.asarray(A), jnp.asarray(B), jnp.asarray(indices),
                                           dimension_numbers=_normalized_dims(dimension_numbers))


def _sampled_jvp(primals, tangents, *, dimension_numbers):
    A, B, indices = primals
    A_dot, B_dot, _ = tangents
    out = bcoo_dot_general_sampled_p.bind(A, B, indices, dimension_numbers=dimension_numbers)
    total = None
    if type(A_dot) is not Zero:
        total = bcoo_dot_general_sampled_p.bind(A_dot, B, indices, dimension_numbers=dimension_numbers)
    if type(B_dot) is not Zero:
        term = bcoo_dot_general_sampled_p.bind(A, B_dot, indices, dimension_numbers=dimension_numbers)
        total = term if total is None else total + term
    return out, Zero(get_aval(out)) if total is None else total


def _dense_contract(x, y, dims, sharding):
    """How ``dot_transpose_first`` contracts a dense cotangent with the other operand."""
    return lax.dot_general(x, y, dims, out_sharding=sharding)


def _sampled_transpose(ct, A, B, indices, *, dimension_numbers):
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = _entries.dot_dims(dimension_numbers)
    a_aval = A.aval if is_undefined(A) else get_aval(A)
    b_aval = B.aval if is_undefined(B) else get_aval(B)
    product = dot_general_p.abstract_eval(a_aval, b_aval, dimension_numbers=dimension_numbers, precision=None,
                                          preferred_element_type=None, out_sharding=None)
    dense_ct = bcoo_todense_p.bind(instantiate(ct), indices, spinfo=SparseInfo(tuple(product.shape)))

    if is_undefined(A):
        return [dot_transpose_first(dense_ct, a_aval, B, (lhs_contract, rhs_contract), (lhs_batch, rhs_batch), True,
                                    _dense_contract), None, None]
    return [None, dot_transpose_first(dense_ct, b_aval, A, (rhs_contract, lhs_contract), (rhs_batch, lhs_batch),
                                      False, _dense_contract), None]


jvp_rules[bcoo_dot_general_sampled_p] = _sampled_jvp
transpose_rules[bcoo_dot_general_sampled_p] = _sampled_transpose


# ---------------------------------------------------------------- dot_general (sparse x sparse)


def _spdot_shape(lhs_shape, rhs_shape, dimension_numbers):
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = _entries.dot_dims(dimension_numbers)
    lhs_free = _entries.free_dims(len(lhs_shape), lhs_contract, lhs_batch)
    rhs_free = _entries.free_dims(len(rhs_shape), rhs_contract, rhs_batch)
    return (*(lhs_shape[d] for d in lhs_batch), *(lhs_shape[d] for d in lhs_free),
            *(rhs_shape[d] for d in rhs_free))


def _spdot_impl(lhs_data, lhs_indices, rhs_data, rhs_indices, *, dimension_numbers, lhs_spinfo, rhs_spinfo,
                preferred_element_type):
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = _entries.dot_dims(dimension_numbers)
    lhs_coords, lhs_values = _entries.flat_entries(lhs_data, lhs_indices, lhs_spinfo.shape)
    rhs_coords, rhs_values = _entries.flat_entries(rhs_data, rhs_indices, rhs_spinfo.shape)
    lhs_free = _entries.free_dims(len(lhs_spinfo.shape), lhs_contract, lhs_batch)
    rhs_free = _entries.free_dims(len(rhs_spinfo.shape), rhs_contract, rhs_batch)
    paired_lhs, paired_rhs = list(lhs_contract + lhs_batch), list(rhs_contract + rhs_batch)
    match = jnp.all(lhs_coords[:, None, paired_lhs] == rhs_coords[None, :, paired_rhs], axis=-1)
    products = (lhs_values[:, None].astype(preferred_element_type) *
                rhs_values[None, :].astype(preferred_element_type))
    products = jnp.where(match, products, 0).reshape(-1)
    n_lhs, n_rhs = lhs_coords.shape[0], rhs_coords.shape[0]
    out_coords = jnp.concatenate([
        jnp.broadcast_to(lhs_coords[:, None, list(lhs_batch) + lhs_free],
                         (n_lhs, n_rhs, len(lhs_batch) + len(lhs_free))),
        jnp.broadcast_to(rhs_coords[None, :, rhs_free], (n_lhs, n_rhs, len(rhs_free)))], axis=-1)
    out_shape = _spdot_shape(lhs_spinfo.shape, rhs_spinfo.shape, dimension_numbers)
    out_coords = jnp.where(match[..., None], out_coords, jnp.array(out_shape, out_coords.dtype))
    out_coords = out_coords.reshape(n_lhs * n_rhs, len(out_shape))
    nse = min(math.prod(out_shape), n_lhs * n_rhs)
    return _deduplicated(products, out_coords, out_shape, nse)


def _spdot_abstract_eval(lhs_data, lhs_indices, rhs_data, rhs_indices, *, dimension_numbers, lhs_spinfo,
                         rhs_spinfo, preferred_element_type):
    out_shape = _spdot_shape(lhs_spinfo.shape, rhs_spinfo.shape, dimension_numbers)
    n_lhs = math.prod(lhs_spinfo.shape[:lhs_indices.ndim - 2]) * lhs_indices.shape[-2]
    n_rhs = math.prod(rhs_spinfo.shape[:rhs_indices.ndim - 2]) * rhs_indices.shape[-2]
    nse = min(math.prod(out_shape), n_lhs * n_rhs)
    return [ShapedArray((nse,), np.dtype(preferred_element_type)),
            ShapedArray((nse, len(out_shape)), lhs_indices.dtype)]


bcoo_spdot_general_p = define_primitive("bcoo_spdot_general", _spdot_impl, _spdot_abstract_eval, True)


def _bcoo_spdot_general(lhs: BCOO, rhs: BCOO, dimension_numbers: Any, preferred_element_type: Any) -> BCOO:
    if lhs.n_dense or rhs.n_dense:
        raise NotImplementedError("bcoo_spdot_general: operands with dense dimensions (n_dense > 0)")
    preferred = np.dtype(preferred_element_type or dtypes.result_type(lhs.dtype, rhs.dtype))
    dot_general_p.abstract_eval(ShapedArray(lhs.shape, lhs.dtype), ShapedArray(rhs.shape, rhs.dtype),
                                dimension_numbers=dimension_numbers, precision=None, preferred_element_type=None,
                                out_sharding=None)
    data, indices = bcoo_spdot_general_p.bind(lhs.data, lhs.indices, rhs.data, rhs.indices,
                                              dimension_numbers=dimension_numbers, lhs_spinfo=lhs._info,
                                              rhs_spinfo=rhs._info, preferred_element_type=preferred)
    shape = _spdot_shape(lhs.shape, rhs.shape, dimension_numbers)
    return BCOO((data, indices), shape=shape, indices_sorted=True, unique_indices=True)


# ---------------------------------------------------------------- sort_indices, sum_duplicates


def _deduplicated(values, coords, shape, nse):
    """``(data, indices)`` of entries ``(coords, values)`` (no batch dimensions) with equal coordinates summed,
    sorted, at most ``nse`` of them; out-of-bounds entries are dropped and the rest padded."""
    linear = _entries.linear_index(coords, shape)
    order = jnp.argsort(linear, stable=True)
    ordered = linear[order]
    n = linear.shape[0]
    new_group = jnp.concatenate([jnp.ones((min(1, n),), bool), ordered[1:] != ordered[:-1]])
    group = jnp.cumsum(new_group) - 1
    unique = jnp.full((nse,), math.prod(shape), linear.dtype).at[group].set(ordered, mode="drop")
    valid = (ordered < math.prod(shape)).reshape(-1, *[1] * (values.ndim - 1))
    data = jnp.zeros((nse, *values.shape[1:]), values.dtype).at[group].add(
        jnp.where(valid, values[order], 0), mode="drop")
    return data, _entries.unravel(unique, shape, coords.dtype)


def _sum_duplicates_impl(data, indices, *, spinfo, nse):
    n_batch, n_sparse, _, _ = _entries.layout(data.shape, indices.shape)
    sparse_shape = spinfo.shape[n_batch:n_batch + n_sparse]

    def one(d, i):
        return _deduplicated(d, i, sparse_shape, nse)

    return nfold_vmap(one, n_batch)(data, indices)


def _sum_duplicates_abstract_eval(data, indices, *, spinfo, nse):
    n_batch, n_sparse, _, _ = _entries.layout(data.shape, indices.shape)
    batch = tuple(np.broadcast_shapes(data.shape[:n_batch], indices.shape[:n_batch]))
    return [ShapedArray((*batch, nse, *data.shape[n_batch + 1:]), data.dtype),
            ShapedArray((*batch, nse, n_sparse), indices.dtype)]


bcoo_sum_duplicates_p = define_primitive("bcoo_sum_duplicates", _sum_duplicates_impl,
                                         _sum_duplicates_abstract_eval, True)


def _unique_count(mat: BCOO) -> int:
    coords, _ = _entries.flat_entries(mat.data, mat.indices, mat.shape)
    n_batch = mat.n_batch
    linear = _entries.linear_index(coords, mat.shape[:n_batch + mat.n_sparse])
    linear = np.asarray(core.concrete_or_error(linear, "The error arose in bcoo_sum_duplicates."))
    size = math.prod(mat.shape[:n_batch + mat.n_sparse])
    per_batch = math.prod(mat.shape[n_batch:n_batch + mat.n_sparse])
    valid = linear[linear < size]
    if not valid.size:
        return 0
    counts = np.bincount(np.unique(valid) // max(per_batch, 1))
    return int(counts.max())


def bcoo_sum_duplicates(mat: BCOO, nse: int | None = None) -> BCOO:
    """``mat`` with the values at equal indices summed and its indices sorted (``nse`` entries per batch
    element, by default as many as the most distinct indices of any batch element)."""
    if nse is None:
        if isinstance(mat.data, core.Tracer) or isinstance(mat.indices, core.Tracer):
            raise ValueError("bcoo_sum_duplicates: nse must be specified when using the function within jit, vmap, "
                             "and other transformations requiring abstract evaluation.")
        nse = _unique_count(mat)
    data, indices = bcoo_sum_duplicates_p.bind(mat.data, mat.indices, spinfo=mat._info, nse=operator.index(nse))
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=True)


def bcoo_eliminate_zeros(mat: BCOO, nse: int | None = None) -> BCOO:
    """``mat`` without its stored zeros (and duplicates summed)."""
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    zero = mat.data == 0
    if mat.n_dense:
        zero = jnp.all(zero, axis=tuple(range(n_batch + 1, mat.data.ndim)))
    oob = jnp.array(mat.shape[n_batch:n_batch + n_sparse], mat.indices.dtype)
    indices = jnp.where(zero[..., None], oob, mat.indices)
    return bcoo_sum_duplicates(BCOO((mat.data, indices), shape=mat.shape), nse=nse)


def _sort_indices_impl(data, indices, *, spinfo):
    n_batch, n_sparse, _, _ = _entries.layout(data.shape, indices.shape)
    sparse_shape = spinfo.shape[n_batch:n_batch + n_sparse]

    def one(d, i):
        order = jnp.argsort(_entries.linear_index(i, sparse_shape), stable=True)
        return d[order], i[order]

    return nfold_vmap(one, n_batch)(data, indices)


def _sort_indices_abstract_eval(data, indices, *, spinfo):
    return [ShapedArray(data.shape, data.dtype), ShapedArray(indices.shape, indices.dtype)]


bcoo_sort_indices_p = define_primitive("bcoo_sort_indices", _sort_indices_impl, _sort_indices_abstract_eval, True)


def bcoo_sort_indices(mat: BCOO) -> BCOO:
    """``mat`` with the entries of each batch element in row-major order of their indices."""
    data, indices = bcoo_sort_indices_p.bind(mat.data, mat.indices, spinfo=mat._info)
    return BCOO((data, indices), shape=mat.shape, indices_sorted=True, unique_indices=mat.unique_indices)


def _reordering_jvp(primitive):
    """The JVP of a primitive reordering (or summing) entries: the tangent data follows the same indices."""

    def rule(primals, tangents, **params):
        data, indices = primals
        out = primitive.bind(data, indices, **params)
        if type(tangents[0]) is Zero:
            return out, [Zero(get_aval(out[0])), _float0_zero(out[1])]
        data_dot, _ = primitive.bind(tangents[0], indices, **params)
        return out, [data_dot, _float0_zero(out[1])]

    return rule


def _reordering_transpose(implementation):
    """The transpose of such a primitive in its data: the VJP of its implementation at the same indices."""

    def rule(cts, data, indices, **params):
        data_ct = cts[0]
        if type(data_ct) is Zero:
            return [Zero(data.aval), None]
        zeros = jnp.zeros(data.aval.shape, data.aval.dtype)
        _, pullback = vjp(lambda d: implementation(d, indices, **params)[0], zeros)
        return [pullback(data_ct)[0], None]

    return rule


for _primitive, _implementation in ((bcoo_sort_indices_p, _sort_indices_impl),
                                    (bcoo_sum_duplicates_p, _sum_duplicates_impl)):
    jvp_rules[_primitive] = _reordering_jvp(_primitive)
    transpose_rules[_primitive] = _reordering_transpose(_implementation)


# ---------------------------------------------------------------- structural operations (composites)


def _out_of_bounds(mat: BCOO) -> Any:
    return jnp.array(mat.shape[mat.n_batch:mat.n_batch + mat.n_sparse], mat.indices.dtype)


def _canonical_axes(axes: Sequence[int], ndim: int) -> tuple[int, ...]:
    return tuple(sorted(int(a) % ndim if -ndim <= int(a) < ndim else _axis_error(a, ndim) for a in axes))


def _axis_error(axis: int, ndim: int) -> int:
    raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")


def _merge_batch_into_entries(mat: BCOO, batch_axes: Sequence[int]) -> BCOO:
    """``mat`` with the batch dimensions ``batch_axes`` turned into leading sparse dimensions."""
    if not batch_axes:
        return mat
    keep = [d for d in range(mat.n_batch) if d not in batch_axes]
    moved = bcoo_transpose(mat, permutation=(*keep, *batch_axes, *range(mat.n_batch, mat.ndim)))
    return bcoo_update_layout(moved, n_batch=len(keep))


def bcoo_reduce_sum(mat: BCOO, *, axes: Sequence[int]) -> BCOO:
    """The sum of ``mat`` over ``axes``, as a BCOO array."""
    axes = _canonical_axes(axes, mat.ndim)
    mat = _merge_batch_into_entries(mat, [a for a in axes if a < mat.n_batch])
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    removed = {a for a in axes if a >= n_batch}
    data, indices = mat.data, mat.indices
    dense_axes = tuple(a - n_sparse + 1 for a in sorted(removed) if a >= n_batch + n_sparse)
    if dense_axes:
        data = data.sum(axis=dense_axes)
    sparse_axes = [a - n_batch for a in sorted(removed) if a < n_batch + n_sparse]
    if sparse_axes:
        in_bounds = jnp.all(indices < _out_of_bounds(mat), axis=-1)
        data = jnp.where(in_bounds.reshape(*in_bounds.shape, *[1] * (data.ndim - in_bounds.ndim)), data, 0)
        indices = indices[..., [k for k in range(n_sparse) if k not in sparse_axes]]
    shape = tuple(d for k, d in enumerate(mat.shape) if k not in removed)
    return BCOO((data, indices), shape=shape)


def bcoo_multiply_dense(sp_mat: BCOO, v: Any) -> Any:
    """The stored values of the elementwise product of a BCOO array and a dense array broadcast to its shape (the
    product has ``sp_mat``'s indices)."""
    v = jnp.asarray(v)
    if v.ndim == 0:
        return sp_mat.data * v
    shape = tuple(np.broadcast_shapes(sp_mat.shape, v.shape))
    if shape != sp_mat.shape:
        raise NotImplementedError("bcoo_multiply_dense: multiplication with a dense array of larger shape "
                                  f"{v.shape} than the sparse array {sp_mat.shape}")
    values = bcoo_extract_p.bind(sp_mat.indices, jnp.broadcast_to(v, shape), assume_unique=True)
    return sp_mat.data * values


def _common_layout(lhs: BCOO, rhs: BCOO) -> tuple[BCOO, BCOO]:
    """Both arrays with the fewer batch and the fewer dense dimensions of the two (storing no more)."""
    n_batch, n_dense = min(lhs.n_batch, rhs.n_batch), min(lhs.n_dense, rhs.n_dense)
    return (bcoo_update_layout(lhs, n_batch=n_batch, n_dense=n_dense),
            bcoo_update_layout(rhs, n_batch=n_batch, n_dense=n_dense))


def bcoo_multiply_sparse(lhs: BCOO, rhs: BCOO) -> BCOO:
    """The elementwise product of two BCOO arrays of one shape: every pair of entries at one index."""
    if lhs.shape != rhs.shape:
        raise ValueError(f"bcoo_multiply_sparse: arrays must have the same shape, got {lhs.shape} and {rhs.shape}")
    lhs, rhs = _common_layout(lhs, rhs)
    n_batch, n_dense = lhs.n_batch, lhs.n_dense
    oob = _out_of_bounds(lhs)

    def one(d1, i1, d2, i2):
        match = jnp.all(i1[:, None] == i2[None, :], axis=-1)
        expand = (slice(None), slice(None), *[None] * n_dense)
        products = jnp.where(match[expand], d1[:, None] * d2[None, :], 0)
        indices = jnp.where(match[..., None], jnp.broadcast_to(i1[:, None], (*match.shape, i1.shape[-1])), oob)
        return products.reshape(-1, *products.shape[2:]), indices.reshape(-1, i1.shape[-1])

    data, indices = nfold_vmap(one, n_batch)(lhs.data, lhs.indices, rhs.data, rhs.indices)
    return BCOO((data, indices), shape=lhs.shape)


def _add_sparse(lhs: BCOO, rhs: BCOO) -> BCOO:
    if lhs.shape != rhs.shape:
        raise ValueError(f"Addition between sparse matrices of different shapes: {lhs.shape} and {rhs.shape}")
    lhs, rhs = _common_layout(lhs, rhs)
    n_batch = lhs.n_batch
    batch = lhs.shape[:n_batch]
    dtype = dtypes.result_type(lhs.dtype, rhs.dtype)

    def full(buffer, tail):
        return jnp.broadcast_to(buffer, (*batch, *tail))

    data = jnp.concatenate([full(lhs.data, lhs.data.shape[n_batch:]).astype(dtype),
                            full(rhs.data, rhs.data.shape[n_batch:]).astype(dtype)], axis=n_batch)
    indices = jnp.concatenate([full(lhs.indices, lhs.indices.shape[n_batch:]),
                               full(rhs.indices, rhs.indices.shape[n_batch:])], axis=n_batch)
    return BCOO((data, indices), shape=lhs.shape)


def _inefficient(message: str, on_inefficient: str | None) -> None:
    if on_inefficient == "error":
        raise SparseEfficiencyError(message + " To disable this error, set the on_inefficient argument of "
                                    "bcoo_update_layout to 'warn' or None.")
    if on_inefficient == "warn":
        warnings.warn(message + " To disable this warning, set the on_inefficient argument of bcoo_update_layout "
                      "to None.", SparseEfficiencyWarning, stacklevel=3)


def bcoo_update_layout(mat: BCOO, *, n_batch: int | None = None, n_dense: int | None = None,
                       on_inefficient: str | None = "error") -> BCOO:
    """``mat`` stored with ``n_batch`` batch and ``n_dense`` dense dimensions; a layout storing more than the
    original (more batch or dense dimensions) raises SparseEfficiencyError (``on_inefficient='error'``), warns
    (``'warn'``) or is made silently (None)."""
    n_batch = mat.n_batch if n_batch is None else operator.index(n_batch)
    n_dense = mat.n_dense if n_dense is None else operator.index(n_dense)
    _check_layout(mat.ndim, n_batch, n_dense)
    if on_inefficient not in ("error", "warn", None):
        raise ValueError(f"on_inefficient={on_inefficient!r}; must be one of 'error', 'warn', or None.")
    # Moving dimensions of size 1 costs nothing: only larger ones multiply the stored entries.
    if math.prod(mat.shape[mat.n_batch:n_batch]) > 1:
        _inefficient(f"For matrix of shape {mat.shape}, increasing n_batch from {mat.n_batch} to {n_batch} results "
                     "in inefficient storage.", on_inefficient)
    if math.prod(mat.shape[mat.ndim - n_dense:mat.ndim - mat.n_dense]) > 1:
        _inefficient(f"For matrix of shape {mat.shape}, increasing n_dense from {mat.n_dense} to {n_dense} results "
                     "in inefficient storage.", on_inefficient)
    while mat.n_batch > n_batch:
        mat = _batch_to_sparse(mat)
    while mat.n_dense > n_dense:
        mat = _dense_to_sparse(mat)
    while mat.n_batch < n_batch:
        mat = _sparse_to_batch(mat)
    while mat.n_dense < n_dense:
        mat = _sparse_to_dense(mat)
    return mat


def _batch_to_sparse(mat: BCOO) -> BCOO:
    """The last batch dimension as the first sparse dimension: its entries join the batch element above."""
    n_batch, nse = mat.n_batch, mat.nse
    batch = mat.shape[:n_batch]
    data = jnp.broadcast_to(mat.data, (*batch, *mat.data.shape[n_batch:]))
    indices = jnp.broadcast_to(mat.indices, (*batch, *mat.indices.shape[n_batch:]))
    coordinate = jnp.broadcast_to(jnp.arange(batch[-1], dtype=indices.dtype)[:, None, None],
                                  (*batch, nse, 1))
    # an entry out of bounds stays so in the new leading sparse dimension
    coordinate = jnp.where(jnp.all(indices < _out_of_bounds(mat), axis=-1, keepdims=True), coordinate, batch[-1])
    indices = jnp.concatenate([coordinate, indices], axis=-1)
    data = data.reshape(*batch[:-1], batch[-1] * nse, *data.shape[n_batch + 1:])
    indices = indices.reshape(*batch[:-1], batch[-1] * nse, indices.shape[-1])
    return BCOO((data, indices), shape=mat.shape)


def _dense_to_sparse(mat: BCOO) -> BCOO:
    """The first dense dimension as the last sparse dimension: each entry split into one per index there."""
    n_batch, nse = mat.n_batch, mat.nse
    size = mat.data.shape[n_batch + 1]
    data = jnp.moveaxis(mat.data, n_batch + 1, n_batch + 1 - 1 + 1)
    data = data.reshape(*mat.data.shape[:n_batch], nse * size, *mat.data.shape[n_batch + 2:])
    batch = mat.indices.shape[:n_batch]
    old = jnp.broadcast_to(mat.indices[..., None, :], (*batch, nse, size, mat.n_sparse))
    new = jnp.broadcast_to(jnp.arange(size, dtype=mat.indices.dtype)[:, None], (*batch, nse, size, 1))
    indices = jnp.concatenate([old, new], axis=-1).reshape(*batch, nse * size, mat.n_sparse + 1)
    return BCOO((data, indices), shape=mat.shape)


def _sparse_to_batch(mat: BCOO) -> BCOO:
    """The first sparse dimension as the last batch dimension: every batch element keeps all entries, those of
    other indices there padded."""
    n_batch, nse = mat.n_batch, mat.nse
    size = mat.shape[n_batch]
    batch = tuple(np.broadcast_shapes(mat.data.shape[:n_batch], mat.indices.shape[:n_batch]))
    positions = jnp.arange(size, dtype=mat.indices.dtype).reshape(*[1] * n_batch, size, 1)
    here = mat.indices[..., None, :, 0] == positions  # batch + (size, nse)
    rest = jnp.broadcast_to(mat.indices[..., None, :, 1:], (*batch, size, nse, mat.n_sparse - 1))
    oob = jnp.array(mat.shape[n_batch + 1:n_batch + mat.n_sparse], mat.indices.dtype)
    indices = jnp.where(here[..., None], rest, oob)
    dense = mat.data.shape[n_batch + 1:]
    stored = jnp.expand_dims(mat.data, n_batch)  # batch + (1, nse) + dense
    data = jnp.where(here.reshape(*here.shape, *[1] * len(dense)), stored, 0)
    return BCOO((data, indices), shape=mat.shape)


def _sparse_to_dense(mat: BCOO) -> BCOO:
    """The last sparse dimension as the first dense dimension: each entry's block one-hot along it."""
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    size = mat.shape[n_batch + n_sparse - 1]
    one_hot = mat.indices[..., -1:] == jnp.arange(size, dtype=mat.indices.dtype)  # batch + (nse, size)
    in_bounds = jnp.all(mat.indices < _out_of_bounds(mat), axis=-1, keepdims=True)
    one_hot = (one_hot & in_bounds).astype(mat.dtype)
    data = one_hot.reshape(*one_hot.shape, *[1] * mat.n_dense) * jnp.expand_dims(mat.data, n_batch + 1)
    return BCOO((data, mat.indices[..., :-1]), shape=mat.shape)


def bcoo_reshape(mat: BCOO, *, new_sizes: Sequence[int], dimensions: Sequence[int] | None = None,
                 sharding: Any = None) -> BCOO:
    """``mat`` reshaped; the batch and dense dimensions must be kept as they are, the sparse ones reshape
    freely."""
    new_sizes = tuple(int(s) for s in new_sizes)
    if math.prod(new_sizes) != mat.size:
        raise TypeError(f"reshape total size must be unchanged, got new_sizes {new_sizes} for shape {mat.shape}.")
    if dimensions is not None and tuple(dimensions) != tuple(range(mat.ndim)):
        mat = bcoo_transpose(mat, permutation=dimensions)
    n_batch, n_sparse, n_dense = mat.n_batch, mat.n_sparse, mat.n_dense
    batch, dense = mat.shape[:n_batch], mat.shape[mat.ndim - n_dense:]
    if new_sizes[:n_batch] != batch or (n_dense and new_sizes[len(new_sizes) - n_dense:] != dense):
        raise ValueError(f"bcoo_reshape: reshaping {mat.shape} to {new_sizes} must keep the {n_batch} batch and "
                         f"{n_dense} dense dimensions")
    old_sparse = mat.shape[n_batch:n_batch + n_sparse]
    new_sparse = new_sizes[n_batch:len(new_sizes) - n_dense]
    linear = _entries.linear_index(mat.indices, old_sparse)
    indices = _entries.unravel(linear, new_sparse, mat.indices.dtype)
    return BCOO((mat.data, indices), shape=new_sizes)


def bcoo_slice(mat: BCOO, *, start_indices: Sequence[int], limit_indices: Sequence[int],
               strides: Sequence[int] | None = None) -> BCOO:
    """The static slice ``mat[start:limit:stride]`` in every dimension."""
    ndim = mat.ndim
    if len(start_indices) != ndim or len(limit_indices) != ndim or (strides is not None and len(strides) != ndim):
        raise ValueError(f"bcoo_slice: start_indices, limit_indices and strides must have length {ndim}")
    strides = (1,) * ndim if strides is None else tuple(int(s) for s in strides)
    starts, limits = tuple(int(s) for s in start_indices), tuple(int(s) for s in limit_indices)
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    shape = tuple(-(-(limit - start) // stride) for start, limit, stride in zip(starts, limits, strides))

    def batch_slice(buffer):
        index = tuple(slice(s, l, st) if buffer.shape[k] != 1 else slice(None)
                      for k, (s, l, st) in enumerate(zip(starts[:n_batch], limits[:n_batch], strides[:n_batch])))
        return buffer[index]

    data, indices = batch_slice(mat.data), batch_slice(mat.indices)
    dense_index = tuple(slice(s, l, st) for s, l, st in zip(starts[n_batch + n_sparse:], limits[n_batch + n_sparse:],
                                                            strides[n_batch + n_sparse:]))
    data = data[(..., *dense_index)] if dense_index else data
    sparse = slice(n_batch, n_batch + n_sparse)
    lo = jnp.array(starts[sparse], indices.dtype)
    hi = jnp.array(limits[sparse], indices.dtype)
    step = jnp.array(strides[sparse], indices.dtype)
    keep = jnp.all((indices >= lo) & (indices < hi) & ((indices - lo) % step == 0), axis=-1)
    new_shape = jnp.array(shape[sparse], indices.dtype)
    indices = jnp.where(keep[..., None], (indices - lo) // step, new_shape)
    data = jnp.where(keep.reshape(*keep.shape, *[1] * (data.ndim - keep.ndim)), data, 0)
    return BCOO((data, indices), shape=shape)


def bcoo_dynamic_slice(mat: BCOO, start_indices: Sequence[Any], slice_sizes: Sequence[int]) -> BCOO:
    """The slice of ``slice_sizes`` at (possibly traced) ``start_indices``, negative ones counted from the end and
    clamped into bounds as ``lax.dynamic_slice`` takes them."""
    ndim = mat.ndim
    if len(start_indices) != ndim or len(slice_sizes) != ndim:
        raise ValueError(f"bcoo_dynamic_slice: start_indices and slice_sizes must have length {ndim}")
    sizes = tuple(int(s) for s in slice_sizes)
    starts = [jnp.clip(_wrapped(jnp.asarray(s, mat.indices.dtype), d), 0, d - z)
              for s, d, z in zip(start_indices, mat.shape, sizes)]
    n_batch, n_sparse = mat.n_batch, mat.n_sparse

    def batch_slice(buffer):
        full = [buffer.shape[k] != 1 for k in range(n_batch)]
        begin = [starts[k] if full[k] else 0 for k in range(n_batch)] + [0] * (buffer.ndim - n_batch)
        size = [sizes[k] if full[k] else 1 for k in range(n_batch)] + list(buffer.shape[n_batch:])
        return lax.dynamic_slice(buffer, begin, size)

    data, indices = batch_slice(mat.data), batch_slice(mat.indices)
    if mat.n_dense:
        begin = [0] * (n_batch + 1) + starts[n_batch + n_sparse:]
        data = lax.dynamic_slice(data, begin, [*data.shape[:n_batch + 1], *sizes[n_batch + n_sparse:]])
    lo = jnp.stack(starts[n_batch:n_batch + n_sparse]) if n_sparse else jnp.zeros((0,), indices.dtype)
    size = jnp.array(sizes[n_batch:n_batch + n_sparse], indices.dtype)
    keep = jnp.all((indices >= lo) & (indices < lo + size), axis=-1)
    indices = jnp.where(keep[..., None], indices - lo, size)
    data = jnp.where(keep.reshape(*keep.shape, *[1] * (data.ndim - keep.ndim)), data, 0)
    return BCOO((data, indices), shape=sizes)


def _wrapped(start: Any, size: int) -> Any:
    """A start index counted from the end when negative, as ``lax.dynamic_slice`` counts it."""
    return jnp.where(start < 0, start + size, start)


def bcoo_squeeze(arr: BCOO, *, dimensions: Sequence[int]) -> BCOO:
    """``arr`` without the dimensions of size 1 in ``dimensions``."""
    dims = _canonical_axes(dimensions, arr.ndim)
    if any(arr.shape[d] != 1 for d in dims):
        raise ValueError(f"cannot select an axis to squeeze out which has size not equal to one, got "
                         f"shape={arr.shape} and dimensions={tuple(dimensions)}")
    n_batch, n_sparse = arr.n_batch, arr.n_sparse
    batch_dims = tuple(d for d in dims if d < n_batch)
    sparse_dims = [d - n_batch for d in dims if n_batch <= d < n_batch + n_sparse]
    dense_dims = tuple(d - n_sparse + 1 for d in dims if d >= n_batch + n_sparse)
    data = jnp.squeeze(arr.data, batch_dims + dense_dims)
    indices = jnp.squeeze(arr.indices, batch_dims)
    if sparse_dims:
        keep = jnp.all(indices[..., sparse_dims] == 0, axis=-1)
        kept = [k for k in range(n_sparse) if k not in sparse_dims]
        oob = jnp.array([arr.shape[n_batch + k] for k in kept], indices.dtype)
        indices = jnp.where(keep[..., None], indices[..., kept], oob)
    shape = tuple(s for k, s in enumerate(arr.shape) if k not in dims)
    return BCOO((data, indices), shape=shape)


def bcoo_rev(operand: BCOO, dimensions: Sequence[int]) -> BCOO:
    """``operand`` reversed along ``dimensions``."""
    dims = _canonical_axes(dimensions, operand.ndim)
    n_batch, n_sparse = operand.n_batch, operand.n_sparse
    data, indices = operand.data, operand.indices
    batch_dims = [d for d in dims if d < n_batch]
    data = jnp.flip(data, [d for d in batch_dims if data.shape[d] != 1] +
                    [d - n_sparse + 1 for d in dims if d >= n_batch + n_sparse]) if dims else data
    indices = jnp.flip(indices, [d for d in batch_dims if indices.shape[d] != 1]) if batch_dims else indices
    sparse = [d - n_batch for d in dims if n_batch <= d < n_batch + n_sparse]
    if sparse:
        size = jnp.array([operand.shape[n_batch + k] for k in sparse], indices.dtype)
        column = indices[..., sparse]
        indices = indices.at[..., sparse].set(jnp.where(column < size, size - 1 - column, column))
    return BCOO((data, indices), shape=operand.shape)


def bcoo_broadcast_in_dim(mat: BCOO, *, shape: Sequence[int], broadcast_dimensions: Sequence[int],
                          sharding: Any = None) -> BCOO:
    """``lax.broadcast_in_dim`` of a BCOO array. A new dimension before the array's sparse dimensions is a batch
    dimension, one among them a sparse one (index 0), one after them a dense one; batch and dense dimensions of
    size 1 may grow, sparse ones may not."""
    shape = tuple(int(s) for s in shape)
    dims = tuple(int(d) for d in broadcast_dimensions)
    if len(dims) != mat.ndim or any(b <= a for a, b in zip(dims, dims[1:])) or any(
            mat.shape[k] not in (1, shape[d]) for k, d in enumerate(dims)):
        raise ValueError(f"bcoo_broadcast_in_dim: cannot broadcast {mat.shape} to {shape} with "
                         f"broadcast_dimensions={dims}")
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    if any(mat.shape[k] != shape[dims[k]] for k in range(n_batch, n_batch + n_sparse)):
        raise ValueError("bcoo_broadcast_in_dim: sparse dimensions cannot be broadcast")
    sparse_dims = dims[n_batch:n_batch + n_sparse]
    after_batch = dims[n_batch] if n_batch < mat.ndim else len(shape)
    sparse_start = sparse_dims[0] if n_sparse else after_batch
    sparse_end = sparse_dims[-1] + 1 if n_sparse else sparse_start
    batch_shape, dense_shape = shape[:sparse_start], shape[sparse_end:]
    data = lax.broadcast_in_dim(mat.data, (*batch_shape, mat.nse, *dense_shape),
                                [*dims[:n_batch], sparse_start,
                                 *(d - sparse_end + sparse_start + 1 for d in dims[n_batch + n_sparse:])])
    index_batch = [1] * sparse_start
    for k, d in enumerate(dims[:n_batch]):
        index_batch[d] = shape[d] if mat.indices.shape[k] != 1 else 1
    base = lax.broadcast_in_dim(mat.indices, (*index_batch, mat.nse, n_sparse),
                                [*dims[:n_batch], sparse_start, sparse_start + 1])
    columns = [jnp.zeros(base.shape[:-1], base.dtype)] * (sparse_end - sparse_start)
    for k, d in enumerate(sparse_dims):
        columns[d - sparse_start] = base[..., k]
    indices = jnp.stack(columns, axis=-1) if columns else base
    return BCOO((data, indices), shape=shape)


def bcoo_concatenate(operands: Sequence[BCOO], *, dimension: int) -> BCOO:
    """The BCOO arrays joined along ``dimension`` (a sparse or dense one; along a batch dimension their numbers
    of entries must agree)."""
    operands = list(operands)
    if not operands or not all(isinstance(op, BCOO) for op in operands):
        raise ValueError("bcoo_concatenate: expected a sequence of BCOO arrays")
    dimension = _canonical_axes([dimension], operands[0].ndim)[0]
    n_batch = min(op.n_batch for op in operands)
    n_dense = min(op.n_dense for op in operands)
    operands = [bcoo_update_layout(op, n_batch=n_batch, n_dense=n_dense) for op in operands]
    shape = list(operands[0].shape)
    shape[dimension] = sum(op.shape[dimension] for op in operands)
    if dimension < n_batch:
        nse = max(op.nse for op in operands)
        padded = [_padded(op, nse) for op in operands]
        data = jnp.concatenate([jnp.broadcast_to(d, (*op.shape[:n_batch], *d.shape[n_batch:]))
                                for (d, _), op in zip(padded, operands)], axis=dimension)
        indices = jnp.concatenate([jnp.broadcast_to(i, (*op.shape[:n_batch], *i.shape[n_batch:]))
                                   for (_, i), op in zip(padded, operands)], axis=dimension)
        return BCOO((data, indices), shape=shape)
    if dimension >= n_batch + operands[0].n_sparse:
        operands = [bcoo_update_layout(op, n_dense=op.ndim - dimension - 1) for op in operands]
    k = dimension - n_batch
    offset = 0
    datas, indices = [], []
    batch = shape[:n_batch]
    for op in operands:
        column = op.indices[..., k]
        moved = jnp.where(column < op.shape[dimension], column + offset, shape[dimension])
        datas.append(jnp.broadcast_to(op.data, (*batch, *op.data.shape[n_batch:])))
        indices.append(jnp.broadcast_to(op.indices.at[..., k].set(moved), (*batch, *op.indices.shape[n_batch:])))
        offset += op.shape[dimension]
    return BCOO((jnp.concatenate(datas, axis=n_batch), jnp.concatenate(indices, axis=n_batch)), shape=shape)


def _padded(op: BCOO, nse: int) -> tuple[Any, Any]:
    extra = nse - op.nse
    if not extra:
        return op.data, op.indices
    n_batch = op.n_batch
    data = jnp.concatenate([op.data, jnp.zeros((*op.data.shape[:n_batch], extra, *op.data.shape[n_batch + 1:]),
                                               op.dtype)], axis=n_batch)
    oob = jnp.broadcast_to(_out_of_bounds(op), (*op.indices.shape[:n_batch], extra, op.n_sparse))
    return data, jnp.concatenate([op.indices, oob], axis=n_batch)


# ---------------------------------------------------------------- the BCOO class


def _index_of(key: Any, size: int) -> Any:
    if isinstance(key, (int, np.integer)):
        if not -size <= key < size:
            raise IndexError(f"index {key} is out of bounds for axis with size {size}")
        return int(key) % size
    return jnp.where(key < 0, key + size, key)


def _getitem(mat: BCOO, key: Any) -> BCOO:
    """Indexing by integers (static or traced), slices, None and an Ellipsis."""
    key = key if isinstance(key, tuple) else (key,)
    if any(k is Ellipsis for k in key):
        at = next(i for i, k in enumerate(key) if k is Ellipsis)
        rest = mat.ndim - sum(k is not None for k in key if k is not Ellipsis)
        key = key[:at] + (slice(None),) * rest + key[at + 1:]
    explicit = [k for k in key if k is not None]
    if len(explicit) > mat.ndim:
        raise IndexError(f"Too many indices for array: {len(explicit)} non-None/Ellipsis indices for dim "
                         f"{mat.ndim}.")
    key = key + (slice(None),) * (mat.ndim - len(explicit))
    starts, limits, strides, squeezed, dynamic = [], [], [], [], []
    axis = 0
    for k in key:
        if k is None:
            continue
        size = mat.shape[axis]
        if isinstance(k, slice):
            start, stop, step = k.indices(size)
            if step < 0:
                raise NotImplementedError("Sparse indexing with negative strides")
            starts.append(start), limits.append(max(start, stop)), strides.append(step)
        elif isinstance(k, (int, np.integer)) or (hasattr(k, "shape") and np.shape(k) == () and
                                                  jnp.issubdtype(jnp.asarray(k).dtype, jnp.integer)):
            index = _index_of(k, size)
            (dynamic if not isinstance(index, int) else squeezed).append(axis)
            starts.append(index), limits.append(None), strides.append(1)
            squeezed.append(axis) if axis in dynamic else None
        else:
            raise TypeError(f"Indexing of a BCOO array with {type(k).__name__} is not supported: only integers, "
                            "slices, None and Ellipsis")
        axis += 1
    if dynamic:
        sizes = [1 if lim is None else -(-(lim - s) // st) for s, lim, st in zip(starts, limits, strides)]
        if any(st != 1 for st in strides):
            raise NotImplementedError("Sparse indexing with traced indices and strided slices")
        result = bcoo_dynamic_slice(mat, [s for s in starts], sizes)
    else:
        result = bcoo_slice(mat, start_indices=starts, limit_indices=[s + 1 if lim is None else lim
                                                                      for s, lim in zip(starts, limits)],
                            strides=strides)
    if squeezed:
        result = bcoo_squeeze(result, dimensions=sorted(set(squeezed)))
    new_axes = [i for i, k in enumerate(k for k in key if not isinstance(k, (int, np.integer)) and not (
        hasattr(k, "shape") and np.shape(k) == ())) if k is None]
    for position in new_axes:
        shape = result.shape[:position] + (1,) + result.shape[position:]
        result = bcoo_broadcast_in_dim(result, shape=shape, broadcast_dimensions=[
            d for d in range(len(shape)) if d != position])
    return result


@register_pytree_node_class
class BCOO(JAXSparse):
    """A batched-coordinate sparse array: ``BCOO((data, indices), shape=shape)``."""

    _bufs = ("data", "indices")

    def __init__(self, args: tuple[Any, Any], *, shape: Sequence[int], indices_sorted: bool = False,
                 unique_indices: bool = False):
        self.data, self.indices = map(jnp.asarray, args)
        self.indices_sorted = indices_sorted
        self.unique_indices = unique_indices
        super().__init__(args, shape=tuple(shape))
        if self.indices.ndim < 2:
            raise ValueError(f"BCOO indices must have at least 2 dimensions; got shape {self.indices.shape}")

    @property
    def dtype(self) -> Any:
        return self.data.dtype

    @property
    def nse(self) -> int:
        return self.indices.shape[-2]

    @property
    def n_batch(self) -> int:
        return self.indices.ndim - 2

    @property
    def n_sparse(self) -> int:
        return self.indices.shape[-1]

    @property
    def n_dense(self) -> int:
        return self.data.ndim - 1 - self.n_batch

    @property
    def _info(self) -> SparseInfo:
        return SparseInfo(self.shape, self.indices_sorted, self.unique_indices)

    def tree_flatten(self):
        return (self.data, self.indices), {"shape": self.shape, "indices_sorted": self.indices_sorted,
                                           "unique_indices": self.unique_indices}

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        obj = super().tree_unflatten(aux_data, children)
        indices = obj.indices
        if hasattr(indices, "ndim") and not isinstance(indices, type(None)):
            _match_mapped_shape(obj)
        return obj

    @classmethod
    def fromdense(cls, mat: Any, *, nse: int | None = None, index_dtype: Any = np.int32, n_dense: int = 0,
                  n_batch: int = 0) -> BCOO:
        """The BCOO array of ``mat``'s nonzero entries."""
        return bcoo_fromdense(mat, nse=nse, index_dtype=index_dtype, n_dense=n_dense, n_batch=n_batch)

    @classmethod
    def from_scipy_sparse(cls, mat: Any, *, index_dtype: Any = None, n_dense: int = 0, n_batch: int = 0) -> BCOO:
        """The BCOO array of a ``scipy.sparse`` matrix (its duplicates kept)."""
        if n_dense != 0 or n_batch != 0:
            raise NotImplementedError("BCOO.fromscipy with nonzero n_dense/n_batch")
        mat = mat.tocoo()
        data = jnp.asarray(mat.data)
        indices = jnp.column_stack((mat.row, mat.col)).astype(index_dtype or jnp.int32)
        return cls((data, indices), shape=mat.shape, indices_sorted=False, unique_indices=False)

    @classmethod
    def _empty(cls, shape: Sequence[int], *, dtype: Any = None, index_dtype: Any = "int32", n_dense: int = 0,
               n_batch: int = 0, nse: int = 0) -> BCOO:
        """An all-zero BCOO array storing ``nse`` padding entries."""
        shape = tuple(shape)
        _check_layout(len(shape), n_batch, n_dense)
        n_sparse = len(shape) - n_batch - n_dense
        batch, sparse, dense = shape[:n_batch], shape[n_batch:n_batch + n_sparse], shape[n_batch + n_sparse:]
        data = jnp.zeros((*batch, nse, *dense), dtype)
        indices = jnp.broadcast_to(jnp.array(sparse, index_dtype), (*batch, nse, n_sparse))
        return cls((data, indices), shape=shape, indices_sorted=True, unique_indices=True)

    @classmethod
    def _eye(cls, N: int, M: int, k: int, *, dtype: Any = None, index_dtype: Any = "int32", n_batch: int = 0,
             n_dense: int = 0) -> BCOO:
        """The ``N x M`` matrix of ones on diagonal ``k``."""
        if n_batch or n_dense:
            return bcoo_update_layout(cls._eye(N, M, k, dtype=dtype, index_dtype=index_dtype), n_batch=n_batch,
                                      n_dense=n_dense, on_inefficient=None)
        diagonal_length = max(0, min(N + min(k, 0), M - max(k, 0)))
        rows = jnp.arange(diagonal_length, dtype=index_dtype) - min(k, 0)
        indices = jnp.stack([rows, rows + k], axis=1).astype(index_dtype)
        data = jnp.ones(diagonal_length, dtype)
        return cls((data, indices), shape=(N, M), indices_sorted=True, unique_indices=True)

    def update_layout(self, *, n_batch: int | None = None, n_dense: int | None = None,
                      on_inefficient: str = "error") -> BCOO:
        """The array stored with ``n_batch`` batch and ``n_dense`` dense dimensions."""
        return bcoo_update_layout(self, n_batch=n_batch, n_dense=n_dense, on_inefficient=on_inefficient)

    def sum_duplicates(self, nse: int | None = None, remove_zeros: bool = True) -> BCOO:
        """The array with duplicate indices summed (and stored zeros dropped with ``remove_zeros``)."""
        if remove_zeros:
            return bcoo_eliminate_zeros(self, nse=nse)
        return bcoo_sum_duplicates(self, nse=nse)

    def sort_indices(self) -> BCOO:
        """The array with its indices in row-major order."""
        return self if self.indices_sorted else bcoo_sort_indices(self)

    def todense(self) -> Any:
        """The dense array."""
        return bcoo_todense(self)

    def transpose(self, axes: Sequence[int] | None = None) -> BCOO:
        """The array with its dimensions permuted (reversed by default)."""
        axes = tuple(range(self.ndim))[::-1] if axes is None else axes
        return bcoo_transpose(self, permutation=axes)

    def reshape(self, *args: Any, **kwargs: Any) -> BCOO:
        """The array reshaped (``new_sizes`` as a tuple or as arguments)."""
        new_sizes = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        if "new_sizes" in kwargs:
            new_sizes = kwargs.pop("new_sizes")
        new_sizes = tuple(new_sizes)
        if -1 in new_sizes:
            known = math.prod(d for d in new_sizes if d != -1)
            new_sizes = tuple(self.size // known if d == -1 else d for d in new_sizes)
        return bcoo_reshape(self, new_sizes=new_sizes, **kwargs)

    def sum(self, axis: Any = None) -> Any:
        """The sum over ``axis`` (every axis by default: a dense scalar)."""
        if axis is None:
            return self.data.sum() if not self.n_batch else bcoo_todense(bcoo_reduce_sum(
                self, axes=range(self.ndim)))
        axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        return bcoo_reduce_sum(self, axes=axes)

    def astype(self, *args: Any, **kwargs: Any) -> BCOO:
        """The array with its values converted to another dtype."""
        return BCOO((self.data.astype(*args, **kwargs), self.indices), **self._info._asdict())

    # operators
    def __neg__(self) -> BCOO:
        return BCOO((-self.data, self.indices), **self._info._asdict())

    def __pos__(self) -> BCOO:
        return self

    def __abs__(self) -> BCOO:
        return BCOO((abs(self.data), self.indices), **self._info._asdict())

    def __pow__(self, exponent: Any) -> BCOO:
        if np.ndim(exponent) != 0 or not np.all(np.asarray(exponent) > 0):
            raise NotImplementedError("sparse ** of anything but a positive scalar exponent")
        return BCOO((self.data ** exponent, self.indices), **self._info._asdict())

    def __matmul__(self, other: Any) -> Any:
        return _matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _matmul(other, self)

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, BCOO):
            return bcoo_multiply_sparse(self, other)
        return BCOO((bcoo_multiply_dense(self, other), self.indices), **self._info._asdict())

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        if isinstance(other, JAXSparse) or np.ndim(other) != 0:
            raise NotImplementedError("sparse division by anything but a scalar")
        return BCOO((self.data / other, self.indices), **self._info._asdict())

    def __add__(self, other: Any) -> Any:
        if isinstance(other, BCOO):
            return _add_sparse(self, other)
        other = jnp.asarray(other)
        if tuple(np.broadcast_shapes(self.shape, other.shape)) != other.shape:
            raise NotImplementedError(
                "Addition between a sparse array X and a dense array Y is not implemented when the output shape is "
                "larger than Y.shape. This is to prevent silent densification of a large sparse array. If this is "
                "your intent, you can explicitly cast the sparse array to a dense matrix.")
        return self.todense() + other

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        return self + (-other)

    def __rsub__(self, other: Any) -> Any:
        return (-self) + other

    def __getitem__(self, key: Any) -> BCOO:
        return _getitem(self, key)


def _match_mapped_shape(mat: BCOO) -> None:
    """A BCOO rebuilt from buffers with fewer (inside vmap) or more (a vmapped result) leading batch dimensions
    than its recorded shape says: the shape loses or gains those leading dimensions."""
    try:
        n_batch = len(mat.indices.shape) - 2
        data_rank = len(mat.data.shape)
    except (AttributeError, TypeError):
        return
    recorded_batch = len(mat.shape) - (mat.indices.shape[-1] if n_batch >= 0 else 0) - (data_rank - 1 - n_batch)
    if n_batch < 0:
        raise ValueError("Cannot map in_axis=0 for BCOO array with n_batch=0. in_axes for batched BCOO operations "
                         "must correspond to a batch dimension.")
    extra = n_batch - recorded_batch
    if extra > 0:
        mat.shape = tuple(np.broadcast_shapes(mat.data.shape[:extra], mat.indices.shape[:extra])) + mat.shape
    elif extra < 0:
        mat.shape = mat.shape[-extra:]


def _matmul(lhs: Any, rhs: Any) -> Any:
    """``lhs @ rhs`` with one or both operands BCOO, as ``jnp.matmul``: the last dimension of ``lhs`` contracts
    with the second-to-last of ``rhs`` (the only one of a vector), leading dimensions of equal rank are batch
    dimensions."""
    lhs_ndim = lhs.ndim if isinstance(lhs, JAXSparse) else np.ndim(lhs)
    rhs_ndim = rhs.ndim if isinstance(rhs, JAXSparse) else np.ndim(rhs)
    if lhs_ndim == 0 or rhs_ndim == 0:
        raise ValueError("matmul: operands must not be scalars")
    if lhs_ndim > 2 and rhs_ndim > 2 and lhs_ndim != rhs_ndim:
        raise NotImplementedError("sparse matmul of operands of different batch ranks")
    n_batch = lhs_ndim - 2 if lhs_ndim > 2 and rhs_ndim > 2 else 0
    contract = ((lhs_ndim - 1,), (max(rhs_ndim - 2, 0),))
    batch = (tuple(range(n_batch)), tuple(range(n_batch)))
    return bcoo_dot_general(lhs, rhs, dimension_numbers=(contract, batch), preferred_element_type=dtypes.result_type(
        lhs.dtype, rhs.dtype))
