"""``bcoo_gather``: ``lax.gather`` of a BCOO array, a sparse result.

Each index vector of ``start_indices`` picks one slice of the operand (``bcoo_dynamic_slice``, its entries summed to
at most the slice's size); the slices are mapped over the index batch dimensions, which become leading batch
dimensions of the result, the collapsed dimensions are squeezed out and the dimensions are put where
``lax.gather`` puts them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from jaxle import numpy as jnp
from jaxle.experimental.sparse.bcoo import (
    BCOO,
    bcoo_dynamic_slice,
    bcoo_squeeze,
    bcoo_sum_duplicates,
    bcoo_transpose,
    bcoo_update_layout,
)
from jaxle.experimental.sparse.util import nfold_vmap
from jaxle_core import lax
from jaxle_core.api import eval_shape
from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.lax.slicing import GatherDimensionNumbers, GatherScatterMode

__all__ = ["bcoo_gather", "bcoo_permuted"]


def bcoo_gather(operand: BCOO, start_indices: Any, dimension_numbers: GatherDimensionNumbers,
                slice_sizes: Sequence[int], *, unique_indices: bool = False, indices_are_sorted: bool = False,
                mode: str | GatherScatterMode | None = None, fill_value: Any = None) -> BCOO:
    """``lax.gather`` of the BCOO array ``operand`` (indices clamped into bounds, negative ones counted from the
    end, as ``bcoo_dynamic_slice`` takes them)."""
    if mode not in (None, "promise_in_bounds", GatherScatterMode.PROMISE_IN_BOUNDS):
        raise NotImplementedError(f"bcoo_gather: {mode=} not yet supported.")
    if not isinstance(operand, BCOO):
        raise TypeError(f"bcoo_gather: operand must be a BCOO array, got {type(operand)}")
    dims = dimension_numbers
    if dims.operand_batching_dims:
        raise NotImplementedError("bcoo_gather: operand_batching_dims are not supported.")
    start_indices = jnp.asarray(start_indices)
    slice_sizes = tuple(int(s) for s in slice_sizes)
    # lax.gather's checks and the result's shape, from the dense gather's abstract evaluation
    out_shape = eval_shape(lambda x, i: lax.gather(x, i, dims, slice_sizes, mode=GatherScatterMode.PROMISE_IN_BOUNDS),
                           ShapeDtypeStruct(operand.shape, operand.dtype),
                           ShapeDtypeStruct(start_indices.shape, start_indices.dtype)).shape
    sparse_size = math.prod(slice_sizes[operand.n_batch:operand.n_batch + operand.n_sparse])

    def one_slice(index_vector):
        starts = [0] * operand.ndim
        for k, axis in enumerate(dims.start_index_map):
            starts[axis] = index_vector[k]
        piece = bcoo_dynamic_slice(operand, starts, slice_sizes)
        if piece.nse > sparse_size:
            piece = bcoo_sum_duplicates(piece, nse=sparse_size)
        return bcoo_squeeze(piece, dimensions=dims.collapsed_slice_dims)

    n_index_batch = start_indices.ndim - 1
    gathered = nfold_vmap(one_slice, n_index_batch, broadcasted=False)(start_indices)
    # gathered: index batch dimensions, then the slice's dimensions; lax.gather puts the slice's at offset_dims
    offsets = iter(range(n_index_batch, gathered.ndim))
    batches = iter(range(n_index_batch))
    permutation = [next(offsets) if p in dims.offset_dims else next(batches) for p in range(len(out_shape))]
    out = bcoo_permuted(gathered, permutation)
    assert out.shape == tuple(out_shape)
    return out


def bcoo_permuted(mat: BCOO, permutation: Sequence[int]) -> BCOO:
    """``mat`` transposed by ``permutation``, its batch and dense dimensions made sparse first where the
    permutation moves dimensions between those groups."""
    permutation = tuple(permutation)
    if permutation == tuple(range(mat.ndim)):
        return mat
    n_batch, n_sparse = mat.n_batch, mat.n_sparse
    groups = [range(n_batch), range(n_batch, n_batch + n_sparse), range(n_batch + n_sparse, mat.ndim)]
    if any(set(permutation[g.start:g.stop]) != set(g) for g in groups):
        mat = bcoo_update_layout(mat, n_batch=0, n_dense=0, on_inefficient=None)
    return bcoo_transpose(mat, permutation=permutation)
