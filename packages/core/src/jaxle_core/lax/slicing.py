"""Slicing primitives: static slices, dynamic slices, gather and scatter."""

from __future__ import annotations

import builtins
from collections.abc import Sequence

from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.standard import as_int_tuple

__all__ = ["index_in_dim", "slice", "slice_in_dim"]

slice_p = Primitive("slice")


@slice_p.def_abstract_eval
def _slice_aval(x, *, start_indices, limit_indices, strides):
    if not len(start_indices) == len(limit_indices) == x.ndim:
        raise TypeError(f"slice start_indices must have length equal to the number of dimensions of the operand, "
                        f"got indices {start_indices} for operand shape {x.shape}")
    strides = strides or (1,) * x.ndim
    for start, limit, size in zip(start_indices, limit_indices, x.shape):
        if not 0 <= start <= limit <= size:
            raise TypeError(f"slice indices must satisfy 0 <= start <= limit <= shape, got start_indices "
                            f"{start_indices}, limit_indices {limit_indices} for operand shape {x.shape}")
    shape = [(limit - start + stride - 1) // stride if limit > start else 0
             for start, limit, stride in zip(start_indices, limit_indices, strides)]
    return ShapedArray(shape, x.dtype, x.weak_type)


@slice_p.def_impl
def _slice_impl(x, *, start_indices, limit_indices, strides):
    strides = strides or (1,) * x.ndim
    return x[tuple(slice(s, l, st) for s, l, st in zip(start_indices, limit_indices, strides))]


def slice(operand, start_indices: Sequence[int], limit_indices: Sequence[int],  # noqa: A001 - lax's name
          strides: Sequence[int] | None = None):
    """The static slice ``operand[start:limit:stride]`` in every dimension."""
    return slice_p.bind(operand, start_indices=as_int_tuple(start_indices),
                        limit_indices=as_int_tuple(limit_indices),
                        strides=None if strides is None else as_int_tuple(strides))


def slice_in_dim(operand, start_index: int | None, limit_index: int | None, stride: int = 1, axis: int = 0):
    """A slice along one ``axis``."""
    shape = get_aval(operand).shape
    starts, limits, strides = [0] * len(shape), list(shape), [1] * len(shape)
    start, limit, _ = builtins.slice(start_index, limit_index).indices(shape[axis])
    starts[axis], limits[axis], strides[axis] = start, max(start, limit), stride
    return slice(operand, starts, limits, None if stride == 1 else strides)


def index_in_dim(operand, index: int, axis: int = 0, keepdims: bool = True):
    """The slice at ``index`` along ``axis``; the axis is dropped unless ``keepdims``."""
    from jaxle_core.lax.structural import squeeze

    size = get_aval(operand).shape[axis]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
    index %= size
    result = slice_in_dim(operand, index, index + 1, 1, axis)
    return result if keepdims else squeeze(result, (axis,))

