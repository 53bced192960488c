"""Batching mutable references, as JAX batches them. A reference made from a batched value holds the batch along
that value's batch dimension; one made under ``vmap`` is batched even from an unbatched value. Indexing a batched
reference reads or writes every batch element's part: the reference's batch dimension is indexed by a full slice
when no index is an integer array nor batched, by an iota integer array otherwise, with which the other integer
array indices are broadcast; batched indices become integer arrays whose first dimension is the batch. A ``ds``
whose start is batched raises JAX's ``NotImplementedError``; writing into a reference made outside ``vmap`` raises
JAX's error, even an unbatched value (as JAX's, the rule runs whatever is batched)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import at_dim, batching_rules, collective_rules, move_dim
from jaxle_core.lax.refs import IndexDim, Slice, addupdate_p, free_ref_p, freeze_p, get_p, new_ref_p, swap_p
from jaxle_core.lax.structural import broadcast_in_dim, broadcasted_iota, transpose


@dataclass(frozen=True)
class _BatchedIndexer:
    """An indexer rewritten to index every batch element's part of a reference at once (``indexer`` and its
    ``operands``). ``batch_index`` tells whether an integer array (an iota or a batched index) indexes the batch;
    ``first_int`` is the position of the first integer index of the indexer rewritten, ``was_contiguous`` whether
    its integer indices stood next to each other; ``int_rank`` is the rank of the new integer indices."""

    indexer: tuple[IndexDim, ...]
    operands: list[Any]
    batch_index: bool
    was_contiguous: bool
    first_int: int
    int_rank: int

    @property
    def ints(self) -> list[bool]:
        return [d.kind != "slice" for d in self.indexer]

    @property
    def block_moved_first(self) -> bool:
        """Whether the integer indices' results, in place before the rewrite, now come first (NumPy's rule for
        integer indices that are not next to each other)."""
        return self.batch_index and self.was_contiguous and not _contiguous(self.ints)

    def update_dim(self, ref_dim: int) -> int:
        """Where the batch stands in the indexed part of a batched reference (a written value's batch dimension)."""
        ints = self.ints
        if self.batch_index and not _contiguous(ints):
            return 0
        if any(ints):
            return ints.index(True) if self.batch_index else ref_dim - sum(ints[:ref_dim])
        return ref_dim

    def value_order(self, ndim: int) -> tuple[int, ...]:
        """The permutation of a written value, its batch first and the integer indices' results in place, that puts
        those results first."""
        pos, rank = self.first_int, self.int_rank
        return (0, *range(1 + pos, pos + rank), *range(1, 1 + pos), *range(pos + rank, ndim))

    def result_order(self, ndim: int) -> tuple[int, ...]:
        """The permutation of a read part, the integer indices' results first, that puts them in place."""
        pos, rank = self.first_int, self.int_rank
        return (0, *range(rank, rank + pos), *range(1, rank), *range(rank + pos, ndim))


def _contiguous(ints: Sequence[bool]) -> bool:
    where = [i for i, b in enumerate(ints) if b]
    return all(b - a == 1 for a, b in zip(where, where[1:]))


def _batch_indexer(indexer: tuple[IndexDim, ...], operands: Sequence[Any], operand_dims: Sequence[int | None],
                   size: int, ref_dim: int | None) -> _BatchedIndexer:
    """``indexer`` rewritten for a reference batched along ``ref_dim`` (None: not batched) and index operands
    batched along ``operand_dims``."""
    idx_batched = any(d is not None for d in operand_dims)
    dynamic = iter(zip(operands, operand_dims))
    entries: list[tuple[IndexDim, Any, int | None]] = []
    for d in indexer:
        x, xd = next(dynamic) if d.start is None else (None, None)
        entries.append((d, x, xd))
    int_shape = np.broadcast_shapes(*[get_aval(x).shape[:xd] + get_aval(x).shape[xd + 1:] if xd is not None
                                      else get_aval(x).shape for d, x, xd in entries if d.kind == "array"])
    batch_shape = (size, *int_shape)
    new: list[tuple[IndexDim, Any]] = []
    for d, x, xd in entries:
        if d.kind == "slice" and xd is not None:
            raise NotImplementedError(f"No support for vmapping over nontrivial slices just yet: "
                                      f"{Slice(x, d.size, d.stride)}")
        if d.kind == "slice" or x is None:
            new.append((d, x))
        elif xd is not None:
            new.append((IndexDim("array", None), move_dim(x, xd, 0)))
        elif d.kind == "array" and (idx_batched or ref_dim is not None):
            new.append((d, broadcast_in_dim(x, batch_shape, tuple(range(1, get_aval(x).ndim + 1)))))
        else:
            new.append((d, x))
    batch_index = ref_dim is not None and (idx_batched or bool(int_shape))
    if ref_dim is not None:
        new.insert(ref_dim, (IndexDim("array", None), broadcasted_iota(np.int32, batch_shape, 0)) if batch_index
                   else (IndexDim("slice", 0, size, 1), None))
    ints = [d.kind != "slice" for d in indexer]
    return _BatchedIndexer(tuple(d for d, _ in new), [x for _, x in new if x is not None], batch_index,
                           _contiguous(ints), ints.index(True) if any(ints) else 0,
                           len(batch_shape) if batch_index or idx_batched else len(int_shape))


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


def _size(vals, dims) -> int:
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def _get_batch(vals, dims, *, indexer):
    ref, *operands = vals
    ref_dim, *operand_dims = dims
    if indexer is None:
        return get_p.bind(ref, indexer=None), ref_dim
    batched = _batch_indexer(indexer, operands, operand_dims, _size(vals, dims), ref_dim)
    out = get_p.bind(ref, *batched.operands, indexer=batched.indexer)
    ints = batched.ints
    if batched.block_moved_first:
        return transpose(out, batched.result_order(get_aval(out).ndim)), 0
    if ref_dim is not None and not batched.batch_index:
        return out, ref_dim - sum(ints[:ref_dim])
    if (ref_dim is not None and not batched.was_contiguous) or not _contiguous(ints):
        return out, 0
    return out, ints.index(True)


def _update_batch(primitive, what: str):
    def rule(_trace, vals, dims, *, indexer):
        ref, value, *operands = vals
        ref_dim, value_dim, *operand_dims = dims
        if ref_dim is None:
            raise Exception(f"performing {what} operation with vmapped value on an unbatched array reference of "
                            f"type {get_aval(ref)}. Move the array reference to be an argument to the vmapped "
                            "function?")
        size = _size(vals, dims)
        if indexer is None:
            outs = primitive.bind(ref, at_dim(value, value_dim, size, ref_dim), indexer=None)
            return (outs, ref_dim) if not primitive.multiple_results else (outs, [])
        batched = _batch_indexer(indexer, operands, operand_dims, size, ref_dim)
        out_dim = batched.update_dim(ref_dim)
        value = at_dim(value, value_dim, size, out_dim)
        order = batched.value_order(get_aval(value).ndim) if batched.block_moved_first else None
        if order is not None:
            value = transpose(value, order)
        outs = primitive.bind(ref, value, *batched.operands, indexer=batched.indexer)
        if primitive.multiple_results:
            return outs, []
        return (outs if order is None else transpose(outs, tuple(np.argsort(order)))), out_dim

    return rule


collective_rules[new_ref_p] = _new_ref_batch
batching_rules[freeze_p] = _freeze_batch
batching_rules[free_ref_p] = _free_ref_batch
batching_rules[get_p] = _get_batch
collective_rules[swap_p] = _update_batch(swap_p, "a set/swap")
collective_rules[addupdate_p] = _update_batch(addupdate_p, "an addupdate")
