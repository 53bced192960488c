"""``jax.ops``: reductions over segments of an array's leading axis (``segment_sum``, ``segment_prod``,
``segment_max``, ``segment_min``).

``segment_<op>(data, segment_ids, num_segments)`` combines the rows ``data[i]`` whose ``segment_ids[i]`` are equal
into row ``segment_ids[i]`` of the result, starting from the operation's identity (0, 1, the dtype's lowest or highest
value). As JAX's, it is one scatter into the identity-filled result; ids out of range are dropped (``mode``
changes that) and negative ids are not wrapped. With ``bucket_size``, the rows are scattered in buckets of that many
into a result with one row of segments per bucket, which is then reduced.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.lax.slicing import GatherScatterMode
from jaxle_core.sharding_types import checked_out_sharding
from jaxle_numpy import creation, ranges, reductions, ufuncs
from jaxle_numpy.indexing import scatter_update
from jaxle_numpy.util import check_arraylike

__all__ = ["segment_max", "segment_min", "segment_prod", "segment_sum"]


def _lowest(dtype: np.dtype) -> Any:
    if dtype == np.bool_:
        return False
    return -np.inf if dtypes.issubdtype(dtype, np.inexact) else dtypes.iinfo(dtype).min


def _highest(dtype: np.dtype) -> Any:
    if dtype == np.bool_:
        return True
    return np.inf if dtypes.issubdtype(dtype, np.inexact) else dtypes.iinfo(dtype).max


# kind -> (the scatter combining rows, the identity of the operation for a dtype, the reduction over buckets)
_REDUCTIONS: dict[str, tuple[str, Callable[[np.dtype], Any], Callable[..., Any]]] = {
    "segment_sum": ("add", lambda dtype: 0, reductions.sum),
    "segment_prod": ("mul", lambda dtype: 1, reductions.prod),
    "segment_max": ("max", _lowest, reductions.max),
    "segment_min": ("min", _highest, reductions.min),
}


def _segment_reduce(name: str, data: Any, segment_ids: Any, num_segments: Any, indices_are_sorted: bool,
                    unique_indices: bool, bucket_size: int | None, mode: Any, out_sharding: Any) -> Any:
    sharding = checked_out_sharding(out_sharding, name)  # the result computed over its axes made Auto, laid out so
    if sharding is not None and sharding.spec.unreduced and name != "segment_sum":
        raise NotImplementedError(f"unreduced for {name.removeprefix('segment_')} is not yet supported.")
    check_arraylike(name, data, segment_ids)
    scatter_kind, identity, reduce_buckets = _REDUCTIONS[name]
    data, segment_ids = creation.asarray(data), creation.asarray(segment_ids)
    if num_segments is None:
        num_segments = core.concrete_or_error(reductions.max(segment_ids) + 1,
                                              f"{name}() `num_segments` argument.")
    num_segments = operator.index(num_segments)
    if num_segments < 0:
        raise ValueError("num_segments must be non-negative.")
    mode = GatherScatterMode.FILL_OR_DROP if mode is None else mode
    fill = identity(data.dtype)
    options = dict(indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode,
                   wrap_negative_indices=False)
    if bucket_size is None:
        out = creation.full((num_segments, *data.shape[1:]), fill, dtype=data.dtype)
        return scatter_update(out, segment_ids, data, scatter_kind, out_sharding=sharding, **options)
    if sharding is not None:
        raise NotImplementedError  # as JAX's: buckets are not laid out
    length = segment_ids.shape[0]
    out = creation.full((math.ceil(length / bucket_size), num_segments, *data.shape[1:]), fill, dtype=data.dtype)
    bucket_ids = ufuncs.floor_divide(ranges.arange(length), bucket_size)
    segments = segment_ids[None, :]
    out = scatter_update(out, (bucket_ids[None, :], segments), data, scatter_kind, **options)
    return reduce_buckets(out, axis=0)


def segment_sum(data: Any, segment_ids: Any, num_segments: int | None = None, indices_are_sorted: bool = False,
                unique_indices: bool = False, bucket_size: int | None = None, mode: Any = None,
                out_sharding: Any = None) -> Any:
    """The sum of the rows of ``data`` in each segment (0 for an empty one)."""
    return _segment_reduce("segment_sum", data, segment_ids, num_segments, indices_are_sorted, unique_indices,
                           bucket_size, mode, out_sharding)


def segment_prod(data: Any, segment_ids: Any, num_segments: int | None = None, indices_are_sorted: bool = False,
                 unique_indices: bool = False, bucket_size: int | None = None, mode: Any = None,
                 out_sharding: Any = None) -> Any:
    """The product of the rows of ``data`` in each segment (1 for an empty one)."""
    return _segment_reduce("segment_prod", data, segment_ids, num_segments, indices_are_sorted, unique_indices,
                           bucket_size, mode, out_sharding)


def segment_max(data: Any, segment_ids: Any, num_segments: int | None = None, indices_are_sorted: bool = False,
                unique_indices: bool = False, bucket_size: int | None = None, mode: Any = None,
                out_sharding: Any = None) -> Any:
    """The maximum of the rows of ``data`` in each segment (the dtype's lowest value for an empty one)."""
    return _segment_reduce("segment_max", data, segment_ids, num_segments, indices_are_sorted, unique_indices,
                           bucket_size, mode, out_sharding)


def segment_min(data: Any, segment_ids: Any, num_segments: int | None = None, indices_are_sorted: bool = False,
                unique_indices: bool = False, bucket_size: int | None = None, mode: Any = None,
                out_sharding: Any = None) -> Any:
    """The minimum of the rows of ``data`` in each segment (the dtype's highest value for an empty one)."""
    return _segment_reduce("segment_min", data, segment_ids, num_segments, indices_are_sorted, unique_indices,
                           bucket_size, mode, out_sharding)
