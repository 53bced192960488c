"""The entries of a batched-COO layout as one flat list: the coordinate of each stored element over the batch and
sparse dimensions, and its block of dense dimensions. Every BCOO and BCSR operation is written against this view,
so each handles any number of batch, sparse and dense dimensions and batch dimensions of size 1 (broadcast).

Padding entries carry a coordinate out of bounds (the dimension's size): scatters drop them, gathers read zeros.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle import lax
from jaxle import numpy as jnp

__all__ = ["batch_coordinates", "first_occurrences", "flat_entries", "gather_entries", "linear_index",
           "layout", "scatter_entries", "unravel"]


def layout(data_shape: Sequence[int], indices_shape: Sequence[int]) -> tuple[int, int, int, int]:
    """``(n_batch, n_sparse, n_dense, nse)`` of buffers of these shapes."""
    n_batch = len(indices_shape) - 2
    return n_batch, indices_shape[-1], len(data_shape) - 1 - n_batch, indices_shape[-2]


def batch_coordinates(batch_shape: Sequence[int], nse: int, dtype: Any) -> Any:
    """For every (batch element, entry), the batch element's coordinate: shape ``batch_shape + (nse, n_batch)``."""
    grids = jnp.meshgrid(*[jnp.arange(size, dtype=dtype) for size in batch_shape], indexing="ij")
    return jnp.stack([jnp.broadcast_to(g[..., None], (*batch_shape, nse)) for g in grids], axis=-1)


def flat_entries(data: Any, indices: Any, shape: Sequence[int]) -> tuple[Any, Any]:
    """The coordinates ``(N, n_batch + n_sparse)`` over the batch and sparse dimensions of ``shape`` and the dense
    blocks ``(N, *dense_shape)`` of every entry of every batch element."""
    n_batch, n_sparse, n_dense, nse = layout(data.shape, indices.shape)
    batch_shape = tuple(shape[:n_batch])
    dense_shape = tuple(data.shape[n_batch + 1:])
    data = jnp.broadcast_to(data, (*batch_shape, nse, *dense_shape))
    indices = jnp.broadcast_to(indices, (*batch_shape, nse, n_sparse))
    if n_batch:
        indices = jnp.concatenate([batch_coordinates(batch_shape, nse, indices.dtype), indices], axis=-1)
    count = math.prod(batch_shape) * nse
    return indices.reshape(count, n_batch + n_sparse), data.reshape(count, *dense_shape)


def scatter_entries(coords: Any, values: Any, shape: Sequence[int]) -> Any:
    """The dense array of ``shape`` summing each value block at its coordinate (out of bounds: dropped)."""
    if not coords.shape[1]:  # no indexed dimensions: every entry adds to the whole array
        return values.sum(axis=0)
    out = jnp.zeros(tuple(shape), values.dtype)
    return out.at[tuple(coords[:, k] for k in range(coords.shape[1]))].add(values, mode="drop")


def gather_entries(mat: Any, coords: Any) -> Any:
    """The blocks of ``mat`` at each coordinate over its leading dimensions (out of bounds: zeros)."""
    if not coords.shape[1]:
        return jnp.broadcast_to(mat, (coords.shape[0], *mat.shape))
    return mat.at[tuple(coords[:, k] for k in range(coords.shape[1]))].get(mode="fill", fill_value=0)


def linear_index(coords: Any, shape: Sequence[int]) -> Any:
    """Each coordinate's position in row-major order; ``prod(shape)`` for a coordinate out of bounds."""
    size = math.prod(shape)
    in_bounds = jnp.all((coords >= 0) & (coords < jnp.array(shape, coords.dtype)), axis=-1)
    strides = np.array([math.prod(shape[k + 1:]) for k in range(len(shape))], dtype=np.int64)
    linear = jnp.sum(coords * jnp.array(strides, coords.dtype), axis=-1) if len(shape) else jnp.zeros(
        coords.shape[:-1], coords.dtype)
    return jnp.where(in_bounds, linear, size)


def unravel(linear: Any, shape: Sequence[int], dtype: Any) -> Any:
    """Coordinates ``(..., len(shape))`` of row-major positions; a position past the end becomes ``shape``."""
    size = math.prod(shape)
    columns = []
    rest = linear
    for k in range(len(shape) - 1, -1, -1):
        columns.append(rest % shape[k] if shape[k] else rest)
        rest = rest // shape[k] if shape[k] else rest
    coords = jnp.stack(columns[::-1], axis=-1).astype(dtype) if shape else jnp.zeros((*linear.shape, 0), dtype)
    return jnp.where((linear < size)[..., None], coords, jnp.array(shape, dtype))


def first_occurrences(keys: Any) -> Any:
    """Whether each key (1-D) is the first of its value."""
    order = jnp.argsort(keys, stable=True)
    ordered = keys[order]
    first_sorted = jnp.concatenate([jnp.ones((min(1, keys.shape[0]),), bool), ordered[1:] != ordered[:-1]])
    return jnp.zeros(keys.shape, bool).at[order].set(first_sorted)


def dot_dims(dimension_numbers: Any) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """``(lhs_contract, rhs_contract, lhs_batch, rhs_batch)`` as tuples of ints."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    return tuple(map(int, lhs_contract)), tuple(map(int, rhs_contract)), tuple(map(int, lhs_batch)), \
        tuple(map(int, rhs_batch))


def free_dims(ndim: int, *used: Sequence[int]) -> list[int]:
    """The dimensions of an operand of rank ``ndim`` in none of ``used``."""
    taken = {d for dims in used for d in dims}
    return [d for d in range(ndim) if d not in taken]


def sparse_dense_dot(coords: Any, values: Any, n_indexed: int, lhs_shape: Sequence[int], rhs: Any,
                     dimension_numbers: Any, preferred_element_type: Any) -> Any:
    """``dot_general`` of the array whose entries are ``(coords, values)`` (coordinates over its ``n_indexed``
    leading dimensions) with the dense ``rhs``: one gather of ``rhs`` at the coordinates of the indexed dimensions it
    pairs with, one batched contraction over the dense ones, one scatter into the indexed output dimensions."""
    lhs_contract, rhs_contract, lhs_batch, rhs_batch = dot_dims(dimension_numbers)
    lhs_free = free_dims(len(lhs_shape), lhs_contract, lhs_batch)
    rhs_free = free_dims(rhs.ndim, rhs_contract, rhs_batch)
    paired = [(lhs, r) for lhs, r in zip(lhs_contract + lhs_batch, rhs_contract + rhs_batch) if lhs < n_indexed]
    rhs_rest = free_dims(rhs.ndim, [r for _, r in paired])
    rhs = jnp.transpose(rhs, [r for _, r in paired] + rhs_rest).astype(preferred_element_type)
    if paired:
        gathered = gather_entries(rhs, coords[:, [lhs for lhs, _ in paired]])
    else:
        gathered = jnp.broadcast_to(rhs, (coords.shape[0], *rhs.shape))
    values = values.astype(preferred_element_type)

    def lhs_pos(d: int) -> int:
        return 1 + d - n_indexed

    def rhs_pos(d: int) -> int:
        return 1 + rhs_rest.index(d)

    dense_contract = [(lhs, r) for lhs, r in zip(lhs_contract, rhs_contract) if lhs >= n_indexed]
    dense_batch = [(i, lhs, r) for i, (lhs, r) in enumerate(zip(lhs_batch, rhs_batch)) if lhs >= n_indexed]
    product = lax.dot_general(
        values, gathered,
        (([lhs_pos(lhs) for lhs, _ in dense_contract], [rhs_pos(r) for _, r in dense_contract]),
         ([0] + [lhs_pos(lhs) for _, lhs, _ in dense_batch], [0] + [rhs_pos(r) for _, _, r in dense_batch])),
        preferred_element_type=preferred_element_type)
    sparse_batch = [(i, lhs) for i, lhs in enumerate(lhs_batch) if lhs < n_indexed]
    sparse_free = [lhs for lhs in lhs_free if lhs < n_indexed]
    labels = [("batch", i) for i, _ in sparse_batch] + [("lhs", d) for d in sparse_free] + \
        [("batch", i) for i, _, _ in dense_batch] + [("lhs", d) for d in lhs_free if d >= n_indexed] + \
        [("rhs", d) for d in rhs_free]
    out_coords = coords[:, [lhs for _, lhs in sparse_batch] + sparse_free]
    acc_shape = [lhs_shape[lhs] for _, lhs in sparse_batch] + [lhs_shape[d] for d in sparse_free]
    accumulated = scatter_entries(out_coords, product, (*acc_shape, *product.shape[1:]))
    target = [("batch", i) for i in range(len(lhs_batch))] + [("lhs", d) for d in lhs_free] + \
        [("rhs", d) for d in rhs_free]
    permutation = [labels.index(t) for t in target]
    if permutation != sorted(permutation):
        accumulated = jnp.transpose(accumulated, permutation)
    return accumulated
