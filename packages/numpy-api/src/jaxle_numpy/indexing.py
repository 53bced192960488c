"""NumPy indexing of arrays and tracers (``x[index]``) and the ``.at[]`` updates.

The plan of an index (slice, dynamic slice or gather) is made by ``jaxle_numpy.indexer``; this module applies it to
read (``getitem``, ``x.at[index].get()``) and to update (``scatter`` for ``.at[index].set/add/...``).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.config import config
from jaxle_core.extended import ExtendedArray
from jaxle_core.lax import placement
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.mesh import PartitionSpec, get_abstract_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import checked_out_sharding, spec_of
from jaxle_numpy import indexer, ufuncs
from jaxle_numpy.creation import asarray
from jaxle_numpy.util import check_arraylike, ensure_array, promote_dtypes, staged_when_converted

__all__: list[str] = []


def rewriting_take(x, index, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
                   fill_value=None, wrap_negative_indices: bool = True, out_sharding=None):
    """``x[index]``: slices where they do, else one gather (out-of-bounds indices clamped unless ``mode`` says;
    computed whole on every device, then laid out as ``out_sharding``, when that is given; a slice ignores it, as
    JAX's does, once it is checked)."""
    if out_sharding is not None:
        placement.reshard_target(out_sharding)
    parsed = indexer.parse_index(index, get_aval(x).shape)
    if mode is None and config.jax_check_static_indices:
        indexer.check_static_indices(parsed, wrap_negative_indices)
    # an array over several devices takes a part of itself by gather, as JAX's (a slice would keep its layout)
    sliced = not (_over_devices(x) and indexer.takes_part(parsed))
    if sliced and not parsed.inserted_axes and not indexer.needs_gather_for_symbolic_shape(parsed):
        slices, clip = _slicing_mode(mode)
        # with another mode, JAX slices only an index that selects everything (new axes aside)
        if indexer.is_static(parsed, clip, wrap_negative_indices) and (slices or indexer.selects_everything(parsed)):
            return indexer.static_slice(x, parsed, wrap_negative_indices)
        if slices and indexer.is_dynamic_slice(parsed):
            return indexer.dynamic_slice(x, parsed, wrap_negative_indices)
    if out_sharding is not None:
        x, index = _replicated(x, index)
        parsed = indexer.parse_index(index, get_aval(x).shape)
    indexer.check_gather_operand(x)
    plan = indexer.gather_plan(parsed, wrap_negative_indices)
    if parsed.inserted_axes:
        x = _insert_operand_axes(x, parsed)
    if 0 in plan.gather_shape:
        # nothing to gather: JAX stages zeros of the result's shape (from an empty operand, a non-empty result is
        # gather's error)
        y = lax_structural.broadcast_in_dim(np.zeros((), get_aval(x).dtype), plan.gather_shape, ())
    else:
        y = lax_slicing.gather(x, plan.indices, plan.gather_dimension_numbers, plan.slice_sizes,
                               unique_indices=unique_indices or plan.sorted_unique,
                               indices_are_sorted=indices_are_sorted or plan.sorted_unique,
                               mode=lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS if mode is None else mode,
                               fill_value=fill_value)
    if plan.reversed_dims:
        y = lax_structural.rev(y, plan.reversed_dims)
    y = _with_new_axes(y, plan)
    return y if out_sharding is None else placement.reshard(y, out_sharding)


def _slicing_mode(mode) -> tuple[bool, bool]:
    """Whether JAX reads an index in ``mode`` by slicing where it can (the default, ``promise_in_bounds`` and
    ``clip``, whatever the fill value), and whether its static integers are clamped into bounds (``clip``)."""
    if mode is None:
        return True, False
    try:
        parsed = lax_slicing.GatherScatterMode.from_any(mode)
    except ValueError:  # the gather names the unknown mode
        return False, False
    clip = parsed is lax_slicing.GatherScatterMode.CLIP
    return clip or parsed is lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS, clip


def _over_devices(x) -> bool:
    """Whether ``x`` is an array (not a tracer, nor an array of keys) over several devices (an uncommitted one is on
    one device: its sharding, slower to read, is left unread)."""
    if not isinstance(x, Array) or isinstance(x, ExtendedArray) or not getattr(x, "committed", False):
        return False
    sharding = getattr(x, "sharding", None)
    return sharding is not None and len(sharding.device_set) > 1


def _replicated(x, index, *values):
    """``x``, the arrays in ``index`` and ``values`` laid out whole on every device: how JAX computes an indexing
    given an ``out_sharding`` (the result is then laid out as asked)."""
    whole = PartitionSpec()
    x = placement.reshard(x, whole)
    values = tuple(placement.reshard(v, whole) for v in values)
    items = tuple(placement.reshard(item, whole) if _is_array(item) else item
                  for item in (index if isinstance(index, tuple) else (index,)))
    return (x, items if isinstance(index, tuple) else items[0], *values)


def _is_array(item) -> bool:
    return isinstance(item, np.ndarray) or isinstance(getattr(item, "aval", None), ShapedArray)


def _insert_operand_axes(x, parsed: indexer.ParsedIndex):
    kept = [d for d in range(len(parsed.shape)) if d not in parsed.inserted_axes]
    return lax_structural.broadcast_in_dim(x, parsed.shape, tuple(kept))


def _with_new_axes(y, plan: indexer.GatherPlan):
    # JAX ends a gather with this broadcast, the identity when there are no new axes: staging forwards it, and
    # eagerly it runs (laying the data of keys out anew, as the gathered keys are laid out)
    dims = tuple(d for d in range(len(plan.result_shape)) if d not in plan.new_axes)
    return lax_structural.broadcast_in_dim(y, plan.result_shape, dims)


def getitem(x, index):
    """``x[index]`` with every NumPy index form JAX accepts."""
    return rewriting_take(x, index)


# ---------------------------------------------------------------- .at[] updates


def _broadcast_update(y, shape: tuple[int, ...], layout: NamedSharding | None):
    """``y`` broadcast to the indexed slice's shape, with JAX's errors; laid out as ``layout`` when the operand's
    type has one (a replicated ``y`` of that shape is resharded)."""
    aval = get_aval(y)
    if aval.shape == tuple(shape):
        current = spec_of(aval)
        if layout is None or current == tuple(layout.spec):
            return _onto_context_mesh(y)
        if not any(current):
            return placement.reshard(y, layout)
        _incompatible(aval, aval.update(sharding=layout))
    if aval.ndim > len(shape):
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    lead = len(shape) - aval.ndim
    if any(s not in (1, t) for s, t in zip(aval.shape, shape[lead:])):
        _incompatible(aval, aval.update(shape=tuple(shape), sharding=layout))
    return lax_structural.broadcast_in_dim(y, tuple(shape), tuple(range(lead, len(shape))), out_sharding=layout)


def _onto_context_mesh(y):
    """``y`` as JAX's broadcast of updates already of the slice's shape leaves it: under ``set_mesh``, an eager array
    typed over another mesh (or none) is resharded onto the context mesh (one on other devices refused there)."""
    mesh = get_abstract_mesh()
    if isinstance(y, Array) and not mesh.empty and get_aval(y).sharding.mesh != mesh:
        return placement.reshard(y, PartitionSpec())
    return y


def _incompatible(aval, requested) -> None:
    raise ValueError(f"Incompatible types for broadcasting: input type={aval.update(weak_type=False).str_short()} "
                     f"and requested type={requested.update(weak_type=False).str_short()}")


def _update_layout(x_aval, parsed: indexer.ParsedIndex, plan: indexer.GatherPlan) -> NamedSharding | None:
    """How the updates of a scatter into ``x`` must be laid out (before the plan drops its new axes): each window
    dimension as the operand's dimension it covers, the others as the indices' dimensions they follow; None when
    ``x``'s type has no layout."""
    sharding = x_aval.explicit_sharding
    if sharding is None:
        return None
    operand = list(sharding.spec)
    for axis in parsed.inserted_axes:
        operand.insert(axis, None)
    dn = plan.scatter_dimension_numbers
    skipped = set(dn.inserted_window_dims) | set(dn.operand_batching_dims)
    window = iter([e for d, e in enumerate(operand) if d not in skipped])
    batch = iter(spec_of(get_aval(plan.indices))[:-1])
    update_ndim = len(plan.result_shape) - len(plan.new_axes)
    entries = [next(window) if d in dn.update_window_dims else next(batch) for d in range(update_ndim)]
    for axis in plan.new_axes:
        entries.insert(axis, None)
    return NamedSharding(sharding.mesh, PartitionSpec(*entries))


_SCATTERS = {"set": lax_slicing.scatter, "add": lax_slicing.scatter_add, "sub": lax_slicing.scatter_sub,
             "mul": lax_slicing.scatter_mul, "min": lax_slicing.scatter_min, "max": lax_slicing.scatter_max}


def scatter_update(x, index, y, kind: str, *, indices_are_sorted: bool = False, unique_indices: bool = False,
                   mode=None, wrap_negative_indices: bool = True, out_sharding=None):
    """``x`` with ``y`` combined into ``x[index]`` by the scatter ``kind`` (set, add, sub, mul, min, max); computed
    whole on every device, then laid out as ``out_sharding``, when that is given."""
    if isinstance(y, (list, tuple)):
        y = asarray(y)  # JAX makes a sequence of updates one array (traced entries stacked)
    check_arraylike(f"scatter_{kind}", x, y)
    key_dtype = get_aval(x).dtype if dtypes.is_extended(get_aval(x).dtype) else None
    if key_dtype is not None and isinstance(y, int):  # met by JAX's check of an integer update against x's dtype
        raise TypeError(f"Cannot interpret '{key_dtype}' as a data type")
    if out_sharding is not None:
        placement.reshard_target(out_sharding)
        x, index, y = _replicated(x, index, y)
        out = scatter_update(x, index, y, kind, indices_are_sorted=indices_are_sorted, unique_indices=unique_indices,
                             mode=mode, wrap_negative_indices=wrap_negative_indices)
        return placement.reshard(out, out_sharding)
    y = staged_when_converted(ensure_array(y))  # made an array before the indices are read, as JAX's
    x_aval = get_aval(x)
    parsed = indexer.parse_index(index, x_aval.shape)
    if key_dtype is not None and get_aval(y).dtype != key_dtype:  # JAX promotes the update against the bare dtype
        raise TypeError(f"Cannot determine dtype of {key_dtype}")
    indexer.check_gather_operand(x)
    plan = indexer.gather_plan(parsed, wrap_negative_indices)
    if 0 in plan.result_shape:
        return x  # nothing to update (JAX stages the indices all the same)
    result_dtype = dtypes.result_type(x, y)
    if result_dtype != x_aval.dtype and not dtypes.issubdtype(result_dtype, x_aval.dtype):
        warnings.warn(f"scatter inputs have incompatible types: cannot safely cast value from "
                      f"dtype={get_aval(y).dtype} to dtype={x_aval.dtype} with jax_numpy_dtype_promotion=standard. "
                      "In future JAX releases this will result in an error.", FutureWarning, stacklevel=4)
    x, y = promote_dtypes(x, y)
    x_promoted = get_aval(x)
    if x_aval.weak_type and x_promoted.weak_type and (dtypes.issubdtype(x_promoted.dtype, np.integer)
                                                      or x_promoted.dtype == np.bool_):
        # JAX scatters into a weakly typed integer (or boolean) operand as a strong one, with a strong update, and
        # makes the result weak again below (an operand made weak only by promotion is scattered as it is)
        x = lax_structural.convert_element_type(x, x_promoted.dtype)
        y = lax_structural.convert_element_type(y, x_promoted.dtype)
    y = _broadcast_update(y, plan.result_shape, _update_layout(x_aval, parsed, plan))
    if plan.new_axes or isinstance(y, Array):
        from jaxle_numpy.manipulation import squeeze  # noqa: PLC0415 - manipulation builds on indexing
        # by jnp.squeeze, also with no axes, as JAX's: its parameter names an eager array on other devices
        y = squeeze(y, plan.new_axes)
    if plan.reversed_dims:
        y = lax_structural.rev(y, plan.reversed_dims)
    if parsed.inserted_axes:
        x = _insert_operand_axes(x, parsed)
    out = _SCATTERS[kind](x, plan.indices, y, plan.scatter_dimension_numbers,
                          indices_are_sorted=indices_are_sorted or plan.sorted_unique,
                          unique_indices=unique_indices or plan.sorted_unique, mode=mode)
    if parsed.inserted_axes:
        out = lax_structural.squeeze(out, parsed.inserted_axes)
    out_aval = get_aval(out)
    if dtypes.issubdtype(out_aval.dtype, np.complexfloating) and not dtypes.issubdtype(x_aval.dtype,
                                                                                         np.complexfloating):
        warnings.warn("Casting complex values to real discards the imaginary part", np.exceptions.ComplexWarning,
                      stacklevel=4)
    if out_aval.dtype != x_aval.dtype or out_aval.weak_type != x_aval.weak_type:
        out = lax_structural.convert_keeping_weak_type(out, x_aval.dtype, x_aval.weak_type)
    return out


def scatter_apply(x, index, func: Callable, *, indices_are_sorted: bool = False, unique_indices: bool = False,
                  mode=None, wrap_negative_indices: bool = True):
    """``x`` with ``func`` applied to the elements ``index`` selects (once per occurrence of an index)."""
    x_aval = get_aval(x)
    # JAX makes (unused) zero updates first (keys of zero data are staged) and scatter_apply makes its own
    dtype = x_aval.dtype
    zero = dtype.full((), 0) if isinstance(dtype, dtypes.ExtendedDType) else np.zeros((), dtype)
    plan = indexer.gather_plan(indexer.parse_index(index, x_aval.shape), wrap_negative_indices)
    if 0 in plan.result_shape:
        return x  # nothing to update (JAX stages the indices all the same)
    update_shape = tuple(s for d, s in enumerate(plan.result_shape) if d not in plan.new_axes)
    lax_structural.broadcast_in_dim(zero, update_shape, ())
    return lax_slicing.scatter_apply(x, plan.indices, func, plan.scatter_dimension_numbers,
                                     update_shape=update_shape,
                                     indices_are_sorted=indices_are_sorted or plan.sorted_unique,
                                     unique_indices=unique_indices or plan.sorted_unique, mode=mode)


class _IndexUpdateHelper:
    """``x.at``: indexing it gives the reference whose methods update ``x[index]`` out of place."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, index) -> _IndexUpdateRef:
        return _IndexUpdateRef(self.array, index)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self.array!r})"


# The names JAX's refusals of an update's ``out_sharding`` give its method, by scatter kind.
_METHOD_NAMES = {"set": ".set", "add": ".add", "sub": ".subtract", "mul": ".multiply", "min": ".min", "max": ".max"}


class _IndexUpdateRef:
    """``x.at[index]``: ``get`` and the out-of-place updates of ``x[index]``."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self.array!r}, {self.index!r})"

    def get(self, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None, fill_value=None,
            out_sharding=None, wrap_negative_indices: bool = True):
        """``x[index]``, with the gather's out-of-bounds ``mode`` and ``fill_value``."""
        checked_out_sharding(out_sharding, ".get")
        return rewriting_take(self.array, self.index, indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode, fill_value=fill_value,
                              wrap_negative_indices=wrap_negative_indices, out_sharding=out_sharding)

    def _update(self, kind: str, values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                out_sharding):
        checked_out_sharding(out_sharding, _METHOD_NAMES[kind])
        return scatter_update(self.array, self.index, values, kind, indices_are_sorted=indices_are_sorted,
                              unique_indices=unique_indices, mode=mode, wrap_negative_indices=wrap_negative_indices,
                              out_sharding=out_sharding)

    def set(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
            out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] = values``."""
        return self._update("set", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                            out_sharding)

    def add(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
            out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] += values`` (repeated indices accumulate)."""
        return self._update("add", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                            out_sharding)

    def subtract(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
                 out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] -= values``."""
        return self._update("sub", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                            out_sharding)

    def multiply(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
                 out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] *= values``."""
        return self._update("mul", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                            out_sharding)

    mul = multiply

    def min(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
            out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] = minimum(x[index], values)``."""
        return self._update("min", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                            out_sharding)

    def max(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
            out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] = maximum(x[index], values)``."""
        return self._update("max", values, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                            out_sharding)

    def _combined(self, values, combine: Callable, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                  out_sharding):
        """``combine(x, ones.at[index].multiply(values, out_sharding=))``: how JAX divides and raises to a power in
        place (the ones laid out as ``x``, so the result takes its layout from both)."""
        aval = get_aval(self.array)
        ones = lax_structural.broadcast_in_dim(np.ones((), aval.dtype), aval.shape, (),
                                               out_sharding=aval.explicit_sharding)
        factors = scatter_update(ones, self.index, values, "mul", indices_are_sorted=indices_are_sorted,
                                 unique_indices=unique_indices, mode=mode,
                                 wrap_negative_indices=wrap_negative_indices, out_sharding=out_sharding)
        return combine(self.array, factors)

    def divide(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
               out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] /= values``."""
        checked_out_sharding(out_sharding, ".divide")
        return self._combined(values, ufuncs.divide, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                              out_sharding)

    def power(self, values, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
              out_sharding=None, wrap_negative_indices: bool = True):
        """``x`` with ``x[index] **= values``."""
        checked_out_sharding(out_sharding, ".power")
        return self._combined(values, ufuncs.power, indices_are_sorted, unique_indices, mode, wrap_negative_indices,
                              out_sharding)

    def apply(self, func: Callable, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode=None,
              wrap_negative_indices: bool = True):
        """``x`` with ``x[index] = func(x[index])``, ``func`` applied elementwise once per index."""
        return scatter_apply(self.array, self.index, func, indices_are_sorted=indices_are_sorted,
                             unique_indices=unique_indices, mode=mode, wrap_negative_indices=wrap_negative_indices)


def at(x) -> _IndexUpdateHelper:
    """The ``.at`` property of arrays and tracers."""
    return _IndexUpdateHelper(x)
