"""Index-driven selection and placement: take, take_along_axis, put, place, compress, extract, choose, select,
piecewise, nonzero, argwhere, flatnonzero, fill_diagonal, ravel_multi_index, unravel_index, packbits, unpackbits."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.avals import get_aval
from jaxle_core.backend import current_backend
from jaxle_core.core import Tracer
from jaxle_core.errors import ConcretizationTypeError
from jaxle_core.jit import jit
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import identity as lax_identity
from jaxle_core.lax import reductions as lax_reductions
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.control_flow import conditionals as lax_conditionals
from jaxle_numpy import creation, cumulative, indexer, indexing, manipulation, reductions, sorting, ufuncs, vectorize
from jaxle_numpy.conditional import where
from jaxle_numpy.util import (
    canonicalize_axis,
    check_arraylike,
    check_jitted_arguments,
    check_scalar_arraylike,
    optional_index,
    promote_dtypes,
)

__all__ = ["take", "take_along_axis", "put_along_axis", "put", "place", "compress", "extract", "choose", "select",
           "piecewise", "nonzero", "argwhere", "flatnonzero", "fill_diagonal", "ravel_multi_index", "unravel_index",
           "packbits", "unpackbits"]


def _asarray(x: Any) -> Any:
    """``x`` as an array or tracer, as ``jnp.asarray`` makes it (Python scalars stay literals of the trace)."""
    return creation.asarray(x)


def _concrete(x: Any) -> np.ndarray:
    """The value of ``x``; JAX's ConcretizationTypeError for a tracer."""
    if isinstance(x, Tracer):
        raise x._concretization_error("numpy", "The value is needed on the host: give a static size where the "
                                      "function takes one, or compute outside the trace.")
    return np.asarray(x)


def _take_body(a, indices, axis: int | None = None, mode: str | None = None, unique_indices: bool = False,
               indices_are_sorted: bool = False, fill_value=None):
    indexer.check_gather_operand(a)
    if axis is None:
        a, axis = manipulation.ravel(a), 0
    a_aval, index_aval = get_aval(a), get_aval(indices)
    axis = canonicalize_axis(axis, a_aval.ndim)
    size = a_aval.shape[axis]
    if mode is None or mode == "fill":
        gather_mode = lax_slicing.GatherScatterMode.FILL_OR_DROP
        indices = where(lax_elementwise.lt(indices, _like(0, indices)), lax_elementwise.add(
            indices, _like(size, indices)), indices)
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    elif mode == "wrap":
        gather_mode = lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS
        indices = ufuncs.remainder(indices, np.asarray(size, index_aval.dtype))
    elif mode == "clip":
        gather_mode = lax_slicing.GatherScatterMode.CLIP
    else:
        raise ValueError(f"Invalid mode '{mode}' for np.take")
    if size == 0:  # JAX's rule, its quirk included: an empty take from an empty axis returns the operand itself
        if index_aval.size:
            raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
        return a
    out_shape = a_aval.shape[:axis] + index_aval.shape + a_aval.shape[axis + 1:]
    if not math.prod(out_shape):
        return lax_structural.broadcast_in_dim(np.zeros((), a_aval.dtype), out_shape, ())
    index_ndim = index_aval.ndim
    indices = lax_structural.broadcast_in_dim(indices, index_aval.shape + (1,), tuple(range(index_ndim)))
    offset_dims = tuple(range(axis)) + tuple(range(axis + index_ndim, a_aval.ndim + index_ndim - 1))
    dnums = lax_slicing.GatherDimensionNumbers(offset_dims, (axis,), (axis,))
    slice_sizes = tuple(1 if d == axis else s for d, s in enumerate(a_aval.shape))
    return lax_slicing.gather(a, indices, dnums, slice_sizes, unique_indices=unique_indices,
                              indices_are_sorted=indices_are_sorted, mode=gather_mode, fill_value=fill_value)


def _like(value: int, x) -> Any:
    aval = get_aval(x)
    return lax_structural.convert_keeping_weak_type(np.asarray(value, aval.dtype), aval.dtype, aval.weak_type)


_take_body.__name__ = _take_body.__qualname__ = "_take"
_take = jit(_take_body, static_argnames=("axis", "mode", "unique_indices", "indices_are_sorted", "fill_value"))


def take(a, indices, axis: int | None = None, out=None, mode: str | None = None, unique_indices: bool = False,
         indices_are_sorted: bool = False, fill_value=None):
    """Elements of ``a`` at ``indices`` along ``axis`` (flattened when None); out of bounds: NaN/fill by default."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.take is not supported.")
    check_arraylike("take", a, indices)
    return _take(a, indices, axis=optional_index(axis), mode=mode, unique_indices=unique_indices,
                 indices_are_sorted=indices_are_sorted, fill_value=fill_value)


def _take_along_axis_body(arr, indices, axis: int | None, mode=None, fill_value=None):
    indexer.check_gather_operand(arr)
    if axis is None:
        arr, axis = manipulation.ravel(arr), 0
    arr_aval, index_aval = get_aval(arr), get_aval(indices)
    if index_aval.ndim != arr_aval.ndim:
        raise ValueError(f"indices and arr must have the same number of dimensions; {index_aval.ndim} vs. "
                         f"{arr_aval.ndim}")
    axis = canonicalize_axis(axis, arr_aval.ndim)
    size = arr_aval.shape[axis]
    index_dtype = indexer.index_dtype(arr_aval.shape)
    if index_aval.dtype != index_dtype:
        indices = lax_structural.convert_element_type(indices, index_dtype)
    if np.issubdtype(index_dtype, np.signedinteger):
        indices = lax_structural.select_n(lax_elementwise.lt(indices, _like(0, indices)), indices,
                                          lax_elementwise.add(indices, _like(size, indices)))
    # The other dimensions broadcast against each other, as JAX gathers them: a size-1 index dimension takes the
    # whole operand dimension as a slice, a size-1 operand dimension is squeezed out (the index dimension then
    # indexes nothing), and dimensions of equal size are batch dimensions of the gather.
    offset_dims, squeezed, operand_batching, index_batching, kept_index_dims = [], [], [], [], []
    for d, (a_size, i_size) in enumerate(zip(arr_aval.shape, index_aval.shape)):
        if d == axis:
            kept_index_dims.append(d)
        elif i_size == 1:
            offset_dims.append(d)
        elif a_size == 1:
            squeezed.append(d)
            kept_index_dims.append(d)
        elif a_size == i_size:
            operand_batching.append(d - sum(s < d for s in squeezed))
            index_batching.append(len(kept_index_dims))
            kept_index_dims.append(d)
        else:
            arr_shape = tuple(1 if k == axis else n for k, n in enumerate(arr_aval.shape))
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={[index_aval.shape, arr_shape]}")
    indices = lax_structural.reshape(indices, tuple(index_aval.shape[d] for d in kept_index_dims) + (1,))
    if squeezed:
        arr = lax_structural.squeeze(arr, tuple(squeezed))
    operand_axis = axis - sum(s < axis for s in squeezed)
    slice_sizes = tuple(1 if d == axis or d not in offset_dims else arr_aval.shape[d]
                        for d in range(arr_aval.ndim) if d not in squeezed)
    dnums = lax_slicing.GatherDimensionNumbers(tuple(offset_dims), (operand_axis,), (operand_axis,),
                                               tuple(operand_batching), tuple(index_batching))
    return lax_slicing.gather(arr, indices, dnums, slice_sizes,
                              mode="fill" if mode is None else mode, fill_value=fill_value)


_take_along_axis_body.__name__ = _take_along_axis_body.__qualname__ = "take_along_axis"
_take_along_axis = jit(_take_along_axis_body, static_argnames=("axis", "mode", "fill_value"))


def take_along_axis(arr, indices, axis: int | None = -1, mode=None, fill_value=None, *,
                    wrap_negative_indices: bool | None = None):
    """``arr`` gathered along ``axis`` at ``indices`` of the same rank (NumPy's take_along_axis)."""
    del wrap_negative_indices
    check_arraylike("take_along_axis", arr, indices)
    if not np.issubdtype(get_aval(indices).dtype, np.integer):
        raise TypeError(f"take_along_axis indices must be of integer type, got {get_aval(indices).dtype}")
    return _take_along_axis(arr, indices, axis=axis, mode=mode, fill_value=fill_value)


_IMMUTABLE = ("jax.numpy.{} cannot modify arrays in-place, because JAX arrays are immutable. Pass inplace=False to "
              "instead return an updated array.")


def _put_along_axis_body(arr, indices, values, axis: int | None, mode: str | None = None):
    shape = get_aval(arr).shape
    if axis is None:
        arr, axis = manipulation.ravel(arr), 0
    index_shape = get_aval(indices).shape
    values = _broadcast(_asarray(values), index_shape)
    grids = []
    for d, size in enumerate(get_aval(arr).shape):
        grid_shape = tuple(size if k == d else 1 for k in range(get_aval(arr).ndim))
        grids.append(lax_structural.broadcast_in_dim(lax_structural.iota(np.int32, size), grid_shape, (d,)))
    grids[axis] = indices
    out = indexing.scatter_update(arr, tuple(grids), values, "set", mode=mode)
    return out if get_aval(out).shape == shape else lax_structural.reshape(out, shape)


_put_along_axis_body.__name__ = _put_along_axis_body.__qualname__ = "put_along_axis"
_put_along_axis = jit(_put_along_axis_body, static_argnames=("axis", "mode"))


def put_along_axis(arr, indices, values, axis: int | None, inplace: bool = True, *, mode: str | None = None):
    """``arr`` with ``values`` written at ``indices`` along ``axis``; needs ``inplace=False``."""
    if inplace:
        raise ValueError("jax.numpy.put_along_axis cannot modify arrays in-place, because JAX arraysare immutable. "
                         "Pass inplace=False to instead return an updated array.")
    check_arraylike("put_along_axis", arr, indices, values)
    arr, indices = _asarray(arr), _asarray(indices)
    if axis is not None:
        if get_aval(arr).ndim != get_aval(indices).ndim:
            raise ValueError(f"put_along_axis arguments 'arr' and 'indices' must have same ndim. Got arr.ndim="
                             f"{get_aval(arr).ndim} and indices.ndim={get_aval(indices).ndim}.")
        axis = canonicalize_axis(axis, get_aval(arr).ndim)
    return _put_along_axis(arr, indices, values, axis=axis, mode=mode)


def _cycled(values, count: int):
    """``values`` (1-d) repeated and cut to ``count`` elements (NumPy's put and place repeat them)."""
    size = get_aval(values).size
    if size == count:
        return values
    tiled = manipulation.tile(values, -(-count // size))
    return tiled if get_aval(tiled).size == count else lax_slicing.slice(tiled, (0,), (count,))


def put(a, ind, v, mode: str | None = None, *, inplace: bool = True):
    """``a`` with its flat elements at ``ind`` replaced by ``v`` (repeated as needed); needs ``inplace=False``."""
    if inplace:
        raise ValueError(_IMMUTABLE.format("put"))
    check_scalar_arraylike("put", a, ind, v)
    a = _asarray(a)
    ind = manipulation.ravel(_asarray(ind))
    values = manipulation.ravel(_asarray(v))
    size = get_aval(a).size
    if size == 0 or get_aval(ind).size == 0 or get_aval(values).size == 0:
        return a
    values = _cycled(values, get_aval(ind).size)
    if mode is None:
        scatter_mode = None  # unravel_index clips; the scatter keeps its default
    elif mode == "wrap":
        ind, scatter_mode = ufuncs.remainder(ind, size), "promise_in_bounds"
    elif mode == "clip":
        ind, scatter_mode = ufuncs.clip(ind, 0, size - 1), "promise_in_bounds"
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got {mode=}")
    return indexing.scatter_update(a, unravel_index(ind, get_aval(a).shape), values, "set", mode=scatter_mode)


def place(arr, mask, vals, *, inplace: bool = True):
    """``arr`` with the elements where ``mask`` holds replaced by ``vals`` in order (repeated as needed)."""
    if inplace:
        raise ValueError(_IMMUTABLE.format("place"))
    check_scalar_arraylike("place", arr, mask, vals)
    arr = _asarray(arr)
    values = manipulation.ravel(_asarray(vals))  # first, as JAX's: an operand on other devices is named alike
    mask = manipulation.ravel(_asarray(mask))
    size = get_aval(mask).size
    (positions,) = nonzero(mask, size=size, fill_value=size)
    values = _cycled(values, size)
    out = indexing.scatter_update(manipulation.ravel(arr), positions, values, "set", mode="drop")
    return out if get_aval(out).shape == get_aval(arr).shape else lax_structural.reshape(out, get_aval(arr).shape)


def nonzero(a, *, size: int | None = None, fill_value=None) -> tuple[Any, ...]:
    """The indices of ``a``'s nonzero elements, one array per dimension (``size`` fixes their length)."""
    check_scalar_arraylike("nonzero", a)
    a = _asarray(a)
    shape = get_aval(a).shape
    if not shape:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() "
                         "instead.")
    if size is None:
        # JAX counts the nonzero elements first: the count is what must be concrete
        count = int(_concrete(reductions.sum(_nonzero_mask(a))))
        if len(getattr(getattr(a, "sharding", None), "device_set", ())) > 1:  # computed over a's devices, as JAX's
            return _nonzero_sized(a, count, None)
        value = _concrete(a)
        return tuple(current_backend().device_put(i.astype(dtypes.default_int_dtype())) for i in np.nonzero(value))
    return _nonzero_sized(a, size, fill_value)


def _nonzero_mask(a):
    """Where ``a`` is nonzero: ``a`` itself for booleans, else ``a != 0`` (jnp's, as JAX's)."""
    return a if get_aval(a).dtype == np.bool_ else ufuncs.not_equal(a, 0)


def _nonzero_sized(a, size: int, fill_value) -> tuple[Any, ...]:
    """nonzero with a static ``size``, staged as JAX stages it: the running count of nonzero elements, counted
    into ``size`` bins, accumulated again into flat positions, unraveled, and filled past the count."""
    shape = get_aval(a).shape
    mask = _nonzero_mask(a)
    index_dtype = dtypes.default_int_dtype()
    if get_aval(a).size == 0 or size == 0:
        return tuple(lax_structural.broadcast_in_dim(np.zeros((), index_dtype), (size,), ()) for _ in shape)
    running = cumulative.cumsum(mask)
    counts = lax_structural.broadcast_in_dim(np.zeros((), index_dtype), (size,), ())
    counts = indexing.scatter_update(counts, ufuncs.clip(running, 0), np.array(1, index_dtype), "add")
    flat = cumulative.cumsum(counts)
    strides = np.cumprod((1,) + shape[::-1])[::-1][1:]
    coordinates = [ufuncs.remainder(ufuncs.floor_divide(flat, np.array(stride, index_dtype)), dim)
                   for stride, dim in zip(strides, shape)]
    if fill_value is None:
        return tuple(coordinates)
    fills = fill_value if isinstance(fill_value, tuple) else (fill_value,) * len(shape)
    if len(fills) != len(shape):
        raise ValueError(f"safe_zip() argument 1 has length {len(shape)} but argument 0 has length {len(fills)}. "
                         f"All lengths: ({len(fills)}, {len(shape)})")
    positions = lax_structural.iota(index_dtype, size)
    # counted as JAX does: the mask as int32, then summed in the default integer type
    count = lax_structural.convert_element_type(lax_structural.convert_element_type(mask, np.int32), index_dtype)
    count = lax_reductions.reduce_sum(count, tuple(range(len(shape))))
    beyond = lax_elementwise.ge(positions, count)
    return tuple(where(beyond, fill, coordinate) for fill, coordinate in zip(fills, coordinates))


def flatnonzero(a, *, size: int | None = None, fill_value=None):
    """The flat indices of ``a``'s nonzero elements."""
    check_arraylike("flatnonzero", a)
    return nonzero(manipulation.ravel(a), size=size, fill_value=fill_value)[0]


def argwhere(a, *, size: int | None = None, fill_value=None):
    """The indices of ``a``'s nonzero elements, one row per element."""
    check_scalar_arraylike("argwhere", a)
    a = _asarray(a)
    columns = nonzero(manipulation.atleast_1d(a), size=size, fill_value=fill_value)
    rows = lax_structural.transpose(lax_structural.concatenate([manipulation.atleast_2d(c) for c in columns], 0),
                                    (1, 0))
    if get_aval(a).ndim:
        return rows
    # a scalar's positions have no coordinates: JAX cuts the rows and reshapes
    return lax_structural.reshape(indexing.getitem(rows, slice(None, 0)), (get_aval(rows).shape[0], 0))


def compress(condition, a, axis: int | None = None, *, size: int | None = None, fill_value=0, out=None):
    """The slices of ``a`` along ``axis`` where ``condition`` (1-d) holds; ``size`` pads or cuts the result."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
    check_scalar_arraylike("compress", condition, a)
    condition = _asarray(condition)
    if get_aval(condition).dtype != np.bool_:
        condition = lax_structural.convert_element_type(condition, np.bool_)
    a = _asarray(a)
    if get_aval(condition).ndim != 1:
        raise ValueError("condition must be a 1D array")
    if axis is None:
        a, axis = manipulation.ravel(a), 0
    axis = canonicalize_axis(axis, get_aval(a).ndim)
    moved = manipulation.moveaxis(a, axis, 0)
    length = get_aval(moved).shape[0]
    # a True past the end is an error, checked on the staged condition as JAX does (so not under jit)
    beyond = indexing.getitem(condition, slice(length, None))
    if size is None:
        if bool(reductions.any(beyond)):
            raise ValueError("condition contains entries that are out of bounds")
        size = int(np.count_nonzero(_concrete(condition)))
    elif not 0 <= size <= length:
        raise ValueError("size must be positive and not greater than the size of the array axis; got "
                         f"size={size} for a.shape[axis]={length}")
    condition = indexing.getitem(condition, slice(None, length))
    moved = indexing.getitem(moved, slice(None, get_aval(condition).shape[0]))  # a shorter condition selects less
    expanded = indexing.getitem(condition, (slice(None),) + (None,) * (get_aval(moved).ndim - 1))
    fill = lax_structural.convert_element_type(lax_identity.copy_p.bind(_asarray(fill_value)), get_aval(a).dtype)
    filled = where(expanded, moved, fill)
    order = sorting.argsort(condition, descending=True)
    result = indexing.getitem(indexing.getitem(filled, order), slice(None, size))
    return manipulation.moveaxis(result, 0, axis)


def extract(condition, arr, *, size: int | None = None, fill_value=0):
    """The elements of ``arr`` where ``condition`` holds, flattened."""
    check_arraylike("extract", condition, arr)
    condition, arr = manipulation.ravel(condition), manipulation.ravel(arr)  # JAX's ravel refuses a string
    return compress(condition, arr, size=size, fill_value=fill_value)


def choose(a, choices, out=None, mode: str = "raise"):
    """``choices[a[i]][i]`` for every ``i`` (``a`` and the choices broadcast together)."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.choose is not supported.")
    check_scalar_arraylike("choose", a, *choices)
    a = _asarray(a)
    if not np.issubdtype(get_aval(a).dtype, np.integer):
        raise ValueError("`a` array must be integer typed")
    n = len(choices)
    if mode == "raise":
        if not core.evaluates_eagerly([a, *choices]):
            # JAX's choose is jitted: under any transformation its index is abstract, constant or not
            raise ConcretizationTypeError(
                "Abstract tracer value encountered where concrete value is expected: traced array with shape "
                f"{get_aval(a).str_short()}\nThe error occurred because jnp.choose was jit-compiled with "
                "mode='raise'. Use mode='wrap' or mode='clip' instead.")
        # by jnp functions, as JAX's: the first of them names an index array on other devices
        if reductions.any(ufuncs.bitwise_or(ufuncs.less(a, 0), ufuncs.greater_equal(a, n))):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = ufuncs.remainder(a, n)
    elif mode == "clip":
        a = ufuncs.clip(a, 0, n - 1)
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    a, *choices = manipulation.broadcast_arrays(a, *promote_dtypes(*[_asarray(c) for c in choices]))
    shape = get_aval(a).shape
    stacked = lax_structural.concatenate(
        [lax_structural.broadcast_in_dim(c, (1,) + shape, tuple(range(1, len(shape) + 1))) for c in choices], 0)
    # an open grid of positions: one iota per dimension, of size 1 in the others
    grids = []
    for d, size in enumerate(shape):
        grid = lax_structural.iota(np.int32, size)
        grid_shape = tuple(size if k == d else 1 for k in range(len(shape)))
        grids.append(grid if grid_shape == (size,) else lax_structural.broadcast_in_dim(grid, grid_shape, (d,)))
    return indexing.getitem(stacked, (a, *grids))


def _broadcast(x, shape: tuple[int, ...]):
    aval = get_aval(x)
    if aval.shape == tuple(shape):
        return x
    lead = len(shape) - aval.ndim
    return lax_structural.broadcast_in_dim(x, tuple(shape), tuple(range(lead, len(shape))))


def select(condlist: Sequence, choicelist: Sequence, default=0):
    """The element of the first choice whose condition holds, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError(f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})")
    if len(condlist) == 0:
        raise ValueError("condlist must be non-empty")
    conditions = [_asarray(c) for c in condlist]
    values = promote_dtypes(_asarray(default), *[_asarray(c) for c in choicelist])
    # as JAX's: the index of the first true condition (0 for none), the argmax of [False, *conditions] broadcast
    # together, stacked in their common dtype and read as booleans; then that index broadcast with the values (each
    # by jnp.broadcast_arrays, whose parameters, ``args[i]``, name an operand on other devices)
    stacked = lax_structural.stack(promote_dtypes(*manipulation.broadcast_arrays(False, *conditions)), 0)
    if get_aval(stacked).dtype != np.bool_:
        stacked = lax_structural.convert_element_type(stacked, np.bool_)
    which = lax_reductions.argmax(stacked, 0, dtypes.default_int_dtype())
    return lax_structural.select_n(*manipulation.broadcast_arrays(which, *values))


def _piecewise_body(x, condlist, consts: dict, *args, funcs: tuple):
    # the branch of each element: the number of the last condition that holds (0, "otherwise", for none)
    never = creation.zeros_like(indexing.getitem(condlist, slice(None, 1)))
    counts = cumulative.cumsum(lax_structural.concatenate([never, condlist], 0), axis=0)
    branch = reductions.argmax(counts, axis=0)
    dtype = get_aval(x).dtype

    # the branches close over the constants and the extra arguments (JAX's switch takes them first)
    def function(f):
        return lambda v: manipulation.astype(creation.asarray(f(v, *args)), dtype)

    def constant(k):
        return lambda v: creation.array(consts[k], dtype=dtype)

    branches = [constant(k) if f is None else function(f) for k, f in enumerate(funcs)]
    return vectorize.vectorize(lax_conditionals.switch, excluded=(1,))(branch, branches, x)


_piecewise_body.__name__ = _piecewise_body.__qualname__ = "_piecewise"
_piecewise = jit(_piecewise_body, static_argnames=("funcs",))


def piecewise(x, condlist, funclist: list, *args, **kw):
    """``funclist[k](x, *args, **kw)`` where ``condlist[k]`` holds (a last extra function or value: elsewhere; the
    last true condition wins)."""
    check_scalar_arraylike("piecewise", x)
    x = _asarray(x)
    condlist = creation.asarray(condlist)
    if get_aval(condlist).ndim == 0:  # one condition of a scalar
        condlist = lax_structural.broadcast_in_dim(condlist, (1,), ())
    n = get_aval(condlist).shape[0]
    funclist = list(funclist)
    if len(funclist) == n:
        funclist = [0] + funclist
    elif len(funclist) == n + 1:
        funclist = [funclist[-1]] + funclist[:-1]
    else:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected; got "
                         f"{len(funclist)}")
    if kw:
        funclist = [functools.partial(f, **kw) if callable(f) else f for f in funclist]
    consts = {k: f for k, f in enumerate(funclist) if not callable(f)}
    funcs = tuple(f if callable(f) else None for f in funclist)
    return _piecewise(x, condlist, consts, *args, funcs=funcs)


def fill_diagonal(a, val, wrap: bool = False, *, inplace: bool = True):
    """``a`` with its main diagonal set to ``val`` (repeated as needed); needs ``inplace=False``."""
    if inplace:
        raise NotImplementedError("JAX arrays are immutable, must use inplace=False")
    if wrap:
        raise NotImplementedError("wrap=True is not implemented, must use wrap=False")
    check_arraylike("fill_diagonal", a, val)
    a = _asarray(a)
    shape = get_aval(a).shape
    if len(shape) < 2:
        raise ValueError("array must be at least 2-d")
    if len(shape) > 2 and len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    n = min(shape)
    diagonal = lax_structural.iota(np.int32, n)
    val = _asarray(val)
    if get_aval(val).ndim:
        val = _cycled(manipulation.ravel(val), n)
    return indexing.scatter_update(a, (diagonal,) * len(shape), val, "set")


def ravel_multi_index(multi_index: Sequence, dims: Sequence[int], mode: str = "raise", order: str = "C", *,
                      dtype=None):
    """Flat indices of the coordinates ``multi_index`` into an array of shape ``dims``."""
    if len(multi_index) != len(dims):
        raise AssertionError(f"len(multi_index)={len(multi_index)} != len(dims)={len(dims)}")  # JAX's assert
    dims = tuple(int(d) for d in dims)
    check_scalar_arraylike("ravel_multi_index", *multi_index)
    coordinates = [_asarray(i) for i in multi_index]
    for c in coordinates:
        if not np.issubdtype(get_aval(c).dtype, np.integer):
            raise ValueError(f"dtype={get_aval(c).dtype!r} is not an integer type.")
    if mode == "raise":
        for c, d in zip(coordinates, dims):
            # an array's value read from a jnp.array copy of it, as JAX's (which names one on other devices)
            value = _concrete(c if isinstance(c, Tracer) else creation.array(c))
            if np.any((value < 0) | (value >= d)):
                raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        coordinates = [ufuncs.clip(c, 0, d - 1) for c, d in zip(coordinates, dims)]
    elif mode == "wrap":
        coordinates = [ufuncs.remainder(c, d) for c, d in zip(coordinates, dims)]
    elif mode != "ignore":
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip', or 'ignore'.")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    strides = np.cumprod((1,) + dims[::-1][:-1])[::-1] if order == "C" else np.cumprod((1,) + dims[:-1])
    total = 0
    for c, stride in zip(coordinates, strides):
        if dtype is not None:
            c = lax_structural.convert_element_type(c, dtypes.canonicalize_dtype(dtype))
        total = ufuncs.add(total, ufuncs.multiply(c, int(stride)))
    return total


def unravel_index(indices, shape: Sequence[int]) -> tuple[Any, ...]:
    """The coordinates of the flat ``indices`` in an array of ``shape`` (negative ones wrap, others clip)."""
    check_scalar_arraylike("unravel_index", indices)
    indices = _asarray(indices)
    shape = tuple(int(d) for d in shape)
    coordinates = []
    quotient = indices
    for size in reversed(shape):
        quotient, coordinate = ufuncs.divmod(quotient, size)
        coordinates.append(coordinate)
    coordinates.reverse()
    # a flat index past either end clips to the first or last element (negative ones wrap once)
    above = lax_elementwise.gt(quotient, _like(0, quotient))
    below = lax_elementwise.lt(quotient, _like(-1, quotient))
    return tuple(where(above, size - 1, where(below, 0, c)) for c, size in zip(coordinates, shape))


def _packbits_body(a, axis: int | None, bitorder: str):
    bits = lax_structural.convert_element_type(lax_elementwise.ne(a, _like(0, a)), np.uint8)
    shifts = lax_structural.iota(np.uint8, 8)
    if bitorder == "big":
        shifts = lax_structural.rev(shifts, (0,))
    if axis is None:
        bits, axis = manipulation.ravel(bits), 0
    axis = canonicalize_axis(axis, get_aval(bits).ndim)
    ndim = get_aval(bits).ndim
    bits = manipulation.moveaxis(bits, axis, -1)
    shape = get_aval(bits).shape
    length = shape[-1]
    padded = -(-length // 8) * 8
    if padded != length:
        bits = lax_structural.pad(bits, np.zeros((), np.uint8), [(0, 0, 0)] * (ndim - 1) + [(0, padded - length, 0)])
    grouped = lax_structural.reshape(bits, shape[:-1] + (padded // 8, 8))
    shifted = lax_elementwise.shift_left(grouped, lax_structural.broadcast_in_dim(shifts, (1,) * ndim + (8,),
                                                                                  (ndim,)))
    packed = lax_reductions.reduce_sum(lax_structural.convert_element_type(shifted, np.uint32), (ndim,))
    return manipulation.moveaxis(lax_structural.convert_element_type(packed, np.uint8), -1, axis)


_packbits_body.__name__ = _packbits_body.__qualname__ = "packbits"
_packbits = jit(_packbits_body, static_argnames=("axis", "bitorder"))


def packbits(a, axis: int | None = None, bitorder: str = "big"):
    """Booleans (nonzero elements) of ``a`` packed eight to a uint8 along ``axis`` (flattened when None)."""
    check_jitted_arguments(packbits, a=a)
    check_arraylike("packbits", a)
    a = _asarray(a)
    if not (np.issubdtype(get_aval(a).dtype, np.integer) or get_aval(a).dtype == np.bool_):
        raise TypeError("Expected an input array of integer or boolean data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return _packbits(a, axis=axis, bitorder=bitorder)


def _unpackbits_body(a, axis: int | None, count: int | None, bitorder: str):
    masks = lax_elementwise.shift_left(np.ones((), np.uint8), lax_structural.iota(np.uint8, 8))
    if bitorder == "big":
        masks = lax_structural.rev(masks, (0,))
    if axis is None:
        a, axis = manipulation.ravel(a), 0
    axis = canonicalize_axis(axis, get_aval(a).ndim)
    a = manipulation.moveaxis(a, axis, -1)
    shape = get_aval(a).shape
    ndim = len(shape)
    expanded = lax_structural.broadcast_in_dim(a, shape + (1,), tuple(range(ndim)))
    bits = lax_elementwise.bitwise_and(expanded, lax_structural.broadcast_in_dim(masks, (1,) * ndim + (8,), (ndim,)))
    bits = lax_structural.convert_element_type(lax_elementwise.gt(bits, np.zeros((), np.uint8)), np.uint8)
    total = shape[-1] * 8
    bits = lax_structural.reshape(bits, shape[:-1] + (total,))
    if count is not None:
        if count <= total:
            bits = indexing.getitem(bits, (Ellipsis, slice(None, count)))
        else:
            bits = manipulation.pad(bits, [(0, 0)] * (ndim - 1) + [(0, count - total)])
    return manipulation.moveaxis(bits, -1, axis)


_unpackbits_body.__name__ = _unpackbits_body.__qualname__ = "unpackbits"
_unpackbits = jit(_unpackbits_body, static_argnames=("axis", "count", "bitorder"))


def unpackbits(a, axis: int | None = None, count: int | None = None, bitorder: str = "big"):
    """The bits of the uint8 array ``a`` along ``axis`` (flattened when None), ``count`` of them."""
    check_arraylike("unpackbits", a)
    a = _asarray(a)
    if get_aval(a).dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    return _unpackbits(a, axis=axis, count=count, bitorder=bitorder)
