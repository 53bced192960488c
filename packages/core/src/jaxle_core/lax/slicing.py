"""Slicing primitives: static slices, dynamic slices and updates, gather and scatter."""

from __future__ import annotations

import builtins
import enum
import functools
import math
import operator
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.avals import ShapedArray, canonicalize_shape, get_aval
from jaxle_core.core import Primitive, Tracer
from jaxle_core.jit import jit
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax.elementwise import add, bitwise_and, eq, lt, ne, rem
from jaxle_core.lax.standard import (
    as_int_tuple,
    check_integer_elements,
    check_nonnegative,
    lenient_axis,
    normalize_axis,
)
from jaxle_core.lax.structural import (
    broadcast_in_dim,
    broadcast_to_rank,
    concatenate,
    convert_element_type,
    expand_dims,
    host_python_complex,
    rev,
    select_n,
    squeeze,
    warn_complex_to_real,
)
from jaxle_core.shape_poly import DimExpr, dimension_as_value
from jaxle_core.staging import trace_to_jaxpr

__all__ = ["GatherDimensionNumbers", "GatherScatterMode", "ScatterDimensionNumbers", "dynamic_index_in_dim",
           "dynamic_slice", "dynamic_slice_in_dim", "dynamic_slice_p", "dynamic_update_index_in_dim",
           "dynamic_update_slice", "dynamic_update_slice_in_dim", "dynamic_update_slice_p", "gather", "gather_p",
           "index_in_dim", "index_take", "scatter", "scatter_add", "scatter_add_p", "scatter_apply", "scatter_max",
           "scatter_max_p", "scatter_min", "scatter_min_p", "scatter_mul", "scatter_mul_p", "scatter_p", "scatter_sub",
           "scatter_sub_p", "slice", "slice_in_dim", "slice_p"]

_STATIC_INTS = (int, np.integer)

# ---------------------------------------------------------------- slice

slice_p = Primitive("slice")


@slice_p.def_abstract_eval
def _slice_aval(x, *, start_indices, limit_indices, strides):
    for what, indices in (("start_indices", start_indices), ("limit_indices", limit_indices)):
        if len(indices) != x.ndim:
            raise TypeError(f"slice {what} must have length equal to the number of dimensions of the operand, got "
                            f"indices {indices} for operand shape {x.shape}.")
    strides = strides or (1,) * x.ndim
    if len(strides) != x.ndim:
        raise TypeError(f"slice strides must have length equal to the number of dimensions of the operand, got "
                        f"strides {strides} for operand shape {x.shape}")
    if any(s <= 0 for s in strides):
        raise TypeError(f"slice strides must be positive, got {strides}")
    if any(limit > size for limit, size in zip(limit_indices, x.shape)):
        raise TypeError(f"slice limit_indices must be less than or equal to operand shape, got limit_indices "
                        f"{limit_indices} for operand shape {x.shape}.")
    check_nonnegative("slice", "start_indices", start_indices)
    if any(start > limit for start, limit in zip(start_indices, limit_indices)):
        raise TypeError(f"slice limit_indices must be greater than or equal to start_indices, got start_indices "
                        f"{start_indices} and limit_indices {limit_indices}.")
    shape = [(limit - start + stride - 1) // stride
             for start, limit, stride in zip(start_indices, limit_indices, strides)]
    return ShapedArray(shape, x.dtype, x.weak_type)


@slice_p.def_impl
def _slice_impl(x, *, start_indices, limit_indices, strides):
    strides = strides or (1,) * x.ndim
    return x[tuple(builtins.slice(s, l, st) for s, l, st in zip(start_indices, limit_indices, strides))]


def slice(operand, start_indices: Sequence[int], limit_indices: Sequence[int],  # noqa: A001 - lax's name
          strides: Sequence[int] | None = None):
    """The static slice ``operand[start:limit:stride]`` in every dimension."""
    def checked(what: str, values: Sequence[int]) -> tuple:
        check_integer_elements("slice", what, values)
        return tuple(values)  # NumPy integers kept, as JAX keeps (and prints) them

    return slice_p.bind(operand, start_indices=checked("start_indices", start_indices),
                        limit_indices=checked("limit_indices", limit_indices),
                        strides=None if strides is None else checked("strides", strides))


def _dimension_index(x: Any) -> Any:
    """An integer bound (``operator.index``), or a symbolic dimension as it is."""
    return x if isinstance(x, DimExpr) else operator.index(x)


def slice_in_dim(operand, start_index: int | None, limit_index: int | None, stride: int = 1, axis: int = 0):
    """A slice along one ``axis``; negative and None bounds count as in Python."""
    shape = get_aval(operand).shape
    starts, limits, strides = [0] * len(shape), list(shape), [1] * len(shape)
    size = shape[axis]
    start = 0 if start_index is None else _dimension_index(start_index)
    limit = size if limit_index is None else _dimension_index(limit_index)
    starts[axis] = start + size if start < 0 else start
    limits[axis] = limit + size if limit < 0 else limit
    strides[axis] = operator.index(stride)
    return slice(operand, starts, limits, strides)


def index_in_dim(operand, index: int, axis: int = 0, keepdims: bool = True):
    """The slice at static ``index`` along ``axis``; the axis is dropped unless ``keepdims``."""
    index, axis = operator.index(index), lenient_axis(axis)
    size = get_aval(operand).shape[axis]
    if not -size <= index < size:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {size}")
    index = index + size if index < 0 else index
    result = slice_in_dim(operand, index, index + 1, 1, axis)
    return result if keepdims else squeeze(result, (axis,))


# ---------------------------------------------------------------- dynamic indices


def _check_start_indices(name: str, shape: tuple[int, ...], indices: Sequence[ShapedArray]) -> None:
    if len(indices) != len(shape):
        raise TypeError(f"{name} requires {len(shape)} start indices for operand shape {shape}, got "
                        f"{len(indices)}.")
    for index in indices:
        if index.shape or not np.issubdtype(index.dtype, np.integer):
            raise TypeError(f"{name} start indices must be integer scalars, got "
                            f"{', '.join(i.str_short() for i in indices)}.")


def _as_int64(indices) -> np.ndarray:
    """Indices as int64; uint64 values past the int64 range saturate (they are out of bounds either way)."""
    indices = np.asarray(indices)
    if indices.dtype == np.uint64:
        indices = np.minimum(indices, np.uint64(np.iinfo(np.int64).max))
    return indices.astype(np.int64)


def _clamped_starts(indices: Sequence[np.ndarray], shape: Sequence[int], window: Sequence[int]) -> list[int]:
    """XLA clamps dynamic start indices so the whole window lies inside the operand."""
    return [int(np.clip(_as_int64(i), 0, size - w)) for i, size, w in zip(indices, shape, window)]


def _split_start_indices(start_indices) -> list:
    if isinstance(start_indices, (list, tuple)):
        return list(start_indices)
    aval = get_aval(start_indices)
    if aval.ndim != 1:
        raise TypeError(f"start_indices must be a sequence of scalars or a 1-d array, got shape {aval.shape}")
    return [index_in_dim(start_indices, k, keepdims=False) for k in range(aval.shape[0])]


def _normalized_start_indices(name: str, shape: tuple[int, ...], start_indices,
                              allow_negative_indices: bool | Sequence[bool]) -> list:
    """Start indices of one integer dtype, negative ones counted from the end (staged when not static)."""
    indices = _split_start_indices(start_indices)
    if len(indices) != len(shape):
        raise ValueError(f"Length of slice indices must match number of operand dimensions ({len(indices)} vs "
                         f"{shape})")
    index_dtypes = [get_aval(i).dtype for i in indices]
    if any(not np.issubdtype(d, np.integer) for d in index_dtypes) or len(set(index_dtypes)) > 1:
        # JAX's two messages differ by a colon
        raise TypeError(f"index arguments to {name} must be integers of the same type, got"
                        f"{':' if name == 'dynamic_slice' else ''} {', '.join(d.name for d in index_dtypes)}")
    allow = ([bool(allow_negative_indices)] * len(shape) if isinstance(allow_negative_indices, (bool, np.bool_))
             else list(allow_negative_indices))
    dtype = index_dtypes[0] if index_dtypes else np.dtype(np.int32)
    result = []
    symbolic = not all(type(d) is int for d in shape)  # then every start is wrapped when the program runs, as JAX's
    for index, size, negative_ok in zip(indices, shape, allow):
        if type(index) is int and symbolic and negative_ok and index >= 0:
            # as JAX: the size is staged as a value (which nothing reads) and the start kept
            if type(size) is not int:
                dimension_as_value(size)
            result.append(np.asarray(index, dtype))
        elif isinstance(index, _STATIC_INTS) and symbolic and negative_ok:
            result.append(_wrap_negative(np.asarray(index, dtype), size, dtype))
        elif isinstance(index, _STATIC_INTS):
            value = int(index) + size if negative_ok and int(index) < 0 else int(index)
            result.append(np.asarray(value, dtype))
        elif negative_ok and not np.issubdtype(dtype, np.unsignedinteger):  # an unsigned index is never negative
            result.append(_wrap_negative(index, size, dtype))
        else:
            result.append(index)
    return result


def _wrap_negative(index, size: int, dtype: np.dtype):
    """``index + size if index < 0 else index``, as staged operations (a weakly typed index is made strong before
    the addition, as JAX's arithmetic does with mixed weak types; the comparison takes it as it is)."""
    # a symbolic size is staged as a value first (JAX's order)
    size_value = np.asarray(size, dtype) if type(size) is int else convert_element_type(size, dtype)
    is_negative = lt(index, np.asarray(0, dtype))
    addend = convert_element_type(index, dtype) if get_aval(index).weak_type else index
    return select_n(is_negative, index, add(addend, size_value))


# ---------------------------------------------------------------- dynamic_slice

dynamic_slice_p = Primitive("dynamic_slice")


@dynamic_slice_p.def_abstract_eval
def _dynamic_slice_aval(x, *indices, slice_sizes):
    _check_start_indices("dynamic_slice", x.shape, indices)
    if len(slice_sizes) != x.ndim:
        raise TypeError(f"dynamic_slice slice_sizes must have the same length as operand.shape, got slice_sizes "
                        f"{slice_sizes} for operand shape {x.shape}.")
    if any(s < 0 for s in slice_sizes):
        raise TypeError(f"slice slice_sizes must be greater than or equal to zero, got slice_sizes of {slice_sizes}.")
    if any(not d >= s for s, d in zip(slice_sizes, x.shape)):  # asked as JAX asks, for symbolic sizes' errors
        raise TypeError(f"slice slice_sizes must be less than or equal to operand shape, got slice_sizes "
                        f"{slice_sizes} for operand shape {x.shape}.")
    return ShapedArray(slice_sizes, x.dtype, x.weak_type)


@dynamic_slice_p.def_impl
def _dynamic_slice_impl(x, *indices, slice_sizes):
    starts = _clamped_starts(indices, x.shape, slice_sizes)
    return x[tuple(builtins.slice(s, s + w) for s, w in zip(starts, slice_sizes))]


def dynamic_slice(operand, start_indices, slice_sizes: Sequence[int], *,
                  allow_negative_indices: bool | Sequence[bool] = True):
    """The window of ``slice_sizes`` at traced ``start_indices``, clamped to lie inside ``operand``."""
    shape = get_aval(operand).shape
    indices = _normalized_start_indices("dynamic_slice", shape, start_indices, allow_negative_indices)
    return dynamic_slice_p.bind(operand, *indices, slice_sizes=canonicalize_shape(slice_sizes))


def dynamic_slice_in_dim(operand, start_index, slice_size: int, axis: int = 0, *,
                         allow_negative_indices: bool = True):
    """``dynamic_slice`` along one ``axis``."""
    shape = get_aval(operand).shape
    axis = normalize_axis(lenient_axis(axis), len(shape))
    starts: list[Any] = [0] * len(shape)
    starts[axis] = start_index
    sizes = list(shape)
    sizes[axis] = operator.index(slice_size)
    allow = [False] * len(shape)
    allow[axis] = allow_negative_indices
    return dynamic_slice(operand, _zeros_like_index(starts, axis), sizes, allow_negative_indices=allow)


def _zeros_like_index(starts: list, axis: int) -> list:
    """Give the constant zero starts the dtype of the traced start index."""
    dtype = get_aval(starts[axis]).dtype if np.issubdtype(get_aval(starts[axis]).dtype, np.integer) else None
    if dtype is None or isinstance(starts[axis], _STATIC_INTS):
        return starts
    return [s if k == axis else np.asarray(0, dtype) for k, s in enumerate(starts)]


def _dynamic_index_in_dim_body(operand, index, axis, keepdims, allow_negative_indices):
    result = dynamic_slice_in_dim(operand, index, 1, axis, allow_negative_indices=allow_negative_indices)
    return result if keepdims else squeeze(result, (axis,))


def _dynamic_update_index_in_dim_body(operand, update, index, axis, allow_negative_indices):
    if get_aval(update).ndim == get_aval(operand).ndim - 1:
        update = expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(operand, update, index, axis, allow_negative_indices=allow_negative_indices)


@functools.cache
def _staged(body: Callable, name: str, static_argnames: tuple[str, ...]):
    """``body`` under ``jit`` with JAX's function name, as lax stages these helpers."""
    body.__name__ = name
    return jit(body, static_argnames=static_argnames)


def dynamic_index_in_dim(operand, index, axis: int = 0, keepdims: bool = True, *,
                         allow_negative_indices: bool = True):
    """The slice at traced ``index`` along ``axis``; the axis is dropped unless ``keepdims``."""
    staged = _staged(_dynamic_index_in_dim_body, "dynamic_index_in_dim",
                     ("axis", "keepdims", "allow_negative_indices"))
    axis = normalize_axis(lenient_axis(axis), get_aval(operand).ndim)
    return staged(operand, index, axis=axis, keepdims=bool(keepdims),
                  allow_negative_indices=bool(allow_negative_indices))


# ---------------------------------------------------------------- dynamic_update_slice

dynamic_update_slice_p = Primitive("dynamic_update_slice")


@dynamic_update_slice_p.def_abstract_eval
def _dynamic_update_slice_aval(x, update, *indices):
    if x.ndim != update.ndim:
        raise TypeError(f"dynamic_update_slice update must have the same rank as operand, got update shape "
                        f"{update.shape} for operand shape {x.shape}.")
    if any(u > d for u, d in zip(update.shape, x.shape)):
        raise TypeError(f"dynamic_update_slice update shape must be smaller than operand shape, got update shape "
                        f"{update.shape} for operand shape {x.shape}.")
    if x.dtype != update.dtype:
        raise TypeError(f"lax.dynamic_update_slice requires arguments to have the same dtypes, got "
                        f"{x.dtype.name}, {update.dtype.name}.")
    _check_start_indices("dynamic_update_slice", x.shape, indices)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


@dynamic_update_slice_p.def_impl
def _dynamic_update_slice_impl(x, update, *indices):
    starts = _clamped_starts(indices, x.shape, update.shape)
    out = np.array(x, copy=True)
    out[tuple(builtins.slice(s, s + w) for s, w in zip(starts, update.shape))] = update
    return out


def dynamic_update_slice(operand, update, start_indices, *, allow_negative_indices: bool | Sequence[bool] = True):
    """``operand`` with ``update`` written at traced ``start_indices`` (clamped so it fits)."""
    shape = get_aval(operand).shape
    indices = _normalized_start_indices("dynamic_update_slice", shape, start_indices, allow_negative_indices)
    return dynamic_update_slice_p.bind(operand, update, *indices)


def dynamic_update_slice_in_dim(operand, update, start_index, axis: int, *, allow_negative_indices: bool = True):
    """``dynamic_update_slice`` along one ``axis``."""
    ndim = get_aval(operand).ndim
    axis = normalize_axis(lenient_axis(axis), ndim)
    starts: list[Any] = [0] * ndim
    starts[axis] = start_index
    allow = [False] * ndim
    allow[axis] = allow_negative_indices
    return dynamic_update_slice(operand, update, _zeros_like_index(starts, axis), allow_negative_indices=allow)


def dynamic_update_index_in_dim(operand, update, index, axis: int, *, allow_negative_indices: bool = True):
    """Write ``update`` (with or without the indexed ``axis``) at traced ``index`` along ``axis``."""
    staged = _staged(_dynamic_update_index_in_dim_body, "dynamic_update_index_in_dim",
                     ("axis", "allow_negative_indices"))
    return staged(operand, update, index, axis=normalize_axis(lenient_axis(axis), get_aval(operand).ndim),
                  allow_negative_indices=bool(allow_negative_indices))


# ---------------------------------------------------------------- gather / scatter configuration


class GatherDimensionNumbers(NamedTuple):
    """How ``gather`` maps index vectors and slices onto operand and output dimensions."""

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """How ``scatter`` maps index vectors and update windows onto operand dimensions."""

    update_window_dims: Sequence[int]
    inserted_window_dims: Sequence[int]
    scatter_dims_to_operand_dims: Sequence[int]
    operand_batching_dims: Sequence[int] = ()
    scatter_indices_batching_dims: Sequence[int] = ()


class GatherScatterMode(enum.Enum):
    """What gather and scatter do with out-of-bounds indices."""

    CLIP = 1
    FILL_OR_DROP = 2
    PROMISE_IN_BOUNDS = 3
    ONE_HOT = 4

    @classmethod
    def from_any(cls, mode: str | GatherScatterMode | None) -> GatherScatterMode:
        """The mode itself, or the one a user-facing name stands for (None: the default, fill/drop)."""
        if isinstance(mode, cls):
            return mode
        named = _MODE_NAMES.get(mode) if isinstance(mode, (str, type(None))) else None
        if named is None:
            raise ValueError(f'Unknown gather mode "{mode}"')
        return named


# "fill" (gather) and "drop" (scatter) are one mode seen from either side.
_MODE_NAMES = {None: GatherScatterMode.FILL_OR_DROP, "fill": GatherScatterMode.FILL_OR_DROP,
               "drop": GatherScatterMode.FILL_OR_DROP, "clip": GatherScatterMode.CLIP,
               "promise_in_bounds": GatherScatterMode.PROMISE_IN_BOUNDS, "one_hot": GatherScatterMode.ONE_HOT}


def _batch_starts(indices: np.ndarray, operand_ndim: int, index_map: Sequence[int],
                  operand_batching_dims: Sequence[int], indices_batching_dims: Sequence[int]) -> np.ndarray:
    """Full operand start coordinates, one row per index vector (the index vector dimension is last)."""
    batch_shape = indices.shape[:-1]
    count = int(np.prod(batch_shape, dtype=np.int64))
    vectors = _as_int64(indices.reshape(count, indices.shape[-1]))
    starts = np.zeros((count, operand_ndim), np.int64)
    for k, dim in enumerate(index_map):
        starts[:, dim] = vectors[:, k]
    positions = np.indices(batch_shape).reshape(len(batch_shape), count)
    for operand_dim, index_dim in zip(operand_batching_dims, indices_batching_dims):
        starts[:, operand_dim] = positions[index_dim]
    return starts


def _window_coordinates(starts: np.ndarray, window: Sequence[int]) -> tuple[np.ndarray, ...]:
    """Advanced-indexing coordinates of every element of every window, shaped ``(count, *window)``."""
    ndim = len(window)
    coords = []
    for dim, size in enumerate(window):
        offsets = np.arange(size).reshape([1] + [size if d == dim else 1 for d in range(ndim)])
        coords.append(starts[:, dim].reshape((-1,) + (1,) * ndim) + offsets)
    return tuple(np.broadcast_arrays(*coords)) if coords else ()


def _check_sorted_unique(name: str, field: str, dims: Sequence[int], bound: int) -> None:
    op = "gather" if name == "gather" else "scatter"
    if len(set(dims)) != len(dims):
        raise TypeError(f"{field} in {op} op must not repeat; got: {tuple(dims)}.")
    if list(dims) != sorted(dims):
        raise TypeError(f"{field} in {op} op must be sorted; got {tuple(dims)}")
    if any(not 0 <= d < bound for d in dims):
        raise TypeError(f"All components of {field} in {name} op must lie in the range [0, {bound}); got "
                        f"{tuple(dims)}.")


def _check_indices(name: str, indices: ShapedArray) -> None:
    if not np.issubdtype(indices.dtype, np.integer):
        raise ValueError("indices must have an integer type")
    if indices.ndim == 0:
        raise TypeError(f"{name} indices must have at least one dimension (the index vector), got a scalar")


# ---------------------------------------------------------------- gather

gather_p = Primitive("gather")


@gather_p.def_abstract_eval
def _gather_aval(operand, indices, *, dimension_numbers, slice_sizes, unique_indices, indices_are_sorted, mode,
                 fill_value):
    dn = dimension_numbers
    _check_indices("gather", indices)
    batch_shape = indices.shape[:-1]
    out_rank = len(batch_shape) + len(dn.offset_dims)
    _check_sorted_unique("gather", "offset_dims", dn.offset_dims, out_rank)
    _check_sorted_unique("gather", "collapsed_slice_dims", dn.collapsed_slice_dims, operand.ndim)
    _check_sorted_unique("gather", "operand_batching_dims", dn.operand_batching_dims, operand.ndim)
    if len(slice_sizes) != operand.ndim:
        raise TypeError(f"Gather op must have one slice size for every input dimension; got: len(slice_sizes)="
                        f"{len(slice_sizes)}, input_shape.rank={operand.ndim}")
    if len(dn.offset_dims) + len(dn.collapsed_slice_dims) + len(dn.operand_batching_dims) != operand.ndim:
        raise TypeError(f"All components of the offset index in a gather op must either be a offset dimension or "
                        f"explicitly collapsed/batching; got len(slice_sizes)={len(slice_sizes)}, "
                        f"output_slice_sizes={dn.offset_dims}, collapsed_slice_dims={dn.collapsed_slice_dims}, "
                        f"operand_batching_dims={dn.operand_batching_dims}.")
    if len(dn.start_index_map) != indices.shape[-1]:
        raise TypeError(f"Gather op has {len(dn.start_index_map)} elements in start_index_map and the bound of "
                        f"dimension index_vector_dim={indices.ndim - 1} of indices is {indices.shape[-1]}. These "
                        "two numbers must be equal.")
    if len(dn.operand_batching_dims) != len(dn.start_indices_batching_dims):
        raise TypeError("gather requires len(operand_batching_dims) == len(start_indices_batching_dims)")
    for size, bound in zip(slice_sizes, operand.shape):
        if not 0 <= size <= bound:
            raise TypeError(f"Slice size at index {slice_sizes.index(size)} in gather op is out of range, must be "
                            f"within [0, {bound} + 1), got {size}.")
    for dim in dn.collapsed_slice_dims + dn.operand_batching_dims:
        if slice_sizes[dim] > 1:
            raise TypeError(f"Gather op can only collapse slice dims with bound 1, but bound is "
                            f"{slice_sizes[dim]} for index {dim} at position "
                            f"{(dn.collapsed_slice_dims + dn.operand_batching_dims).index(dim)}.")
    dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
    offset_sizes = iter([s for d, s in enumerate(slice_sizes) if d not in dropped])
    batch_sizes = iter(batch_shape)
    shape = [next(offset_sizes) if i in dn.offset_dims else next(batch_sizes) for i in range(out_rank)]
    return ShapedArray(shape, operand.dtype, operand.weak_type)


def gather_fill(fill_value: Any, dtype: np.dtype) -> np.ndarray:
    """A ``FILL_OR_DROP`` gather's ``fill_value`` as a constant of ``dtype``, converted as JAX's lowering converts
    it (as ``full_like`` fills): a complex value made real warns ComplexWarning, and a Python complex then fails as
    ``float()`` of it does; a string is read as a dtype's name first. Out-of-range values wrap."""
    warn_complex_to_real(dtypes.dtype(fill_value), dtype, stacklevel=2)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(host_python_complex(fill_value, dtype)).astype(dtype)


@gather_p.def_impl
def _gather_impl(operand, indices, *, dimension_numbers, slice_sizes, unique_indices, indices_are_sorted, mode,
                 fill_value):
    dn = dimension_numbers
    batch_shape = indices.shape[:-1]
    if mode == GatherScatterMode.FILL_OR_DROP:
        # JAX computes the fill mask on indices converted (wrapping) to int32 when the operand's dims allow it.
        wide = any(d > np.iinfo(np.int32).max for d in operand.shape)
        indices = indices.astype(np.int64 if wide else np.int32)
    starts = _batch_starts(indices, operand.ndim, dn.start_index_map, dn.operand_batching_dims,
                           dn.start_indices_batching_dims)
    upper = np.asarray(operand.shape, np.int64) - np.asarray(slice_sizes, np.int64)
    in_bounds = np.all((starts >= 0) & (starts <= upper), axis=1)
    values = operand[_window_coordinates(np.clip(starts, 0, upper), slice_sizes)]
    if mode == GatherScatterMode.FILL_OR_DROP:
        fill = gather_fill(fill_value, operand.dtype)
        values = np.where(in_bounds.reshape((-1,) + (1,) * operand.ndim), values, fill)
    dropped = sorted(set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims))
    values = values.reshape(batch_shape + tuple(s for d, s in enumerate(slice_sizes) if d not in dropped))
    n_batch = len(batch_shape)
    batch_axes = iter(range(n_batch))
    permutation = [n_batch + dn.offset_dims.index(i) if i in dn.offset_dims else next(batch_axes)
                   for i in range(values.ndim)]
    return np.transpose(values, permutation)


def _default_fill(dtype: np.dtype) -> Any:
    """Out-of-bounds gathers fill with NaN, or the extreme of an integer type, or True (keys: their data's words with
    the largest uint32)."""
    if dtypes.issubdtype(dtype, dtypes.prng_key):
        return int(np.iinfo(np.uint32).max)
    if dtype == np.bool_:
        return True
    if np.issubdtype(dtype, np.signedinteger):
        return int(np.iinfo(dtype).min)
    if np.issubdtype(dtype, np.unsignedinteger):
        return int(np.iinfo(dtype).max)
    return float("nan")


def gather(operand, start_indices, dimension_numbers: GatherDimensionNumbers, slice_sizes: Sequence[int], *,
           unique_indices: bool = False, indices_are_sorted: bool = False,
           mode: str | GatherScatterMode | None = None, fill_value=None):
    """XLA's gather: slices of ``slice_sizes`` at the index vectors in the last dimension of ``start_indices``.

    ``mode`` None means PROMISE_IN_BOUNDS (indices clamp); FILL_OR_DROP fills out-of-bounds slices with
    ``fill_value`` (default NaN, or the integer minimum/maximum, or True).
    """
    parsed = GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else GatherScatterMode.from_any(mode)
    if parsed == GatherScatterMode.FILL_OR_DROP:
        if fill_value is None:
            fill_value = _default_fill(get_aval(operand).dtype)
    else:
        fill_value = None
    dn = GatherDimensionNumbers(*(as_int_tuple(f) for f in dimension_numbers))
    return gather_p.bind(operand, start_indices, dimension_numbers=dn, slice_sizes=canonicalize_shape(slice_sizes),
                         unique_indices=bool(unique_indices), indices_are_sorted=bool(indices_are_sorted),
                         mode=parsed, fill_value=fill_value)


def _where_body(condition, x, y):
    return select_n(condition, y, x)


def _floor_remainder_body(x, y):
    """``x mod y`` with the sign of ``y`` (Python's ``%``) for integers; a zero divisor is read as one."""
    x, y = broadcast_to_rank(x, get_aval(y).ndim), broadcast_to_rank(y, get_aval(x).ndim)  # NumPy's rank rule
    zero, one = np.zeros((), get_aval(y).dtype)[()], np.ones((), get_aval(y).dtype)[()]
    where = _staged(_where_body, "_where", ())
    divisor = where(eq(y, zero), broadcast_in_dim(one, get_aval(y).shape, ()), y)
    remainder = rem(x, divisor)
    nonzero = ne(remainder, zero)
    wrong_sign = bitwise_and(ne(lt(remainder, zero), lt(divisor, zero)), nonzero)
    return select_n(wrong_sign, remainder, add(remainder, divisor))


def index_take(src, idxs: Sequence, axes: Sequence[int]):
    """The elements of ``src`` at the index arrays ``idxs`` along ``axes`` (one array per axis, taken modulo that
    axis' size), followed by the untouched dimensions."""
    axes = tuple(axes)
    indices = concatenate([expand_dims(i, (1,)) for i in idxs], 1)
    shape = get_aval(src).shape
    sizes = np.array([shape[a] for a in axes], get_aval(indices).dtype)
    # staged under JAX's names (jnp.remainder and its jnp.where), so that jaxprs print as JAX's do
    indices = _staged(_floor_remainder_body, "remainder", ())(indices, expand_dims(sizes, (0,)))
    slice_sizes = tuple(1 if i in axes else d for i, d in enumerate(shape))
    offset_dims = tuple(range(1, 1 + len(shape) - len(axes)))
    return gather(src, indices, GatherDimensionNumbers(offset_dims, axes, axes), slice_sizes)


# ---------------------------------------------------------------- scatter


def _scatter_aval(operand, indices, updates, *, update_jaxpr, update_consts, dimension_numbers,
                  indices_are_sorted, unique_indices, mode, name):
    dn = dimension_numbers
    _check_indices(name, indices)
    if operand.dtype != updates.dtype:
        raise TypeError(f"lax.scatter requires arguments to have the same dtypes, got {operand.dtype.name}, "
                        f"{updates.dtype.name}.")
    _check_sorted_unique(name, "update_window_dims", dn.update_window_dims, updates.ndim)
    _check_sorted_unique(name, "inserted_window_dims", dn.inserted_window_dims, operand.ndim)
    _check_sorted_unique(name, "operand_batching_dims", dn.operand_batching_dims, operand.ndim)
    if len(dn.update_window_dims) + len(dn.inserted_window_dims) + len(dn.operand_batching_dims) != operand.ndim:
        raise TypeError(f"{name} op has window of size {len(dn.update_window_dims)}; doesn't match operand of rank "
                        f"{operand.ndim} with inserted_window_dims {dn.inserted_window_dims} and "
                        f"operand_batching_dims {dn.operand_batching_dims}.")
    if len(dn.scatter_dims_to_operand_dims) != indices.shape[-1]:
        raise TypeError(f"{name} op has {len(dn.scatter_dims_to_operand_dims)} elements in "
                        f"scatter_dims_to_operand_dims and the bound of dimension index_vector_dim="
                        f"{indices.ndim - 1} of indices is {indices.shape[-1]}. These two numbers must be equal.")
    if len(dn.operand_batching_dims) != len(dn.scatter_indices_batching_dims):
        raise TypeError(f"{name} requires len(operand_batching_dims) == len(scatter_indices_batching_dims)")
    scatter_shape = tuple(s for d, s in enumerate(updates.shape) if d not in dn.update_window_dims)
    if scatter_shape != indices.shape[:-1]:
        raise TypeError(f"{name} updates scatter dimensions {scatter_shape} must match the indices batch shape "
                        f"{indices.shape[:-1]}.")
    window_operand_dims = [d for d in range(operand.ndim)
                           if d not in dn.inserted_window_dims and d not in dn.operand_batching_dims]
    for updates_dim, operand_dim in zip(dn.update_window_dims, window_operand_dims):
        if updates.shape[updates_dim] > operand.shape[operand_dim]:
            raise TypeError(f"Bounds of the window dimensions of updates must not exceed the bounds of the "
                            f"corresponding dimensions of operand. For dimension {updates_dim}, updates bound is "
                            f"{updates.shape[updates_dim]}, operand bound is {operand.shape[operand_dim]}.")
    return ShapedArray(operand.shape, operand.dtype, operand.weak_type)


def scatter_window_sizes(operand_ndim: int, updates_shape: Sequence[int], dn: ScatterDimensionNumbers) -> list[int]:
    """The update window's extent in each operand dimension (1 for inserted and batching dimensions)."""
    window_sizes = iter(updates_shape[d] for d in dn.update_window_dims)
    skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    return [1 if d in skipped else next(window_sizes) for d in range(operand_ndim)]


def _scatter_impl(combine: Callable[[np.ndarray, tuple, np.ndarray], None]):
    def impl(operand, indices, updates, *, update_jaxpr, update_consts, dimension_numbers, indices_are_sorted,
             unique_indices, mode):
        dn = dimension_numbers
        window = scatter_window_sizes(operand.ndim, updates.shape, dn)
        scatter_axes = [d for d in range(updates.ndim) if d not in dn.update_window_dims]
        points = math.prod(updates.shape[d] for d in scatter_axes)  # explicit: -1 is ambiguous for empty windows
        updates = np.transpose(updates, scatter_axes + list(dn.update_window_dims)).reshape([points] + window)
        starts = _batch_starts(indices, operand.ndim, dn.scatter_dims_to_operand_dims, dn.operand_batching_dims,
                               dn.scatter_indices_batching_dims)
        upper = np.asarray(operand.shape, np.int64) - np.asarray(window, np.int64)
        if mode == GatherScatterMode.CLIP:
            starts = np.clip(starts, 0, upper)
        # XLA skips every update window that does not lie wholly inside the operand.
        kept = np.all((starts >= 0) & (starts <= upper), axis=1)
        out = np.array(operand, copy=True)
        coords = _window_coordinates(starts[kept], window)
        with np.errstate(all="ignore"):
            if update_jaxpr is not None and combine is _assign:
                _apply_update_jaxpr(update_jaxpr, update_consts, out, coords, updates[kept])
            else:
                combine(out, coords, updates[kept])
        return out

    return impl


def _assign(out: np.ndarray, coords: tuple, values: np.ndarray) -> None:
    out[coords] = values


def _apply_update_jaxpr(update_jaxpr, update_consts, out: np.ndarray, coords: tuple, values: np.ndarray) -> None:
    """A scatter's own combiner (scatter_apply's): each window in turn becomes ``update_jaxpr(window, update)``,
    the scalar jaxpr applied elementwise, so repeated indices apply it repeatedly."""
    with core.set_current_trace(core.EvalTrace()):
        for i in range(values.shape[0]):
            at = tuple(c[i] for c in coords)
            (new,) = core.eval_jaxpr(update_jaxpr, update_consts, out[at], values[i])
            out[at] = np.asarray(new)


def _scatter_primitive(name: str, combine: Callable) -> Primitive:
    primitive = Primitive(name)
    primitive.def_abstract_eval(functools.partial(_scatter_aval, name=name))
    primitive.def_impl(_scatter_impl(combine))
    return primitive


scatter_p = _scatter_primitive("scatter", _assign)
scatter_add_p = _scatter_primitive("scatter-add", np.add.at)
scatter_sub_p = _scatter_primitive("scatter-sub", np.subtract.at)
scatter_mul_p = _scatter_primitive("scatter-mul", np.multiply.at)
scatter_min_p = _scatter_primitive("scatter-min", np.minimum.at)
scatter_max_p = _scatter_primitive("scatter-max", np.maximum.at)


@functools.cache
def _update_jaxpr(combiner_name: str, dtype: np.dtype):
    """The scalar ``update_jaxpr`` JAX records for a combining scatter: ``{ lambda ; a b. let c = op a b }``."""
    combiner = getattr(lax_elementwise, combiner_name)
    scalar = ShapedArray((), dtype)
    return trace_to_jaxpr(lambda a, b: [combiner(a, b)], [scalar, scalar]).jaxpr


def _bind_scatter(primitive: Primitive, combiner_name: str | None, operand, scatter_indices, updates,
                  dimension_numbers, indices_are_sorted, unique_indices, mode):
    dtype = get_aval(operand).dtype
    if combiner_name is not None and dtypes.is_extended(dtype):  # JAX's zero of the operand's dtype fails in NumPy
        raise TypeError(f"Cannot interpret '{dtype}' as a data type")
    update_jaxpr = None if combiner_name is None else _update_jaxpr(combiner_name, dtype)
    dn = ScatterDimensionNumbers(*(as_int_tuple(f) for f in dimension_numbers))
    return primitive.bind(operand, scatter_indices, updates, update_jaxpr=update_jaxpr, update_consts=(),
                          dimension_numbers=dn, indices_are_sorted=bool(indices_are_sorted),
                          unique_indices=bool(unique_indices), mode=GatherScatterMode.from_any(mode))


def _scatter_function(primitive: Primitive, combiner_name: str | None, doc: str):
    def scatter_fn(operand, scatter_indices, updates, dimension_numbers: ScatterDimensionNumbers, *,
                   indices_are_sorted: bool = False, unique_indices: bool = False,
                   mode: str | GatherScatterMode | None = None):
        return _bind_scatter(primitive, combiner_name, operand, scatter_indices, updates, dimension_numbers,
                             indices_are_sorted, unique_indices, mode)

    scatter_fn.__name__ = scatter_fn.__qualname__ = primitive.name.replace("-", "_")
    scatter_fn.__doc__ = doc
    return scatter_fn


_SCATTER_DOC = ("XLA's scatter{}: ``updates`` windows written into ``operand`` at the index vectors in the last "
                "dimension of ``scatter_indices``. ``mode`` None means FILL_OR_DROP (out-of-bounds windows are "
                "skipped); CLIP clamps the indices.")
scatter = _scatter_function(scatter_p, None, _SCATTER_DOC.format(" (replacing)"))
scatter_add = _scatter_function(scatter_add_p, "add", _SCATTER_DOC.format(" (adding)"))
scatter_sub = _scatter_function(scatter_sub_p, "sub", _SCATTER_DOC.format(" (subtracting)"))
scatter_mul = _scatter_function(scatter_mul_p, "mul", _SCATTER_DOC.format(" (multiplying)"))
scatter_min = _scatter_function(scatter_min_p, "min", _SCATTER_DOC.format(" (taking the minimum)"))
scatter_max = _scatter_function(scatter_max_p, "max", _SCATTER_DOC.format(" (taking the maximum)"))


def scatter_apply(operand, scatter_indices, func: Callable, dimension_numbers: ScatterDimensionNumbers, *,
                  update_shape: Sequence[int] = (), indices_are_sorted: bool = False, unique_indices: bool = False,
                  mode: str | GatherScatterMode | None = None):
    """``operand`` with ``func`` applied to each element of the windows ``scatter_indices`` selects (windows of
    ``update_shape``, laid out as scatter's updates); repeated indices apply ``func`` again."""
    dtype = get_aval(operand).dtype
    # The updates only give the windows' shape: a scatter's combiner also receives them, and ignores them here.
    if isinstance(dtype, dtypes.ExtendedDType):  # zero elements, as JAX makes them (keys of zero data, staged)
        unused_updates = dtype.full(tuple(update_shape), 0)
        dtype.full((), 0)  # JAX's zero element typing the combiner (unused)
    else:
        unused_updates = broadcast_in_dim(np.zeros((), dtype), update_shape, ())
    scalar = ShapedArray((), dtype)
    closed = trace_to_jaxpr(lambda x, _: [func(x)], [scalar, scalar])
    if any(isinstance(c, Tracer) for c in closed.consts):
        raise NotImplementedError("Reduction computations can't close over Tracers. Please open an issue at "
                                  "https://github.com/jax-ml/jax.")
    dn = ScatterDimensionNumbers(*(as_int_tuple(f) for f in dimension_numbers))
    return scatter_p.bind(operand, scatter_indices, unused_updates, update_jaxpr=closed.jaxpr,
                          update_consts=tuple(closed.consts), dimension_numbers=dn,
                          indices_are_sorted=bool(indices_are_sorted), unique_indices=bool(unique_indices),
                          mode=GatherScatterMode.from_any(mode))


# ---------------------------------------------------------------- indexing with traced integer scalars


def index_with_arrays(x, index: tuple):
    """``x[index]`` where some indices are integer scalar arrays or tracers (with ints, slices, None, ...).

    Emits what ``jnp`` emits: each start is wrapped if negative, one ``dynamic_slice``, then ``rev`` for negative
    steps, ``squeeze`` for integer indices and ``broadcast_in_dim`` for ``None``.
    """
    shape = get_aval(x).shape
    index = expand_index(index, len(shape))
    starts, sizes, strides, reversed_dims, squeezed, new_axes = [], [], [], [], [], []
    dim = 0
    for position, item in enumerate(index):
        if item is None:
            new_axes.append(position - len(squeezed))
            continue
        size = shape[dim]
        if isinstance(item, builtins.slice):
            start, stop, step = item.indices(size)
            count = len(range(start, stop, step))
            lowest = start if step > 0 else (start + (count - 1) * step if count else 0)
            starts.append(np.asarray(lowest, np.int32))
            sizes.append(count if abs(step) == 1 else (count - 1) * abs(step) + 1 if count else 0)
            strides.append(abs(step))
            if step < 0:
                reversed_dims.append(dim)
        else:
            starts.append(_scalar_index(item))
            sizes.append(1)
            strides.append(1)
            squeezed.append(dim)
        dim += 1

    starts = [_wrap_negative(s, size, np.dtype(np.int32)) for s, size in zip(starts, shape)]
    x = dynamic_slice_p.bind(x, *starts, slice_sizes=tuple(sizes))
    if any(s != 1 for s in strides):
        x = slice(x, (0,) * len(sizes), sizes, strides)
    if reversed_dims:
        x = rev(x, tuple(reversed_dims))
    if squeezed:
        x = squeeze(x, squeezed)
    if new_axes:
        kept = get_aval(x).shape
        out_ndim = len(kept) + len(new_axes)
        positions = [d for d in range(out_ndim) if d not in new_axes]
        out_shape = [1] * out_ndim
        for d, s in zip(positions, kept):
            out_shape[d] = s
        x = broadcast_in_dim(x, out_shape, positions)
    return x


def expand_index(index: Any, ndim: int) -> tuple:
    """``index`` (one item or a tuple) checked as JAX checks an index, with ``...`` and the dimensions it leaves
    out spelled as full slices."""
    items = index if isinstance(index, tuple) else (index,)
    for item in items:
        if item is None or item is Ellipsis or isinstance(item, (builtins.slice, bool, *_STATIC_INTS)):
            continue
        if isinstance(item, str):
            raise TypeError(f"JAX does not support string indexing; got idx={index!r}")
        aval = get_aval(item)
        if not (np.issubdtype(aval.dtype, np.integer) or aval.dtype == np.bool_):
            requested = dtypes.dtype(item, canonicalize=False)  # a Python float is float64 to JAX here
            raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {requested}")
        if aval.ndim > 0 or aval.dtype == np.bool_:
            raise TypeError(f"Indexing with an array of shape {aval.shape} and dtype {aval.dtype.name} needs "
                            "jaxle.numpy advanced indexing; core's indexing accepts integer scalars, slices, None "
                            "and ... .")
    if any(isinstance(item, bool) for item in items):
        raise TypeError("Indexing with booleans needs jaxle.numpy advanced indexing.")
    if sum(1 for item in items if item is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for item in items if item is not None and item is not Ellipsis)
    if n_real > ndim:
        raise IndexError(f"Too many indices: array is {ndim}-dimensional, but {n_real} were indexed")
    fill = (builtins.slice(None),) * (ndim - n_real)
    at = next((k for k, item in enumerate(items) if item is Ellipsis), None)
    return items + fill if at is None else items[:at] + fill + items[at + 1:]


def _scalar_index(item):
    """An integer index as an int32 scalar (out-of-range ones are clamped later, by dynamic_slice)."""
    if isinstance(item, _STATIC_INTS):
        return np.asarray(int(item), np.int32)
    if not isinstance(item, Tracer) and isinstance(item, np.ndarray):
        return np.asarray(item, np.int32)

    return convert_element_type(item, np.int32) if get_aval(item).dtype != np.int32 else item

