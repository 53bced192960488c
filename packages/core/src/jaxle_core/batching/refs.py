"""Batching mutable references: a reference made from a batched value holds the batch as its leading axis, and
indexing it reads or writes every batch element's part: unbatched indices gain a leading full slice; batched
indices become integer array indices, the batched reference's own axis indexed by an iota (as JAX does). A
reference made under ``vmap`` is batched even from an unbatched value.
Writing a batched value into a reference made outside ``vmap`` raises JAX's error."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import at_dim, batching_rules, collective_rules, move_dim
from jaxle_core.lax.refs import (
    IndexDim,
    Indexer,
    addupdate_p,
    broadcast_to_p,
    free_ref_p,
    freeze_p,
    get_p,
    new_ref_p,
    swap_p,
)
from jaxle_core.lax.structural import broadcasted_iota, reshape


def _block_position(indexer: tuple[IndexDim, ...]) -> int:
    """Where the broadcast block of the integer (array) indices lands in the result: NumPy's rule."""
    advanced = [i for i, d in enumerate(indexer) if d.kind != "slice"]
    if advanced != list(range(advanced[0], advanced[-1] + 1)):
        return 0
    return sum(1 for d in indexer[:advanced[0]] if d.kind == "slice")


def _slice_position(indexer: tuple[IndexDim, ...], k: int, operands: Sequence[Any]) -> int:
    """Where the slice indexing dimension ``k`` lands in the result (NumPy's placement of array indices)."""
    slices_before = sum(1 for d in indexer[:k] if d.kind == "slice")
    if not any(d.kind == "array" for d in indexer):
        return slices_before
    dynamic = [d for d in indexer if d.start is None]
    shapes = [get_aval(x).shape for d, x in zip(dynamic, operands) if d.kind == "array"]
    rank = len(np.broadcast_shapes(*shapes))
    advanced = [i for i, d in enumerate(indexer) if d.kind != "slice"]
    if advanced != list(range(advanced[0], advanced[-1] + 1)):
        return rank + slices_before
    return slices_before + (rank if advanced[0] < k else 0)


def _batched_indexing(ref_dim: int | None, indexer: Indexer, operands: Sequence[Any],
                      operand_dims: Sequence[int | None], size: int) -> tuple[Indexer, list[Any], int | None]:
    """The indexer and index operands with which every batch element indexes its own part, and the result's batch
    dimension."""
    if all(d is None for d in operand_dims):
        if ref_dim is None:
            return indexer, list(operands), None
        if indexer is None:
            return None, list(operands), ref_dim
        batched = indexer[:ref_dim] + (IndexDim("slice", 0, size, 1),) + indexer[ref_dim:]
        return batched, list(operands), _slice_position(batched, ref_dim, operands)
    if ref_dim not in (None, 0):
        raise NotImplementedError("vmap of a reference batched along an axis other than its first, indexed by "
                                  "batched indices")
    dims_of = iter(zip(operands, operand_dims))
    entries: list[tuple[IndexDim, Any, int | None]] = []
    for d in indexer or ():
        x, xd = next(dims_of) if d.start is None else (None, None)
        if d.kind == "slice" and xd is not None:
            raise NotImplementedError("vmap of a reference indexed by a slice whose start is batched")
        entries.append((d, x, xd))
    shapes = [get_aval(x).shape[1:] if xd is not None else get_aval(x).shape
              for d, x, xd in entries if d.kind != "slice" and x is not None]
    rank = len(np.broadcast_shapes(*shapes)) if shapes else 0

    def as_array(x: Any, xd: int | None) -> Any:
        value = move_dim(x, xd, 0) if xd is not None else x
        shape = get_aval(value).shape
        inner = shape[1:] if xd is not None else shape
        lead = (shape[0],) if xd is not None else (1,)
        return reshape(value, lead + (1,) * (rank - len(inner)) + tuple(inner))

    new_dims, new_operands = [], []
    if ref_dim is not None:
        new_dims.append(IndexDim("array", None))
        new_operands.append(broadcasted_iota(np.int32, (size,) + (1,) * rank, 0))
    for d, x, xd in entries:
        if d.kind == "slice" or x is None:
            new_dims.append(d)
            if x is not None:
                new_operands.append(x)
            continue
        new_dims.append(IndexDim("array", None))
        new_operands.append(as_array(x, xd))
    batched = tuple(new_dims)
    return batched, new_operands, _block_position(batched)


def _new_ref_batch(trace, vals, dims, **params):
    # Batched even when its initial value is not (as JAX's): batched values may be written into it later.
    (x,), (d,) = vals, dims
    if d is None:
        return new_ref_p.bind(at_dim(x, None, trace.axis_size), **params), 0
    return new_ref_p.bind(x, **params), d


def _freeze_batch(vals, dims):
    (ref,), (d,) = vals, dims
    return freeze_p.bind(ref), d


def _free_ref_batch(vals, dims):
    return free_ref_p.bind(*vals), []


def _broadcast_to_batch(vals, dims, *, shape):
    (x,), (d,) = vals, dims
    value = move_dim(x, d, 0)
    inner = get_aval(value).shape[1:]
    padded = reshape(value, (get_aval(value).shape[0],) + (1,) * (len(shape) - len(inner)) + tuple(inner))
    return broadcast_to_p.bind(padded, shape=(get_aval(value).shape[0],) + tuple(shape)), 0


def _size(vals, dims) -> int:
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def _get_batch(vals, dims, *, indexer):
    ref, *operands = vals
    ref_dim, *operand_dims = dims
    new_indexer, new_operands, out_dim = _batched_indexing(ref_dim, indexer, operands, operand_dims,
                                                           _size(vals, dims))
    return get_p.bind(ref, *new_operands, indexer=new_indexer), out_dim


def _update_batch(primitive, what: str):
    def rule(vals, dims, *, indexer):
        ref, value, *operands = vals
        ref_dim, value_dim, *operand_dims = dims
        if ref_dim is None:
            raise Exception(f"performing {what} operation with vmapped value on an unbatched array reference of "
                            f"type {get_aval(ref)}. Move the array reference to be an argument to the vmapped "
                            "function?")
        size = _size(vals, dims)
        new_indexer, new_operands, out_dim = _batched_indexing(ref_dim, indexer, operands, operand_dims, size)
        outs = primitive.bind(ref, at_dim(value, value_dim, size, out_dim), *new_operands, indexer=new_indexer)
        return (outs, out_dim) if not primitive.multiple_results else (outs, [])

    return rule


collective_rules[new_ref_p] = _new_ref_batch
batching_rules[freeze_p] = _freeze_batch
batching_rules[free_ref_p] = _free_ref_batch
batching_rules[broadcast_to_p] = _broadcast_to_batch
batching_rules[get_p] = _get_batch
batching_rules[swap_p] = _update_batch(swap_p, "a set/swap")
batching_rules[addupdate_p] = _update_batch(addupdate_p, "an addupdate")
