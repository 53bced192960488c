"""Index-driven selection and placement: take, take_along_axis, put, place, compress, extract, choose, select,
piecewise, nonzero, argwhere, flatnonzero, fill_diagonal, ravel_multi_index, unravel_index, packbits, unpackbits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.backend import current_backend
from jaxle_core.core import Tracer
from jaxle_core.jit import jit
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import reductions as lax_reductions
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.sorting import sort as lax_sort
from jaxle_numpy import indexing
from jaxle_numpy.util import canonicalize_axis, check_arraylike, ensure_array, promote_dtypes

__all__ = ["take", "take_along_axis", "put_along_axis", "put", "place", "compress", "extract", "choose", "select",
           "piecewise", "nonzero", "argwhere", "flatnonzero", "fill_diagonal", "ravel_multi_index", "unravel_index",
           "packbits", "unpackbits"]


def _asarray(x: Any) -> Any:
    """``x`` as an array or tracer (Python and NumPy values become constants of the trace)."""
    x = ensure_array(x)
    if isinstance(x, Tracer) or hasattr(x, "aval"):
        return x
    value = np.asarray(x)
    weak = isinstance(x, (bool, int, float, complex))
    return current_backend().device_put(np.asarray(value, dtypes.canonicalize_dtype(value.dtype)), weak_type=weak)


def _concrete(x: Any) -> np.ndarray:
    """The value of ``x``; JAX's ConcretizationTypeError for a tracer."""
    if isinstance(x, Tracer):
        raise x._concretization_error("numpy", "The value is needed on the host: give a static size where the "
                                      "function takes one, or compute outside the trace.")
    return np.asarray(x)


def _ravel(x: Any) -> Any:
    aval = get_aval(x)
    return x if aval.ndim == 1 else lax_structural.reshape(x, (aval.size,))


def _where_body(condition, x, y):
    return lax_structural.select_n(condition, y, x)


_where_body.__name__ = "_where"
_where = jit(_where_body)


def _take_body(a, indices, axis: int | None = None, mode: str | None = None, unique_indices: bool = False,
               indices_are_sorted: bool = False, fill_value=None):
    if axis is None:
        a, axis = _ravel(a), 0
    a_aval, index_aval = get_aval(a), get_aval(indices)
    axis = canonicalize_axis(axis, a_aval.ndim)
    size = a_aval.shape[axis]
    if mode is None or mode == "fill":
        gather_mode = lax_slicing.GatherScatterMode.FILL_OR_DROP
        if np.issubdtype(index_aval.dtype, np.signedinteger):
            indices = _where(lax_elementwise.lt(indices, _like(0, indices)), lax_elementwise.add(
                indices, _like(size, indices)), indices)
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    elif mode == "wrap":
        gather_mode = lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS
        indices = _floor_mod(indices, size)
    elif mode == "clip":
        gather_mode = lax_slicing.GatherScatterMode.CLIP
    else:
        raise ValueError(f"Invalid mode '{mode}' for np.take")
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


def _floor_mod(indices, size: int):
    """``indices mod size`` with a nonnegative result."""
    size_value = _like(size, indices)
    remainder = lax_elementwise.rem(indices, size_value)
    negative = lax_elementwise.lt(remainder, _like(0, indices))
    return lax_structural.select_n(negative, remainder, lax_elementwise.add(remainder, size_value))


_take_body.__name__ = "_take"
_take = jit(_take_body, static_argnames=("axis", "mode", "unique_indices", "indices_are_sorted", "fill_value"))


def take(a, indices, axis: int | None = None, out=None, mode: str | None = None, unique_indices: bool = False,
         indices_are_sorted: bool = False, fill_value=None):
    """Elements of ``a`` at ``indices`` along ``axis`` (flattened when None); out of bounds: NaN/fill by default."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.take is not supported.")
    check_arraylike("take", a, indices)
    return _take(a, indices, axis=axis, mode=mode, unique_indices=unique_indices,
                 indices_are_sorted=indices_are_sorted, fill_value=fill_value)


def _take_along_axis_body(arr, indices, axis: int | None, mode=None, fill_value=None):
    if axis is None:
        arr, axis = _ravel(arr), 0
    arr_aval, index_aval = get_aval(arr), get_aval(indices)
    if index_aval.ndim != arr_aval.ndim:
        raise ValueError(f"indices and arr must have the same number of dimensions; {index_aval.ndim} vs. "
                         f"{arr_aval.ndim}")
    axis = canonicalize_axis(axis, arr_aval.ndim)
    size = arr_aval.shape[axis]
    if np.issubdtype(index_aval.dtype, np.signedinteger):
        indices = lax_structural.select_n(lax_elementwise.lt(indices, _like(0, indices)), indices,
                                          lax_elementwise.add(indices, _like(size, indices)))
    # the other dimensions broadcast together
    shape = []
    for d, (a_size, i_size) in enumerate(zip(arr_aval.shape, index_aval.shape)):
        if d == axis:
            shape.append(None)
        elif a_size == i_size or i_size == 1 or a_size == 1:
            shape.append(a_size if i_size == 1 else i_size)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting: {arr_aval.shape} and {index_aval.shape}")
    arr_shape = tuple(s if d != axis else arr_aval.shape[d] for d, s in enumerate(shape))
    index_shape = tuple(s if d != axis else index_aval.shape[d] for d, s in enumerate(shape))
    if arr_shape != arr_aval.shape:
        arr = lax_structural.broadcast_in_dim(lax_structural.reshape(arr, arr_aval.shape), arr_shape,
                                              tuple(range(arr_aval.ndim)))
    if index_shape != index_aval.shape:
        indices = lax_structural.broadcast_in_dim(indices, index_shape, tuple(range(index_aval.ndim)))
    indices = lax_structural.reshape(indices, index_shape + (1,))
    others = tuple(d for d in range(arr_aval.ndim) if d != axis)
    dnums = lax_slicing.GatherDimensionNumbers((), (axis,), (axis,), others, others)
    return lax_slicing.gather(arr, indices, dnums, (1,) * arr_aval.ndim,
                              mode="fill" if mode is None else mode, fill_value=fill_value)


_take_along_axis_body.__name__ = "take_along_axis"
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


def put_along_axis(arr, indices, values, axis: int | None, inplace: bool = True, *, mode: str | None = None):
    """``arr`` with ``values`` written at ``indices`` along ``axis``; needs ``inplace=False``."""
    if inplace:
        raise ValueError("jax.numpy.put_along_axis cannot modify arrays in-place, because JAX arraysare immutable. "
                         "Pass inplace=False to instead return an updated array.")
    check_arraylike("put_along_axis", arr, indices, values)
    arr, indices = _asarray(arr), _asarray(indices)
    if axis is None:
        arr_flat = _ravel(arr)
        return put_along_axis(arr_flat, indices, values, 0, inplace=False, mode=mode).reshape(get_aval(arr).shape)
    shape = get_aval(arr).shape
    axis = canonicalize_axis(axis, len(shape))
    index_shape = get_aval(indices).shape
    grids = []
    for d in range(len(shape)):
        if d == axis:
            grids.append(indices)
        else:
            grid_shape = [1] * len(shape)
            grid_shape[d] = shape[d]
            grids.append(np.arange(shape[d]).reshape(grid_shape))
    del index_shape
    return indexing.scatter_update(arr, tuple(grids), values, "set", mode=mode)


def put(a, ind, v, mode: str | None = None, *, inplace: bool = True):
    """``a`` with its flat elements at ``ind`` replaced by ``v`` (repeated as needed); needs ``inplace=False``."""
    if inplace:
        raise ValueError(_IMMUTABLE.format("put"))
    check_arraylike("put", a, ind, v)
    a = _asarray(a)
    flat = _ravel(a)
    ind = _ravel(_asarray(ind))
    count = get_aval(ind).size
    values = _ravel(_asarray(v))
    if get_aval(values).size == 0 or count == 0:
        return a
    values = _resize(values, count)
    size = get_aval(flat).size
    if mode is None or mode == "clip":
        scatter_mode = "clip"
    elif mode == "wrap":
        ind, scatter_mode = _floor_mod(ind, size), "clip"
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got {mode=}")
    out = indexing.scatter_update(flat, ind, values, "set", mode=scatter_mode)
    return lax_structural.reshape(out, get_aval(a).shape)


def _resize(values, count: int):
    """``values`` (1-d) repeated and cut to ``count`` elements, as NumPy's put repeats them."""
    size = get_aval(values).size
    if size == count:
        return values
    reps = -(-count // size)
    tiled = lax_structural.reshape(lax_structural.broadcast_in_dim(values, (reps, size), (1,)), (reps * size,))
    return lax_slicing.slice(tiled, (0,), (count,))


def place(arr, mask, vals, *, inplace: bool = True):
    """``arr`` with the elements where ``mask`` holds replaced by ``vals`` in order (repeated as needed)."""
    if inplace:
        raise ValueError(_IMMUTABLE.format("place"))
    check_arraylike("place", arr, mask, vals)
    arr = _asarray(arr)
    positions = np.flatnonzero(_concrete(mask))
    values = _ravel(_asarray(vals))
    if positions.size == 0 or get_aval(values).size == 0:
        return arr
    out = indexing.scatter_update(_ravel(arr), positions.astype(np.int32), _resize(values, positions.size), "set")
    return lax_structural.reshape(out, get_aval(arr).shape)


def nonzero(a, *, size: int | None = None, fill_value=None) -> tuple[Any, ...]:
    """The indices of ``a``'s nonzero elements, one array per dimension (``size`` fixes their length)."""
    check_arraylike("nonzero", a)
    a = _asarray(a)
    shape = get_aval(a).shape
    if not shape:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() "
                         "instead. If this is being called on a non-numpy object, it's likely due to an unexpected "
                         "type.")
    if size is None:
        # JAX counts the nonzero elements first: the count is what must be concrete
        _concrete(lax_reductions.reduce_sum(lax_structural.convert_element_type(
            lax_elementwise.ne(a, _like(0, a)), np.int32), tuple(range(len(shape)))))
        value = _concrete(a)
        return tuple(current_backend().device_put(i.astype(np.int32)) for i in np.nonzero(value))
    flat = _ravel(a)
    n = get_aval(flat).size
    mask = flat if get_aval(flat).dtype == np.bool_ else lax_elementwise.ne(flat, _like(0, flat))
    keys = lax_structural.select_n(mask, lax_structural.broadcast_in_dim(np.asarray(n, np.int32), (n,), ()),
                                   lax_structural.iota(np.int32, n))
    ordered = lax_sort(keys)
    if size <= n:
        ordered = lax_slicing.slice(ordered, (0,), (size,))
    else:
        ordered = lax_structural.concatenate(
            [ordered, lax_structural.broadcast_in_dim(np.asarray(n, np.int32), (size - n,), ())], 0)
    valid = lax_elementwise.lt(ordered, np.asarray(n, np.int32))
    fills = fill_value if isinstance(fill_value, tuple) else (fill_value,) * len(shape)
    if len(fills) != len(shape):
        raise ValueError(f"fill_value must be a scalar or a tuple of length {len(shape)}; got {fill_value}")
    results = []
    stride = n
    for dim, dim_size in enumerate(shape):
        stride //= max(dim_size, 1) if dim_size else 1
        coordinate = lax_elementwise.div(ordered, np.asarray(max(stride, 1), np.int32))
        coordinate = lax_elementwise.rem(coordinate, np.asarray(max(dim_size, 1), np.int32))
        fill = np.asarray(0 if fills[dim] is None else fills[dim], np.int32)
        results.append(lax_structural.select_n(valid, lax_structural.broadcast_in_dim(fill, (size,), ()),
                                               coordinate))
    return tuple(results)


def flatnonzero(a, *, size: int | None = None, fill_value=None):
    """The flat indices of ``a``'s nonzero elements."""
    check_arraylike("flatnonzero", a)
    return nonzero(_ravel(_asarray(a)), size=size, fill_value=fill_value)[0]


def argwhere(a, *, size: int | None = None, fill_value=None):
    """The indices of ``a``'s nonzero elements, one row per element."""
    check_arraylike("argwhere", a)
    a = _asarray(a)
    if get_aval(a).ndim == 0:
        count = int(bool(_concrete(a))) if size is None else size
        return current_backend().device_put(np.zeros((count, 0), np.int32))
    columns = nonzero(a, size=size, fill_value=fill_value)
    count = get_aval(columns[0]).shape[0]
    return lax_structural.concatenate([lax_structural.reshape(c, (count, 1)) for c in columns], 1)


def compress(condition, a, axis: int | None = None, *, size: int | None = None, fill_value=0, out=None):
    """The slices of ``a`` along ``axis`` where ``condition`` (1-d) holds."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.compress is not supported.")
    check_arraylike("compress", condition, a)
    condition = lax_structural.convert_element_type(_asarray(condition), np.bool_)
    a = _asarray(a)
    if get_aval(condition).ndim != 1:
        raise ValueError("condition must be a 1D array")
    if axis is None:
        a, axis = _ravel(a), 0
    axis = canonicalize_axis(axis, get_aval(a).ndim)
    length = get_aval(a).shape[axis]
    # a True past the end is an error; as in JAX the check is made on the staged condition, so that compress
    # needs concrete values (bool() of a tracer raises under jit, whatever the condition's length)
    beyond = lax_slicing.slice_in_dim(condition, min(length, get_aval(condition).shape[0]), None)
    if bool(lax_reductions.reduce_or(beyond, (0,))):
        raise ValueError("condition contains entries that are out of bounds")
    if get_aval(condition).shape[0] > length:
        condition = lax_slicing.slice_in_dim(condition, 0, length)
    if size is None:
        positions = np.flatnonzero(_concrete(condition)).astype(np.int32)
        return take(a, positions, axis=axis)
    positions = nonzero(condition, size=size, fill_value=length)[0]
    return take(a, positions, axis=axis, mode="fill", fill_value=fill_value)


def extract(condition, arr, *, size: int | None = None, fill_value=0):
    """The elements of ``arr`` where ``condition`` holds, flattened."""
    check_arraylike("extract", condition, arr)
    return compress(_ravel(_asarray(condition)), _ravel(_asarray(arr)), size=size, fill_value=fill_value)


def choose(a, choices, out=None, mode: str = "raise"):
    """``choices[a[i]][i]`` for every ``i`` (``a`` and the choices broadcast together)."""
    if out is not None:
        raise NotImplementedError("The 'out' argument to jnp.choose is not supported.")
    check_arraylike("choose", a, *choices)
    a = _asarray(a)
    if not np.issubdtype(get_aval(a).dtype, np.integer):
        raise ValueError("`a` array must be integer typed")
    n = len(choices)
    if mode == "raise":
        value = _concrete(a)
        if np.any((value < 0) | (value >= n)):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = _floor_mod(a, n)
    elif mode == "clip":
        a = lax_structural.clamp(_like(0, a), a, _like(n - 1, a))
    else:
        raise ValueError(f"mode={mode!r} not understood. Must be 'raise', 'wrap', or 'clip'")
    promoted = promote_dtypes(*[_asarray(c) for c in choices])
    shape = lax_structural.broadcast_shapes(get_aval(a).shape, *(get_aval(c).shape for c in promoted))
    a = _broadcast(a, shape)
    stacked = lax_structural.concatenate([lax_structural.reshape(_broadcast(c, shape), (1,) + shape)
                                          for c in promoted], 0)
    return take_along_axis(stacked, lax_structural.reshape(a, (1,) + shape), axis=0)[0]


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
    for c in conditions:
        if get_aval(c).dtype != np.bool_:
            raise TypeError(f"condlist must be a sequence of bool arrays, got {get_aval(c).dtype}")
    values = promote_dtypes(_asarray(default), *[_asarray(c) for c in choicelist])
    shape = lax_structural.broadcast_shapes(*(get_aval(v).shape for v in values + conditions))
    result = _broadcast(values[0], shape)
    for condition, value in reversed(list(zip(conditions, values[1:]))):
        result = lax_structural.select_n(_broadcast(condition, shape), result, _broadcast(value, shape))
    return result


def piecewise(x, condlist, funclist: list, *args, **kw):
    """``funclist[k](x)`` where ``condlist[k]`` holds (a last extra function or value: elsewhere)."""
    check_arraylike("piecewise", x)
    x = _asarray(x)
    conditions = [condlist] if get_aval(_asarray(condlist)).ndim == get_aval(x).ndim and not isinstance(
        condlist, (list, tuple)) else list(condlist)
    n = len(conditions)
    if len(funclist) == n + 1:
        otherwise = funclist[-1]
        funclist = funclist[:-1]
        conditions = conditions + [None]
    elif len(funclist) != n:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    else:
        otherwise = 0
    aval = get_aval(x)

    def evaluate(f):
        value = f(x, *args, **kw) if callable(f) else f
        return lax_structural.convert_element_type(_broadcast(_asarray(value), aval.shape), aval.dtype)

    result = evaluate(otherwise)
    for condition, f in zip(conditions[:n], funclist):
        result = lax_structural.select_n(_broadcast(_asarray(condition), aval.shape), result, evaluate(f))
    return result


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
    values = _resize(_ravel(lax_structural.convert_element_type(_asarray(val), get_aval(a).dtype)), n)
    diagonal = np.arange(n, dtype=np.int32)
    return indexing.scatter_update(a, (diagonal,) * len(shape), values, "set")


def ravel_multi_index(multi_index: Sequence, dims: Sequence[int], mode: str = "raise", order: str = "C", *,
                      dtype=None):
    """Flat indices of the coordinates ``multi_index`` into an array of shape ``dims``."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    dims = tuple(int(d) for d in dims)
    check_arraylike("ravel_multi_index", *multi_index)
    coordinates = [_asarray(i) for i in multi_index]
    for c in coordinates:
        if not np.issubdtype(get_aval(c).dtype, np.integer):
            raise TypeError(f"only int indices permitted, got {get_aval(c).dtype}")
    out_dtype = dtypes.canonicalize_dtype(dtype if dtype is not None else dtypes.default_int_dtype())
    if mode == "raise":
        for c, d in zip(coordinates, dims):
            value = _concrete(c)
            if np.any((value < 0) | (value >= d)):
                raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        coordinates = [lax_structural.clamp(_like(0, c), c, _like(d - 1, c)) for c, d in zip(coordinates, dims)]
    elif mode == "wrap":
        coordinates = [_floor_mod(c, d) for c, d in zip(coordinates, dims)]
    else:
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', or 'clip'")
    shape = lax_structural.broadcast_shapes(*(get_aval(c).shape for c in coordinates))
    strides = np.cumprod((1,) + dims[::-1][:-1])[::-1] if order == "C" else np.cumprod((1,) + dims[:-1])
    total = _broadcast(lax_structural.convert_element_type(np.zeros((), out_dtype), out_dtype), shape)
    for c, stride in zip(coordinates, strides):
        term = lax_elementwise.mul(_broadcast(lax_structural.convert_element_type(c, out_dtype), shape),
                                   np.asarray(stride, out_dtype))
        total = lax_elementwise.add(total, term)
    return total


def unravel_index(indices, shape: Sequence[int]) -> tuple[Any, ...]:
    """The coordinates of the flat ``indices`` in an array of ``shape`` (negative ones wrap, others clip)."""
    check_arraylike("unravel_index", indices)
    indices = _asarray(indices)
    dtype = get_aval(indices).dtype
    if not np.issubdtype(dtype, np.integer):
        raise TypeError(f"unravel_index: expected integer indices, got {dtype}")
    shape = tuple(int(d) for d in shape)
    total = int(np.prod(shape, dtype=np.int64))
    if total == 0:
        raise ValueError("cannot unravel index into an empty shape")
    flat = lax_structural.select_n(lax_elementwise.lt(indices, _like(0, indices)), indices,
                                   lax_elementwise.add(indices, _like(total, indices)))
    flat = lax_structural.clamp(_like(0, flat), flat, _like(total - 1, flat))
    out = []
    for d in reversed(shape):
        out.append(lax_elementwise.rem(flat, _like(d, flat)))
        flat = lax_elementwise.div(flat, _like(d, flat))
    return tuple(reversed(out))


def packbits(a, axis: int | None = None, bitorder: str = "big"):
    """Booleans (nonzero elements) of ``a`` packed eight to a uint8 along ``axis`` (flattened when None)."""
    check_arraylike("packbits", a)
    a = _asarray(a)
    if not (np.issubdtype(get_aval(a).dtype, np.integer) or get_aval(a).dtype == np.bool_):
        raise TypeError("Expected an input array of integer or boolean data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    if axis is None:
        a, axis = _ravel(a), 0
    axis = canonicalize_axis(axis, get_aval(a).ndim)
    bits = lax_structural.convert_element_type(lax_elementwise.ne(a, _like(0, a)), np.uint8)
    shape = get_aval(bits).shape
    length = shape[axis]
    padded = -(-length // 8) * 8
    if padded != length:
        zero = np.zeros((), np.uint8)
        config = [(0, 0, 0)] * len(shape)
        config[axis] = (0, padded - length, 0)
        bits = lax_structural.pad(bits, zero, config)
    grouped = lax_structural.reshape(bits, shape[:axis] + (padded // 8, 8) + shape[axis + 1:])
    weights = np.array([1 << k for k in range(8)], np.uint8)
    if bitorder == "big":
        weights = weights[::-1].copy()
    weights = weights.reshape((8,) + (1,) * (len(shape) - axis - 1))
    weighted = lax_elementwise.mul(grouped, _broadcast(weights, get_aval(grouped).shape))
    return lax_reductions.reduce_sum(weighted, (axis + 1,))


def unpackbits(a, axis: int | None = None, count: int | None = None, bitorder: str = "big"):
    """The bits of the uint8 array ``a`` along ``axis`` (flattened when None), ``count`` of them."""
    check_arraylike("unpackbits", a)
    a = _asarray(a)
    if get_aval(a).dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")
    if axis is None:
        a, axis = _ravel(a), 0
    axis = canonicalize_axis(axis, get_aval(a).ndim)
    shape = get_aval(a).shape
    shifts = np.arange(8, dtype=np.uint8)
    if bitorder == "big":
        shifts = shifts[::-1].copy()
    expanded = lax_structural.broadcast_in_dim(a, shape[:axis + 1] + (8,) + shape[axis + 1:],
                                               tuple(range(axis + 1)) + tuple(range(axis + 2, len(shape) + 1)))
    shift_array = _broadcast(shifts.reshape((8,) + (1,) * (len(shape) - axis - 1)), get_aval(expanded).shape)
    bits = lax_elementwise.bitwise_and(lax_elementwise.shift_right_logical(expanded, shift_array),
                                       np.ones((), np.uint8))
    bits = lax_structural.reshape(bits, shape[:axis] + (shape[axis] * 8,) + shape[axis + 1:])
    if count is not None:
        total = shape[axis] * 8
        count = count if count >= 0 else total + count
        if count <= total:
            bits = lax_slicing.slice_in_dim(bits, 0, max(count, 0), axis=axis)
        else:
            config = [(0, 0, 0)] * len(shape)
            config[axis] = (0, count - total, 0)
            bits = lax_structural.pad(bits, np.zeros((), np.uint8), config)
    return bits

