"""Batching rules of the slicing primitives: static slices, dynamic slices and updates, gathers and scatters.

A static slice takes the whole batch dimension. Dynamic slices and updates become a gather or scatter whose index
vectors gather the start indices (batched ones along a leading dimension). Gathers and scatters move the batch
dimension to the front: an unbatched operand or index array is sliced whole along it, and when both are batched it
becomes a pair of batching dimensions (``operand_batching_dims`` and the indices' batching dims).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import batch_size
from jaxle_core.batching.trace import at_dim, batching_rules, move_dim
from jaxle_core.core import Primitive
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax.structural import broadcast, broadcast_in_dim, concatenate


def _plus_one(dims) -> tuple:
    """``dims`` shifted past a new leading dimension, as NumPy integers (as JAX computes them)."""
    return tuple(np.add(1, dims))


# ---------------------------------------------------------------- slice


def _slice_rule(vals, dims, *, start_indices, limit_indices, strides):
    (x,), (bdim,) = vals, dims
    starts, limits = list(start_indices), list(limit_indices)
    starts.insert(bdim, 0)
    limits.insert(bdim, get_aval(x).shape[bdim])
    if strides is not None:
        strides = list(strides)
        strides.insert(bdim, 1)
    return lax_slicing.slice(x, starts, limits, strides), bdim


batching_rules[lax_slicing.slice_p] = _slice_rule

# ---------------------------------------------------------------- gather


def _gather_rule(vals, dims, *, dimension_numbers, slice_sizes, unique_indices, indices_are_sorted, mode,
                 fill_value):
    operand, indices = vals
    operand_bdim, indices_bdim = dims
    dn = dimension_numbers
    if indices_bdim is None:
        operand = move_dim(operand, operand_bdim, 0)
        slice_sizes = (get_aval(operand).shape[0], *slice_sizes)
        dn = lax_slicing.GatherDimensionNumbers(
            offset_dims=(0, *_plus_one(dn.offset_dims)), collapsed_slice_dims=_plus_one(dn.collapsed_slice_dims),
            start_index_map=_plus_one(dn.start_index_map), operand_batching_dims=_plus_one(dn.operand_batching_dims),
            start_indices_batching_dims=dn.start_indices_batching_dims)
    elif operand_bdim is None:
        indices = move_dim(indices, indices_bdim, 0)
        dn = dn._replace(offset_dims=tuple(1 + d for d in dn.offset_dims),
                         start_indices_batching_dims=_plus_one(dn.start_indices_batching_dims))
        # Different batch elements may gather the same slices: the batched indices are neither sorted nor unique.
        unique_indices = indices_are_sorted = False
    else:
        operand = move_dim(operand, operand_bdim, 0)
        indices = move_dim(indices, indices_bdim, 0)
        # one element of the batch dimension per slice: none when the batch is empty (as JAX's)
        slice_sizes = (min(1, get_aval(operand).shape[0]), *slice_sizes)
        dn = lax_slicing.GatherDimensionNumbers(
            offset_dims=_plus_one(dn.offset_dims), collapsed_slice_dims=_plus_one(dn.collapsed_slice_dims),
            start_index_map=_plus_one(dn.start_index_map),
            operand_batching_dims=(0, *_plus_one(dn.operand_batching_dims)),
            start_indices_batching_dims=(0, *_plus_one(dn.start_indices_batching_dims)))
    out = lax_slicing.gather_p.bind(operand, indices, dimension_numbers=dn, slice_sizes=tuple(slice_sizes),
                           unique_indices=unique_indices, indices_are_sorted=indices_are_sorted, mode=mode,
                           fill_value=fill_value)
    return out, 0


batching_rules[lax_slicing.gather_p] = _gather_rule

# ---------------------------------------------------------------- scatter


def _scatter_batcher(primitive: Primitive):
    """The rule of a scatter: the operand and updates get a leading batch dimension (materialised if absent)."""

    def rule(vals, dims, *, dimension_numbers, **params):
        operand, indices, updates = vals
        operand_bdim, indices_bdim, updates_bdim = dims
        size = batch_size(vals, dims)
        operand = at_dim(operand, operand_bdim, size)
        updates = at_dim(updates, updates_bdim, size)
        dn = dimension_numbers
        if indices_bdim is None:
            dn = lax_slicing.ScatterDimensionNumbers(
                update_window_dims=(0, *_plus_one(dn.update_window_dims)),
                inserted_window_dims=_plus_one(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_plus_one(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=_plus_one(dn.operand_batching_dims),
                scatter_indices_batching_dims=dn.scatter_indices_batching_dims)
        else:
            indices = at_dim(indices, indices_bdim, size)
            dn = lax_slicing.ScatterDimensionNumbers(
                update_window_dims=_plus_one(dn.update_window_dims),
                inserted_window_dims=_plus_one(dn.inserted_window_dims),
                scatter_dims_to_operand_dims=_plus_one(dn.scatter_dims_to_operand_dims),
                operand_batching_dims=(0, *_plus_one(dn.operand_batching_dims)),
                scatter_indices_batching_dims=(0, *_plus_one(dn.scatter_indices_batching_dims)))
        return primitive.bind(operand, indices, updates, dimension_numbers=dn, **params), 0

    return rule


for _p in (lax_slicing.scatter_p, lax_slicing.scatter_add_p, lax_slicing.scatter_sub_p, lax_slicing.scatter_mul_p,
           lax_slicing.scatter_min_p, lax_slicing.scatter_max_p):
    batching_rules[_p] = _scatter_batcher(_p)

# ---------------------------------------------------------------- dynamic_slice / dynamic_update_slice


def _start_index_vectors(indices: list, dims: list) -> tuple[Any, int | None]:
    """The scalar start indices as one index vector, or one per batch element (batch dimension 0)."""
    if not indices:
        return np.array([], np.int32), None
    if all(d is None for d in dims):
        return concatenate([broadcast(i, (1,)) for i in indices], 0), None
    size = batch_size(indices, dims)
    columns = [broadcast_in_dim(i, (size, 1), (0,) if d is not None else ()) for i, d in zip(indices, dims)]
    return concatenate(columns, 1), 0


def _dynamic_slice_rule(vals, dims, *, slice_sizes):
    operand, *indices = vals
    operand_bdim, *index_dims = dims
    every_dim = tuple(range(get_aval(operand).ndim - (operand_bdim is not None)))
    dn = lax_slicing.GatherDimensionNumbers(offset_dims=every_dim, collapsed_slice_dims=(), start_index_map=every_dim)
    index, index_bdim = _start_index_vectors(indices, index_dims)
    return _gather_rule([operand, index], [operand_bdim, index_bdim], dimension_numbers=dn, slice_sizes=slice_sizes,
                        unique_indices=True, indices_are_sorted=True, mode=lax_slicing.GatherScatterMode.CLIP,
                        fill_value=None)


def _dynamic_update_slice_rule(vals, dims):
    operand, update, *indices = vals
    operand_bdim, update_bdim, *index_dims = dims
    every_dim = tuple(range(get_aval(update).ndim - (update_bdim is not None)))
    dn = lax_slicing.ScatterDimensionNumbers(update_window_dims=every_dim, inserted_window_dims=(),
                                    scatter_dims_to_operand_dims=every_dim)
    index, index_bdim = _start_index_vectors(indices, index_dims)
    return _scatter_batcher(lax_slicing.scatter_p)(
        [operand, index, update], [operand_bdim, index_bdim, update_bdim], dimension_numbers=dn,
        indices_are_sorted=True, unique_indices=True, mode=lax_slicing.GatherScatterMode.CLIP, update_jaxpr=None,
        update_consts=())


batching_rules[lax_slicing.dynamic_slice_p] = _dynamic_slice_rule
batching_rules[lax_slicing.dynamic_update_slice_p] = _dynamic_update_slice_rule
