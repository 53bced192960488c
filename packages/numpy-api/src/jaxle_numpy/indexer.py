"""How a NumPy index applies to an array: the plan that jnp indexing and ``.at[]`` updates stage.

An index is first read into a list of items (``parse_index``): ``None``, static slices, static and traced integer
scalars and integer arrays; ``...`` is spelled out, boolean masks (which must be concrete) become the integer arrays
of their nonzero positions and a Python boolean becomes a new axis of the operand indexed by ``[0]`` or ``[]``.
Indexing then takes one of three routes, as in JAX:

- static integers (in bounds) and slices: ``slice``, ``rev``, ``squeeze`` and ``broadcast_in_dim``;
- with traced scalars, out-of-bounds integers or ``jax.ds`` dynamic slices, and unit steps: one ``dynamic_slice``
  (starts clamped);
- anything else: one ``gather`` (``gather_plan``), whose index array also serves ``scatter`` for ``.at[]``.

Indices are wrapped (``i + size`` for a negative ``i``) before they are used (but the start of a ``jax.ds`` slice
only on the ``dynamic_slice`` route), and advanced indices follow NumPy's
placement rule: their broadcast dimensions replace the indexed ones when they are adjacent, else lead the result.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer
from jaxle_core.errors import NonConcreteBooleanIndexError
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.identity import copy_p
from jaxle_core.lax.refs import Slice
from jaxle_core.shape_poly import is_symbolic_dim, max_dim, min_dim
from jaxle_numpy import creation
from jaxle_numpy.util import check_jitted_arguments

__all__: list[str] = []


class Kind(enum.Enum):
    NEWAXIS = 0
    SLICE = 1
    STATIC_INT = 2
    TRACED_INT = 3
    ARRAY = 4
    DYNAMIC_SLICE = 5  # a ``jax.ds`` slice: ``size`` elements every ``stride`` from a static or traced start


@dataclasses.dataclass(frozen=True)
class Item:
    """One parsed index item; ``dim`` is the operand dimension it indexes (None for a new axis)."""

    kind: Kind
    value: Any
    dim: int | None
    numpy_dtype: np.dtype | None = None  # of a static integer given as a NumPy scalar


@dataclasses.dataclass(frozen=True)
class ParsedIndex:
    items: list[Item]
    shape: tuple[int, ...]  # the operand's shape after the axes of Python booleans are inserted
    inserted_axes: tuple[int, ...]  # operand axes a Python boolean inserts

    @property
    def has_arrays(self) -> bool:
        return any(item.kind is Kind.ARRAY for item in self.items)


def check_static_indices(parsed: ParsedIndex, wrap_negative_indices: bool) -> None:
    """IndexError for a static integer index outside its axis (negative ones count from the end when
    ``wrap_negative_indices``); what ``jax_check_static_indices`` asks for."""
    for item in parsed.items:
        if item.kind is Kind.STATIC_INT:
            size = parsed.shape[item.dim]
            lowest = -size if wrap_negative_indices else 0
            if not lowest <= item.value < size:
                raise IndexError(f"index {item.value} out of bounds for axis {item.dim} with size {size} "
                                 f"(normalize_indices={wrap_negative_indices})")


def _is_static_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _leaves(items: list | tuple):
    for e in items:
        if isinstance(e, (list, tuple)):
            yield from _leaves(e)
        else:
            yield e


def _all_python_booleans(items: list | tuple) -> bool:
    """Whether a (nested) list holds Python or NumPy booleans only, and at least one."""
    leaves = list(_leaves(items))
    return bool(leaves) and all(isinstance(e, (bool, np.bool_)) for e in leaves)


def _as_index_array(item: Any) -> Any:
    """A list in an index tuple becomes an array as ``jnp.array`` makes it (tracers inside it are stacked)."""
    if isinstance(item, (list, tuple)):
        if _all_python_booleans(item):
            return np.asarray(item, np.bool_)  # a mask of Python booleans is concrete, traced or not
        return creation.array(item)
    return item


def _static_slice(item: slice, position: int) -> slice:
    """``item`` with Python integers for entries (JAX's errors for traced or non-integer ones); an integer array is
    its integer when evaluated eagerly, as in JAX (inside a trace JAX's arrays made there are tracers)."""
    for entry in (item.start, item.stop, item.step):
        if isinstance(entry, Tracer) or (isinstance(entry, Array) and not core.evaluates_eagerly([])):
            raise IndexError(f"Slice entries must be static integers. Got {item} at position {position}")
    return slice(*(e if e is None or is_symbolic_dim(e) else operator.index(e)
                   for e in (item.start, item.stop, item.step)))


def _concrete(x: Any) -> np.ndarray:
    return np.asarray(x)


def _read_item(item: Any, position: int, canonical: dict[int, np.ndarray]) -> list[tuple[Kind | str, Any]]:
    """An index item as (kind, value) pairs; 'bool' marks a Python/NumPy boolean scalar, 'mask' a boolean array."""
    if item is None:
        return [(Kind.NEWAXIS, None)]
    if item is Ellipsis:
        return [("ellipsis", None)]
    if isinstance(item, slice):
        return [(Kind.SLICE, _static_slice(item, position))]
    if isinstance(item, Slice):
        return [(Kind.DYNAMIC_SLICE, item)]
    if isinstance(item, (bool, np.bool_)):
        return [("bool", bool(item))]
    if _is_static_int(item):
        return [(Kind.STATIC_INT, item)]
    if isinstance(item, str):
        raise TypeError(f"JAX does not support string indexing; got idx={item!r}")
    if isinstance(item, (bytes, bytearray)):  # JAX's jitted asarray refuses it as an argument
        check_jitted_arguments(creation.asarray, a=item)
    item = _as_index_array(item)
    if hasattr(item, "__jax_array__"):
        item = item.__jax_array__()
    if not isinstance(item, (np.ndarray, np.generic, Array, Tracer, float, complex)):
        raise IndexError("only integers, slices (`:`), ellipsis (`...`), newaxis (`None`) and integer or boolean "
                         f"arrays are valid indices. Got {item}")
    aval = get_aval(item)
    if aval.dtype == np.bool_:
        # under a transformation JAX holds even a concrete jax array as a traced constant
        if isinstance(item, Tracer) or (isinstance(item, Array) and not core.evaluates_eagerly([])):
            raise NonConcreteBooleanIndexError(f"Array boolean indices must be concrete; got {aval.str_short()}")
        if aval.ndim == 0:
            return [("bool", bool(_concrete(item)))]
        return [("mask", _concrete(item))]
    if not np.issubdtype(aval.dtype, np.integer) and not (aval.size == 0 and aval.ndim > 0):
        # (an empty array of any dtype, such as the float32 array of an empty list, selects nothing: JAX takes it)
        requested = dtypes.dtype(item, canonicalize=False)  # a Python float is float64 to JAX here
        raise TypeError(f"Indexer must have integer or boolean type, got indexer with type {requested}")
    if aval.ndim == 0:
        if isinstance(item, np.generic):
            return [(Kind.STATIC_INT, item)]
        return [(Kind.TRACED_INT, item)]  # a 0-d array, even a NumPy one, indexes as a dynamic start
    if isinstance(item, np.ndarray):
        # the same NumPy array used twice in an index is one constant of the trace, as in JAX
        item = canonical.setdefault(id(item), np.asarray(item, dtypes.canonicalize_dtype(item.dtype)))
    return [(Kind.ARRAY, item)]


def _consumed_dims(kind: Kind | str, value: Any) -> int:
    if kind in (Kind.NEWAXIS, "bool", "ellipsis"):
        return 0
    return value.ndim if kind == "mask" else 1


def parse_index(index: Any, shape: tuple[int, ...]) -> ParsedIndex:
    """``index`` checked as JAX checks it and read into items (see the module's docstring)."""
    if isinstance(index, Sequence) and not isinstance(index, (tuple, str)):  # a list, bytes, a range
        nested = any(e is None or e is Ellipsis or isinstance(e, (slice, list, tuple)) for e in index)
        raise TypeError("Using a non-tuple sequence for multidimensional indexing is not allowed; use "
                        f"`arr[{'tuple' if nested else 'array'}(seq)]` instead of `arr[seq]`. See "
                        "https://github.com/jax-ml/jax/issues/4564 for more information.")
    raw = index if isinstance(index, tuple) else (index,)
    canonical: dict[int, np.ndarray] = {}  # NumPy index arrays in the canonical dtype, by the given array's id
    read = [(*pair, position) for position, item in enumerate(raw) for pair in _read_item(item, position, canonical)]
    if sum(1 for kind, _, _ in read if kind == "ellipsis") > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = sum(_consumed_dims(kind, value) for kind, value, _ in read)
    if used > len(shape):
        raise IndexError(f"Too many indices: array is {len(shape)}-dimensional, but {used} were indexed")
    at = next((k for k, (kind, _, _) in enumerate(read) if kind == "ellipsis"), None)
    full = [(Kind.SLICE, slice(None), at)] * (len(shape) - used)
    read = read + full if at is None else read[:at] + full + read[at + 1:]

    items: list[Item] = []
    new_shape: list[int] = []
    inserted: list[int] = []
    dim = 0  # in the original operand
    for kind, value, position in read:  # (the position in the index as written, for messages)
        if kind == "bool":
            inserted.append(len(new_shape))
            new_shape.append(1)
            positions = np.arange(1 if value else 0, dtype=dtypes.canonicalize_dtype(np.int64))
            items.append(Item(Kind.ARRAY, positions, len(new_shape) - 1))
        elif kind == "mask":
            expected = shape[dim:dim + value.ndim]
            if value.shape != expected:
                raise IndexError(f"boolean index did not match shape of indexed array in index {position}: got "
                                 f"{value.shape}, expected {list(expected)}")
            for positions in np.nonzero(value):
                items.append(Item(Kind.ARRAY, positions.astype(dtypes.canonicalize_dtype(np.int64)),
                                  len(new_shape)))
                new_shape.append(shape[dim])
                dim += 1
        elif kind is Kind.NEWAXIS:
            items.append(Item(kind, None, None))
        elif kind in (Kind.STATIC_INT, Kind.TRACED_INT) and shape[dim] == 0:
            raise IndexError(f"index is out of bounds for axis {dim} with size 0")
        elif kind is Kind.STATIC_INT:
            numpy_dtype = value.dtype if isinstance(value, np.generic) else None
            items.append(Item(kind, int(value), len(new_shape), numpy_dtype))
            new_shape.append(shape[dim])
            dim += 1
        else:
            items.append(Item(kind, value, len(new_shape)))
            new_shape.append(shape[dim])
            dim += 1
    return ParsedIndex(items, tuple(new_shape), tuple(inserted))


def slice_bounds(item: slice, size: int) -> tuple[int, int, int]:
    """(start, step, count) of a static slice over ``size`` elements (symbolic ones for a symbolic size)."""
    if is_symbolic_dim(size):
        return _symbolic_slice_bounds(item, size)
    start, stop, step = item.indices(size)
    return start, step, len(range(start, stop, step))


def _symbolic_slice_bounds(item: slice, size: Any) -> tuple[Any, int, Any]:
    """``slice.indices`` over a symbolic ``size``: bounds clamped with ``max_dim``/``min_dim`` (every size is at
    least 1, so most clamps simplify away)."""
    step = 1 if item.step is None else operator.index(item.step)
    if step == 0:
        raise ValueError("slice step cannot be zero")

    def bound(value: Any, default: Any, low: Any, high: Any) -> Any:
        if value is None:
            return default
        if not is_symbolic_dim(value):  # a symbolic bound counts as nonnegative
            value = operator.index(value)
            if value < 0:
                return max_dim(low, size + value)
        return min_dim(high, value)

    if step > 0:
        start, stop = bound(item.start, 0, 0, size), bound(item.stop, size, 0, size)
        return start, step, max_dim(0, (stop - start + step - 1) // step)
    start, stop = bound(item.start, size - 1, -1, size - 1), bound(item.stop, -1, -1, size - 1)
    return start, step, max_dim(0, (start - stop - step - 1) // -step)


def needs_gather_for_symbolic_shape(parsed: ParsedIndex) -> bool:
    """Whether ``x[index]`` of a symbolic shape takes the gather route, as JAX's does: a slice over a symbolic
    dimension (unless the index selects everything, new axes aside)."""
    if all(type(d) is int for d in parsed.shape):
        return False
    return not selects_everything(parsed) and any(
        item.kind is Kind.SLICE and is_symbolic_dim(parsed.shape[item.dim]) for item in parsed.items)


# ---------------------------------------------------------------- slicing routes


def is_static(parsed: ParsedIndex, clip: bool = False, wrap: bool = True) -> bool:
    """Whether ``lax.slice`` does it: static integers in bounds (negative ones counted from the end with ``wrap``;
    any, clamped into bounds, with ``clip``) and slices only (integers into a symbolic shape take the
    ``dynamic_slice`` route, as JAX's)."""
    symbolic = not all(type(d) is int for d in parsed.shape)
    for item in parsed.items:
        if symbolic and item.kind is Kind.STATIC_INT:
            return False
        if item.kind in (Kind.TRACED_INT, Kind.ARRAY, Kind.DYNAMIC_SLICE):
            return False
        size = parsed.shape[item.dim] if item.kind is Kind.STATIC_INT else None
        if size is not None and not clip and not (-size if wrap else 0) <= item.value < size:
            return False
    return True


def _static_start(value: int, size: int, wrap: bool) -> int:
    """The start of a static integer index: counted from the end when negative (with ``wrap``), clamped into
    bounds."""
    start = value + size if wrap and value < 0 else value
    return min(max(start, 0), size - 1)


def selects_everything(parsed: ParsedIndex) -> bool:
    """Whether the index is full slices and new axes only."""
    return all(item.kind is Kind.NEWAXIS or (item.kind is Kind.SLICE and slice_bounds(
        item.value, parsed.shape[item.dim]) == (0, 1, parsed.shape[item.dim])) for item in parsed.items)


def check_gather_operand(x: Any) -> None:
    """JAX's ``ValueError`` for an operand of a gather or scatter (an indexing that does not slice, ``take``, an
    ``.at[]`` update) typed unreduced or reduced over mesh axes."""
    aval = get_aval(x)
    sharding = getattr(aval, "explicit_sharding", None)
    if sharding is not None and (sharding.spec.unreduced or sharding.spec.reduced):
        raise ValueError("Using *pspec is dangerous when PartitionSpec has non-empty unreduced/reduced set. Please "
                         "use *spec.partitions")


def takes_part(parsed: ParsedIndex) -> bool:
    """Whether the index takes part of a dimension: an integer, a ``jax.ds`` slice, or a slice of another step than
    1 or -1 or that leaves elements out (arrays aside)."""
    for item in parsed.items:
        if item.kind in (Kind.STATIC_INT, Kind.DYNAMIC_SLICE):
            return True
        if item.kind is Kind.SLICE:
            size = parsed.shape[item.dim]
            _, step, count = slice_bounds(item.value, size)
            if abs(step) != 1 or count != size:
                return True
    return False


def is_dynamic_slice(parsed: ParsedIndex) -> bool:
    """Whether one ``dynamic_slice`` does it: no arrays, and every slice of unit step."""
    for item in parsed.items:
        if item.kind is Kind.ARRAY or (item.kind is Kind.DYNAMIC_SLICE and item.value.stride != 1):
            return False
        if item.kind is Kind.SLICE and abs(slice_bounds(item.value, parsed.shape[item.dim])[1]) != 1:
            return False
    return True


def _finish_slicing(x, parsed: ParsedIndex, reversed_dims: list[int], squeezed: list[int]):
    if reversed_dims:
        x = lax_structural.rev(x, tuple(reversed_dims))
    if squeezed:
        x = lax_structural.squeeze(x, tuple(squeezed))
    return _insert_new_axes(x, [k for k, item in enumerate(_output_items(parsed)) if item.kind is Kind.NEWAXIS])


def _output_items(parsed: ParsedIndex) -> list[Item]:
    """The items that leave a dimension in a sliced result, in order (integers leave none)."""
    return [item for item in parsed.items if item.kind in (Kind.NEWAXIS, Kind.SLICE, Kind.DYNAMIC_SLICE)]


def _insert_new_axes(x, new_axes: list[int]):
    if not new_axes:
        return x
    kept = get_aval(x).shape
    ndim = len(kept) + len(new_axes)
    dims = [d for d in range(ndim) if d not in new_axes]
    shape = [1] * ndim
    for d, size in zip(dims, kept):
        shape[d] = size
    return lax_structural.broadcast_in_dim(x, tuple(shape), tuple(dims))


def static_slice(x, parsed: ParsedIndex, wrap: bool = True):
    """``x[index]`` with ``slice``: strided windows, reversed for negative steps, integers squeezed (negative ones
    counted from the end with ``wrap``; clamped into bounds)."""
    shape = parsed.shape
    starts, limits, strides, reversed_dims, squeezed = [0] * len(shape), list(shape), [1] * len(shape), [], []
    for item in parsed.items:
        if item.kind is Kind.NEWAXIS:
            continue
        size = shape[item.dim]
        if item.kind is Kind.STATIC_INT:
            starts[item.dim] = _static_start(item.value, size, wrap)
            limits[item.dim] = starts[item.dim] + 1
            squeezed.append(item.dim)
            continue
        if item.value == slice(None):  # whole (also symbolic) dimensions
            start, stop, step = 0, size, 1
        else:
            start, stop, step = item.value.indices(size)
        if step > 0:
            starts[item.dim], limits[item.dim] = start, max(start, stop)
        else:  # the same elements in increasing order, reversed afterwards
            count = len(range(start, stop, step))
            starts[item.dim] = start + (count - 1) * step if count else stop + 1
            limits[item.dim] = start + 1 if count else stop + 1
            reversed_dims.append(item.dim)
        strides[item.dim] = abs(step)
    if starts != [0] * len(shape) or limits != list(shape) or any(s != 1 for s in strides):
        x = lax_slicing.slice(x, starts, limits, None if all(s == 1 for s in strides) else strides)
    return _finish_slicing(x, parsed, reversed_dims, squeezed)


def _int32_start(value):
    """A start index of ``dynamic_slice``: int32 (JAX converts traced ones, weak ones included)."""
    if isinstance(value, int):
        return np.asarray(value, np.int32)
    aval = get_aval(value)
    if aval.dtype != np.int32 or aval.weak_type:
        return lax_structural.convert_element_type(value, np.int32)
    return value


def dynamic_slice(x, parsed: ParsedIndex, wrap: bool = True):
    """``x[index]`` with one ``dynamic_slice`` (negative starts wrapped with ``wrap``, then clamped into bounds)."""
    shape = parsed.shape
    starts, sizes, reversed_dims, squeezed = [np.asarray(0, np.int32)] * len(shape), list(shape), [], []
    for item in parsed.items:
        if item.kind is Kind.NEWAXIS:
            continue
        if item.kind in (Kind.STATIC_INT, Kind.TRACED_INT):
            # JAX's fast path for one traced integer into a 1-D array hands it to dynamic_slice as it is (which
            # tests it for negativity in its own dtype); other indices are made int32 first
            one_dim = len(shape) == 1 and item.kind is Kind.TRACED_INT
            starts[item.dim] = item.value if one_dim else _int32_start(item.value)
            sizes[item.dim] = 1
            squeezed.append(item.dim)
            continue
        if item.kind is Kind.DYNAMIC_SLICE:
            # a static start stays a Python int on a 1-D operand (wrapped by dynamic_slice on the host)
            start = item.value.start
            starts[item.dim] = start if len(shape) == 1 else _int32_start(
                operator.index(start) if _is_static_int(start) else start)
            sizes[item.dim] = item.value.size
            continue
        start, step, count = slice_bounds(item.value, shape[item.dim])
        starts[item.dim] = np.asarray(start if step > 0 else (start - count + 1 if count else 0), np.int32)
        sizes[item.dim] = count
        if step < 0:
            reversed_dims.append(item.dim)
    x = lax_slicing.dynamic_slice(x, starts, sizes, allow_negative_indices=wrap)
    return _finish_slicing(x, parsed, reversed_dims, squeezed)


# ---------------------------------------------------------------- gather


@dataclasses.dataclass
class GatherPlan:
    """A gather (or scatter) equivalent to the index: its index array, dimension numbers and what follows."""

    indices: Any
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    slice_sizes: tuple[int, ...]
    gather_shape: tuple[int, ...]  # the gather's result shape
    reversed_dims: tuple[int, ...]  # dimensions of the gather's result to reverse (negative-step slices)
    new_axes: tuple[int, ...]  # positions of ``None`` in the final result
    sorted_unique: bool  # no advanced index: the indices are sorted and unique

    @property
    def gather_dimension_numbers(self) -> lax_slicing.GatherDimensionNumbers:
        return lax_slicing.GatherDimensionNumbers(self.offset_dims, self.collapsed_slice_dims, self.start_index_map)

    @property
    def scatter_dimension_numbers(self) -> lax_slicing.ScatterDimensionNumbers:
        return lax_slicing.ScatterDimensionNumbers(self.offset_dims, self.collapsed_slice_dims, self.start_index_map)

    @property
    def result_shape(self) -> tuple[int, ...]:
        """The shape of ``x[index]``: the gather's with the new axes inserted."""
        shape = list(self.gather_shape)
        for axis in self.new_axes:
            shape.insert(axis, 1)
        return tuple(shape)


def index_dtype(shape: tuple[int, ...]) -> np.dtype:
    """int32 unless a dimension is too large for it."""
    big = any(type(d) is int and d > np.iinfo(np.int32).max for d in shape)  # symbolic sizes count as small
    return np.dtype(np.int64 if big and dtypes.canonicalize_dtype(np.int64) == np.int64 else np.int32)


def wrap_negative(index, size: int, keep_weak_type: bool = True):
    """``index + size`` where ``index < 0``, staged in the index's own dtype (a NumPy index's test is made now);
    without ``keep_weak_type`` the size added is strongly typed, so a weakly typed index comes out strong."""
    if isinstance(index, np.ndarray):
        if not np.issubdtype(index.dtype, np.signedinteger):
            return index
        return lax_structural.select_n(index < 0, index, lax_elementwise.add(index, np.asarray(size, index.dtype)))
    dtype = get_aval(index).dtype
    if np.issubdtype(dtype, np.unsignedinteger):
        return index
    added = _scalar(size, index) if keep_weak_type else np.asarray(size, dtype)
    return lax_structural.select_n(lax_elementwise.lt(index, _scalar(0, index)), index,
                                   lax_elementwise.add(index, added))


def _scalar(value: int, like) -> Any:
    """``value`` as a literal of ``like``'s dtype and weak type."""
    aval = get_aval(like)
    return lax_structural.convert_keeping_weak_type(np.asarray(value, aval.dtype), aval.dtype, aval.weak_type)


def _to_dtype(x, dtype: np.dtype):
    aval = get_aval(x)
    if aval.dtype == dtype and not aval.weak_type:
        return x
    return lax_structural.convert_element_type(x, dtype)


def _wrapped(index, size: int, dtype: np.dtype, wrap_negative_indices: bool, is_array: bool):
    """A traced or array index made nonnegative; unsigned ones need no wrapping (JAX converts them first). As
    JAX's, an index array is wrapped by a strongly typed size (a weakly typed one comes out strong), a traced
    scalar keeps its weak type."""
    if not isinstance(index, np.ndarray) and np.issubdtype(get_aval(index).dtype, np.unsignedinteger):
        return _to_dtype(index, dtype)
    return wrap_negative(index, size, keep_weak_type=not is_array) if wrap_negative_indices else index


def _broadcast_shapes(shapes: list[tuple[int, ...]]) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={list(shapes)}") from None


def _dynamic_slice_start(dslice: Slice, dtype: np.dtype):
    """The start of a ``jax.ds`` slice in a gather or scatter, in the index dtype and not wrapped (as JAX's); a
    traced start of a strided slice is copied first, as JAX stages it."""
    if _is_static_int(dslice.start):
        return np.asarray(dslice.start, dtype)
    start = dslice.start if dslice.stride == 1 else copy_p.bind(dslice.start)
    return _to_dtype(start, dtype)


def _symbolic_start(start: Any, step: int, dtype: np.dtype) -> Any:
    """A symbolic slice start as a staged value of the index dtype (copied for a strided slice, as JAX stages
    it)."""
    value = lax_structural.convert_element_type(start, dtype) if step == 1 else \
        lax_structural.convert_element_type(copy_p.bind(start), dtype)
    return value


def gather_plan(parsed: ParsedIndex, wrap_negative_indices: bool = True) -> GatherPlan:
    """The gather of ``x[index]`` (see the module's docstring)."""
    shape = parsed.shape
    dtype = index_dtype(shape)
    items = parsed.items
    advanced = [k for k, item in enumerate(items)
                if parsed.has_arrays and item.kind in (Kind.ARRAY, Kind.STATIC_INT, Kind.TRACED_INT)]
    contiguous = advanced == list(range(advanced[0], advanced[-1] + 1)) if advanced else True

    # Every array and traced index is wrapped first, in order; each is converted to the index dtype (advanced
    # ones broadcast together first) where the walk below reaches it, as JAX stages them.
    wrapped: dict[int, Any] = {}
    for k, item in enumerate(items):
        size = shape[item.dim] if item.dim is not None else 0
        if k in advanced and item.kind is Kind.STATIC_INT:
            value = item.value + size if item.value < 0 and wrap_negative_indices else item.value
            # a NumPy integer is a strongly typed scalar; a Python int a weak one
            wrapped[k] = np.asarray(value, dtypes.canonicalize_dtype(item.numpy_dtype)) if item.numpy_dtype \
                else value
        elif item.kind in (Kind.ARRAY, Kind.TRACED_INT):
            wrapped[k] = _wrapped(item.value, size, dtype, wrap_negative_indices, item.kind is Kind.ARRAY)
    advanced_shape = _broadcast_shapes([np.shape(wrapped[k]) if isinstance(wrapped[k], int)
                                        else get_aval(wrapped[k]).shape for k in advanced]) if advanced else ()

    def advanced_indices() -> dict[int, Any]:
        """The advanced indices broadcast together, then converted to the index dtype."""
        values = {}
        for k in advanced:
            value = wrapped[k]
            value_shape = () if isinstance(value, int) else get_aval(value).shape
            if value_shape != advanced_shape:
                value = lax_structural.broadcast_in_dim(value, advanced_shape, tuple(range(
                    len(advanced_shape) - len(value_shape), len(advanced_shape))))
            values[k] = value
        return {k: _to_dtype(value, dtype) for k, value in values.items()}

    components: list[tuple[Any, tuple[int, ...]]] = []
    batch_sizes: list[int] = []
    offset_dims, collapsed, start_map, reversed_dims, new_axes = [], [], [], [], []
    slice_sizes: dict[int, int] = {}  # operand dimension -> its extent in the gathered slices
    gather_dim = 0  # position in the gather's result
    final_dim = 0  # position in the final result (new axes included)
    advanced_batch: tuple[int, ...] = ()

    advanced_values: dict[int, Any] = {}

    def place_advanced() -> None:
        nonlocal gather_dim, final_dim, advanced_batch
        advanced_values.update(advanced_indices())
        advanced_batch = tuple(range(len(batch_sizes), len(batch_sizes) + len(advanced_shape)))
        batch_sizes.extend(advanced_shape)
        gather_dim += len(advanced_shape)
        final_dim += len(advanced_shape)

    def index_dimension(dim: int, value, batch_dims: tuple[int, ...]) -> None:
        components.append((value, batch_dims))
        collapsed.append(dim)
        start_map.append(dim)
        slice_sizes[dim] = 1

    if advanced and not contiguous:
        # NumPy puts the dimensions of separated advanced indices first; JAX also indexes with them first
        place_advanced()
        for k in advanced:
            index_dimension(items[k].dim, advanced_values[k], advanced_batch)
    for k, item in enumerate(items):
        if k in advanced:
            if contiguous:
                if k == advanced[0]:
                    place_advanced()
                index_dimension(item.dim, advanced_values[k], advanced_batch)
        elif item.kind is Kind.NEWAXIS:
            new_axes.append(final_dim)
            final_dim += 1
        elif item.kind is Kind.STATIC_INT:
            size = shape[item.dim]
            value = item.value + size if item.value < 0 and wrap_negative_indices else item.value
            index_dimension(item.dim, np.asarray(value, dtype), ())
        elif item.kind is Kind.TRACED_INT:
            index_dimension(item.dim, _to_dtype(wrapped[k], dtype), ())
        else:
            if item.kind is Kind.DYNAMIC_SLICE:
                start, step, count = _dynamic_slice_start(item.value, dtype), item.value.stride, item.value.size
            else:
                start, step, count = slice_bounds(item.value, shape[item.dim])
                start = _symbolic_start(start, step, dtype) if is_symbolic_dim(start) else np.asarray(start, dtype)
            if step == 1:
                if not (isinstance(start, np.ndarray) and start == 0 and count == shape[item.dim]):
                    components.append((start, ()))
                    start_map.append(item.dim)
                slice_sizes[item.dim] = count
                offset_dims.append(gather_dim)
            else:
                positions = lax_elementwise.add(start, lax_elementwise.mul(
                    np.asarray(step, dtype), lax_structural.iota(dtype, count)))
                if step < 0:
                    positions = lax_structural.rev(positions, (0,))
                    reversed_dims.append(gather_dim)
                index_dimension(item.dim, positions, (len(batch_sizes),))
                batch_sizes.append(count)
            gather_dim += 1
            final_dim += 1

    batch_shape = tuple(batch_sizes)
    if components:
        columns = [lax_structural.broadcast_in_dim(value, batch_shape + (1,), dims) for value, dims in components]
        indices = columns[0] if len(columns) == 1 else lax_structural.concatenate(columns, len(batch_shape))
    else:
        indices = np.zeros(batch_shape + (0,), dtype)
    offsets = iter(slice_sizes[d] for d in range(len(shape)) if d not in collapsed)
    batches = iter(batch_shape)
    gather_shape = tuple(next(offsets) if d in offset_dims else next(batches) for d in range(gather_dim))
    return GatherPlan(indices, tuple(offset_dims), tuple(sorted(collapsed)), tuple(start_map),
                      tuple(slice_sizes[d] for d in range(len(shape))), gather_shape, tuple(reversed_dims),
                      tuple(new_axes), not advanced)
