"""Array creation from values and shapes: array/asarray/copy, and zeros/ones/full/empty with their _like forms."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.array import Array
from jaxle_core.avals import canonicalize_shape, get_aval
from jaxle_core.core import EvalTrace, Tracer, current_trace
from jaxle_core.lax.identity import copy_p
from jaxle_core.lax.structural import convert_element_type_p, convert_keeping_weak_type, warn_complex_to_real
from jaxle_core.mesh import get_abstract_mesh
from jaxle_core.shape_poly import DimExpr, dimension_as_value
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import checked_out_sharding, resolve_out_sharding
from jaxle_numpy.scalar_types import ndim
from jaxle_numpy.util import (
    check_arraylike,
    check_conversion_target,
    check_device_or_out_sharding,
    converted_onto,
    converted_staged,
    host_constant,
    invalid_value_error,
    placed_on,
    requested_dtype,
    staged_target,
)

__all__ = ["array", "asarray", "copy", "zeros", "ones", "full", "empty", "zeros_like", "ones_like", "full_like",
           "empty_like"]

_PYTHON_SCALARS = (bool, int, float, complex)


# ---------------------------------------------------------------- array and asarray

def _check_order(order: str | None) -> None:
    if order is not None and order != "K":
        raise NotImplementedError("Only implemented for order='K'")


def _leaves(obj: Any) -> list:
    """The elements of nested lists and tuples, in order."""
    if isinstance(obj, (list, tuple)):
        return [leaf for item in obj for leaf in _leaves(item)]
    return [obj]


def _host_array(x: Any) -> np.ndarray:
    """A non-Python-scalar leaf as a NumPy array of a dtype JAX arrays can have, or JAX's error."""
    if isinstance(x, np.ma.MaskedArray):
        raise ValueError("numpy masked arrays are not supported as direct inputs to JAX functions. Use arr.filled() "
                         "to convert the value to a standard numpy array.")
    # NumPy arrays and numbers (timedelta64 is one) of other dtypes fail where JAX stages them; other values
    # (strings, datetimes, objects) are refused by the dtype check below.
    if isinstance(x, (np.ndarray, np.number)) and not dtypes.is_valid_dtype(x.dtype):
        raise TypeError("Error interpreting argument to stage as a JAX value. The problematic value is of type "
                        f"{type(x)} and was passed to stage at position 0.")
    value = np.asarray(x, _named_dtype(x))
    if not dtypes.is_valid_dtype(value.dtype):
        raise invalid_value_error(x, value.dtype)
    return value


def _named_dtype(x: Any) -> np.dtype | None:
    """The dtype a scalar type or dtype of JAX's given as a value names (a 64-bit one warns with x64 off), which
    JAX converts it to: NumPy's error for most (``float() argument must be ... not 'type'``), True for a bool type;
    None for other values."""
    if not isinstance(x, (type, np.dtype)):
        return None
    if isinstance(getattr(x, "dtype", None), np.dtype):  # jnp's scalar types name theirs silently
        return x.dtype
    try:
        named = np.dtype(x)
    except TypeError:  # an abstract scalar class (np.floating)
        return None
    return dtypes.dtype(x) if dtypes.is_valid_dtype(named) else None


def _dtype_operand(x: Any) -> Any:
    """A leaf as an operand of dtype promotion: Python scalars weak, arrays and tracers as typed, the rest
    through NumPy."""
    if x is None:
        raise ValueError("None is not a valid value for jnp.array")
    if type(x) in _PYTHON_SCALARS or isinstance(x, (Array, Tracer, DimExpr)):
        return x
    return _host_array(x)


def _list_dtype(leaves: list) -> np.dtype:
    """The (strong) dtype of an array made of ``leaves``: their promoted dtype, the default float if none."""
    if not leaves:
        return dtypes.default_float_dtype()
    # One operand per kind of leaf is enough for the promotion (long lists of numbers are common).
    operands: dict[Any, Any] = {}
    for leaf in leaves:
        if type(leaf) in _PYTHON_SCALARS or type(leaf) is DimExpr:  # a symbolic dimension: a weakly typed int
            operands.setdefault(type(leaf), leaf)
        else:
            operand = _dtype_operand(leaf)
            operands.setdefault((operand.dtype, dtypes.is_weakly_typed(operand)), operand)
    return dtypes.result_type(*operands.values())


def _python_scalar_as(x: Any, dtype: np.dtype) -> np.ndarray:
    """A Python scalar (or string, or bytes) converted as JAX does: through the Python type of ``dtype``'s kind, so
    ``int(1e10)`` overflows int32 with NumPy's error and ``float(1j)`` is refused."""
    value = dtypes.scalar_type_of(np.zeros((), dtype))(x)
    return np.array(value, dtype)


def _host_leaf_as(x: Any, dtype: np.dtype) -> np.ndarray:
    if type(x) in _PYTHON_SCALARS or isinstance(x, (str, bytes)):
        return _python_scalar_as(x, dtype)
    if x is None:
        raise ValueError("None is not a valid value for jnp.array")
    if not isinstance(x, (np.ndarray, np.generic)) and np.asarray(x).dtype == object:
        # a dict, a set, a Decimal: converted by NumPy as JAX converts it (NumPy's int()/float() error for the first)
        return np.array(x, dtype)
    with np.errstate(invalid="ignore", over="ignore"):
        return _host_array(x).astype(dtype)


def _host_nested(obj: Any, dtype: np.dtype) -> Any:
    if isinstance(obj, (list, tuple)):
        return [_host_nested(item, dtype) for item in obj]
    return _host_leaf_as(obj, dtype)


def _expand_leading(x: Any) -> Any:
    """``x`` with a new leading dimension of size 1."""
    shape = get_aval(x).shape
    return lax.broadcast_in_dim(x, (1, *shape), tuple(range(1, len(shape) + 1)))


def _staged_nested(obj: Any, dtype: np.dtype) -> Any:
    """Nested lists holding arrays or tracers, stacked with lax as JAX stages it: each element gets a leading axis
    and the elements are concatenated; parts holding neither are made on the host as one constant."""
    if isinstance(obj, (list, tuple)):
        if not any(isinstance(leaf, (Array, Tracer, DimExpr)) for leaf in _leaves(obj)):
            return host_constant(np.array(_host_nested(obj, dtype), dtype))
        return lax.concatenate([_expand_leading(_staged_nested(item, dtype)) for item in obj], 0)
    if isinstance(obj, DimExpr):
        obj = dimension_as_value(obj)
    if isinstance(obj, (Array, Tracer)):
        aval = get_aval(obj)
        if aval.dtype == dtype and not aval.weak_type:
            return obj  # as JAX's: nothing converted, so the first operation on it is the stacking's
        warn_complex_to_real(aval.dtype, dtype, stacklevel=5)
        return convert_keeping_weak_type(obj, dtype, False)
    return _host_leaf_as(obj, dtype)


def _with_ndmin(x: Any, ndmin: int) -> Any:
    """``x`` with leading dimensions of size 1 up to rank ``ndmin`` (compared first, as JAX does: a traced ndmin
    fails as a boolean, a float one where it counts dimensions)."""
    shape = get_aval(x).shape
    if ndmin <= len(shape):
        return x
    extra = tuple(range(ndmin - len(shape)))
    return lax.broadcast_in_dim(x, (1,) * len(extra) + shape, tuple(range(len(extra), len(extra) + len(shape))))


def _laid_out(x: Any, dtype: np.dtype | None, sharding: NamedSharding) -> Any:
    """``x`` converted to ``dtype`` (its own, weak type kept, when None) with the ``out_sharding`` ``sharding`` as
    its type: the one ``convert_element_type`` JAX lays the arrays it makes out with (staged even where the dtype
    stays, except for a host scalar, which staging folds without its layout, as JAX's)."""
    aval = get_aval(x)
    if get_abstract_mesh().empty and aval.explicit_sharding is None and isinstance(current_trace(), EvalTrace):
        sharding = None  # typed over no mesh there (see ``type_in_context_only``): made where arrays are made
    return convert_element_type_p.bind(x, new_dtype=aval.dtype if dtype is None else dtype,
                                       weak_type=aval.weak_type and dtype is None, sharding=sharding)


def _array(obj: Any, dtype: Any, copy: bool, ndmin: int, fun_name: str, device: Any = None,
           out_sharding: Any = None) -> Any:
    """``obj`` as an array of ``dtype`` (with at least ``ndmin`` dimensions), laid out as ``out_sharding`` says;
    inside a transformation converted for ``device`` before its dimensions are added, as JAX stages it
    (``staged_target``)."""
    dtype = requested_dtype(dtype, fun_name, 4)  # attributed to the user's call, past its ``_converted_onto``
    sharding = resolve_out_sharding(out_sharding, "jnp.array")
    if sharding is not None and not copy and type(obj) is np.ndarray and ndmin <= obj.ndim and (
            dtype is None or dtype == obj.dtype):
        # put as it is, on the default device, uncommitted: JAX's device_put of such an array leaves out_sharding out
        return host_constant(_host_array(obj).astype(dtypes.canonicalize_dtype(obj.dtype)), over_mesh=False)
    if hasattr(obj, "__jax_array__"):
        obj = obj.__jax_array__()
    if isinstance(obj, DimExpr):  # a symbolic dimension (``jnp.array(x.shape[0])``): its value when run
        obj = dimension_as_value(obj)
    target = staged_target(device)
    if isinstance(obj, (Array, Tracer)):
        out = copy_p.bind(obj) if copy else obj
        aval = get_aval(out)
        if dtype is not None:
            warn_complex_to_real(aval.dtype, dtype, stacklevel=4)
        if sharding is not None:
            return _with_ndmin(_laid_out(out, dtype, sharding), ndmin)
        if target is not None:  # converted once, for the device
            return _with_ndmin(converted_staged(out, aval.dtype if dtype is None else dtype,
                                                aval.weak_type and dtype is None, target), ndmin)
        if dtype is not None and (aval.dtype != dtype or aval.weak_type):  # else the array itself, where it lies
            out = convert_keeping_weak_type(out, dtype, False)
    elif isinstance(obj, (list, tuple)):
        leaves = _leaves(obj)
        promoted = dtype is None
        dtype = _list_dtype(leaves) if promoted else dtype
        if any(isinstance(leaf, (Array, Tracer, DimExpr)) for leaf in leaves):
            out = _staged_nested(obj, dtype)
        elif promoted:
            # Every leaf converts to the dtype they promote to as NumPy converts it (big Python ints overflow
            # with NumPy's error), so NumPy builds the array in one go.
            out = host_constant(np.array(obj, dtype))
        else:
            out = host_constant(np.array(_host_nested(obj, dtype), dtype))
    else:
        if obj is None:
            raise ValueError("None is not a valid value for jnp.array")
        if type(obj) in _PYTHON_SCALARS or (isinstance(obj, (str, bytes)) and dtype is not None):
            weak = dtype is None and type(obj) is not bool
            value = dtypes.coerce_to_array(obj) if dtype is None else _python_scalar_as(obj, dtype)
            out = host_constant(value, weak, python_scalar=obj if weak else None)
        else:
            value = _host_array(obj) if dtype is None or isinstance(obj, np.ndarray) else _host_leaf_as(obj, dtype)
            if isinstance(obj, np.ndarray) and dtype is not None and value.dtype == dtype and not copy:
                # A NumPy array already of the dtype asked for is put as it is: on the default device, uncommitted
                # even under set_mesh (as JAX puts it), where other host values are replicated over the mesh.
                out = host_constant(value, over_mesh=False)
            else:
                dtype = dtypes.canonicalize_dtype(value.dtype) if dtype is None else dtype
                out = host_constant(_host_leaf_as(value, dtype))
    if sharding is not None:
        out = _laid_out(out, None, sharding)
    elif target is not None:
        aval = get_aval(out)
        out = converted_staged(out, aval.dtype, aval.weak_type, target)
    return _with_ndmin(out, ndmin)



def _placed(fun: Callable[..., Array]) -> Callable[..., Array]:
    """``fun``'s result made on its ``device=`` argument (``placed_on``): strongly typed, over no mesh, as JAX
    makes these arrays there (outside jit)."""

    @functools.wraps(fun)
    def placed(*args: Any, device: Any = None, **kwargs: Any) -> Array:
        check_device_or_out_sharding(device, kwargs.get("out_sharding"))
        out = fun(*args, device=device, **kwargs)
        if isinstance(device, NamedSharding) and not isinstance(out, Tracer):
            # JAX's IndivisibleError, raised before a sharding over Explicit axes types the array
            device.check_compatible_aval(get_aval(out).shape)
        return placed_on(out, device, made_there=True)

    return placed


def _converted_onto(fun: Callable[..., Array]) -> Callable[..., Array]:
    """``_placed`` for the functions JAX places by converting their value to the ``device=`` sharding: with its
    errors for the targets it refuses and its layout (``check_conversion_target``, ``converted_onto``)."""
    @functools.wraps(fun)
    def converted(*args: Any, device: Any = None, **kwargs: Any) -> Array:
        check_device_or_out_sharding(device, kwargs.get("out_sharding"))
        check_conversion_target(device, args[0] if args else next(iter(kwargs.values()), None))
        return converted_onto(fun(*args, device=device, **kwargs), device)

    return converted


@_converted_onto
def array(object: Any, dtype: Any = None, *args: Any, copy: bool = True, order: str | None = "K",  # noqa: A002
          ndmin: int = 0, device: Any = None, out_sharding: Any = None) -> Array:
    """An array of ``object`` (an array, scalar, or nested lists and tuples of them), JAX's dtype rules applied:
    a Python scalar gives a weakly typed array, a list the promoted dtype of its elements."""
    if args:
        if len(args) > 3:
            raise TypeError(f"array() takes at most 5 positional arguments but {len(args) + 2} were given")
        warnings.warn("Passing the copy, order, and ndmin arguments to jnp.array positionally is deprecated. Use "
                      "keyword arguments instead.", DeprecationWarning, stacklevel=2)
        copy, order, ndmin = (*args, *(copy, order, ndmin)[len(args):])
    _check_order(order)
    return _array(object, dtype, copy, ndmin, "array", device, out_sharding)


@_converted_onto
def asarray(a: Any, dtype: Any = None, order: str | None = None, *, copy: bool | None = None, device: Any = None,
            out_sharding: Any = None) -> Array:
    """``a`` as an array: ``array`` without a copy unless ``copy=True``."""
    _check_order(order)
    return _array(a, dtype, bool(copy), 0, "asarray", device, out_sharding)


def copy(a: Any, order: str | None = None) -> Array:
    """A copy of the array ``a``."""
    check_arraylike("copy", a)
    _check_order(order)
    return _array(a, None, True, 0, "copy")


# ---------------------------------------------------------------- filled arrays

def _shape(shape: Any) -> tuple[int, ...]:
    """A shape argument: an integer, a sequence of integers, or an integer array of rank 0 or 1 (a traced size
    gets JAX's TypeError)."""
    return canonicalize_shape(shape if isinstance(shape, (tuple, list)) or ndim(shape) else (shape,))


def _fill_dtype(dtype: Any, fun_name: str, shape: Any) -> np.dtype:
    """The dtype of ``zeros``/``ones``/``empty``; a dimension given as the dtype (``zeros(2, 3)``) gets JAX's hint."""
    if isinstance(shape, int) and isinstance(dtype, int):
        raise TypeError(f"Cannot interpret '{dtype}' as a data type.\n\nDid you accidentally write "
                        f"`jax.numpy.{fun_name}({shape}, {dtype})` when you meant `jax.numpy.{fun_name}(({shape}, "
                        f"{dtype}))`, i.e. with a single tuple argument for the shape?")
    # the warning attributed to the user's call, past the public function and its ``_placed`` wrapper
    return requested_dtype(dtype, fun_name, 4) if dtype is not None else dtypes.default_float_dtype()


@_placed
def zeros(shape: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Array:
    """An array of zeros (float by default)."""
    checked_out_sharding(out_sharding, "jnp.zeros")
    return lax.full(_shape(shape), 0, _fill_dtype(dtype, "zeros", shape), sharding=out_sharding)


@_placed
def ones(shape: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Array:
    """An array of ones (float by default)."""
    checked_out_sharding(out_sharding, "jnp.ones")
    return lax.full(_shape(shape), 1, _fill_dtype(dtype, "ones", shape), sharding=out_sharding)


@_placed
def empty(shape: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Array:
    """An array whose contents do not matter: zeros, as JAX makes it."""
    checked_out_sharding(out_sharding, "jnp.zeros")  # as JAX's, made by ``zeros``
    return lax.full(_shape(shape), 0, _fill_dtype(dtype, "empty", shape), sharding=out_sharding)


def _broadcast_fill(fill: Any, shape: tuple[int, ...]) -> Any:
    """An array fill value broadcast to ``shape`` by NumPy's rules, with JAX's errors."""
    aval = get_aval(fill)
    if aval.shape == shape:
        return fill
    if aval.ndim > len(shape):
        raise ValueError(f"Cannot broadcast to shape with fewer dimensions: arr_shape={aval.shape} shape={shape}")
    dims = tuple(range(len(shape) - aval.ndim, len(shape)))
    if any(size not in (1, shape[dim]) for size, dim in zip(aval.shape, dims)):
        raise ValueError(f"Incompatible types for broadcasting: input type={aval.str_short()} and requested type="
                         f"{aval.update(shape=shape).str_short()}")
    return lax.broadcast_in_dim(fill, shape, dims)


@_placed
def full(shape: Any, fill_value: Any, dtype: Any = None, *, device: Any = None, out_sharding: Any = None) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (a scalar, or an array broadcast to ``shape``)."""
    check_arraylike("full", fill_value)
    checked_out_sharding(out_sharding, "full")
    shape = _shape(shape)
    dtype = requested_dtype(dtype, "full", 3)
    if ndim(fill_value) == 0:
        return lax.full(shape, fill_value, dtype, sharding=out_sharding)
    return _broadcast_fill(asarray(fill_value, dtype), shape)


def _check_like(fun_name: str, a: Any) -> None:
    """``a`` is an array-like or has a shape and a dtype (a ShapeDtypeStruct), or JAX's TypeError."""
    if not (hasattr(a, "shape") and hasattr(a, "dtype")):
        check_arraylike(fun_name, a)


def _like_shape(a: Any, shape: Any) -> tuple[int, ...]:
    return tuple(np.shape(a) if not hasattr(a, "shape") else a.shape) if shape is None else _shape(shape)


def _given_shape(shape: Any) -> tuple[int, ...] | None:
    """A ``*_like`` function's ``shape`` as ``lax.full_like`` takes it (None, as JAX passes it, for ``a``'s)."""
    return None if shape is None else _shape(shape)


@_placed
def full_like(a: Any, fill_value: Any, dtype: Any = None, shape: Any = None, *, device: Any = None,
              out_sharding: Any = None) -> Array:
    """An array with ``a``'s shape and dtype (or ``shape``/``dtype``) filled with ``fill_value``."""
    _check_like("full_like", a)
    check_arraylike("full_like", fill_value)
    checked_out_sharding(out_sharding, "full_like")
    dtype = requested_dtype(dtype, "full_like", 3)
    out_shape = _like_shape(a, shape)
    if ndim(fill_value):
        fill = asarray(fill_value, dtypes.dtype(a) if dtype is None else dtype)
        return _broadcast_fill(fill, out_shape)
    return lax.full_like(a, fill_value, dtype, _given_shape(shape), out_sharding)


@_placed
def zeros_like(a: Any, dtype: Any = None, shape: Any = None, *, device: Any = None,
               out_sharding: Any = None) -> Array:
    """Zeros with ``a``'s shape and dtype (or ``shape``/``dtype``); weakly typed where ``a`` is."""
    _check_like("zeros_like", a)
    checked_out_sharding(out_sharding, "jnp.zeros_like")
    return lax.full_like(a, 0, requested_dtype(dtype, "zeros_like", 3), _given_shape(shape), out_sharding)


@_placed
def ones_like(a: Any, dtype: Any = None, shape: Any = None, *, device: Any = None,
              out_sharding: Any = None) -> Array:
    """Ones with ``a``'s shape and dtype (or ``shape``/``dtype``); weakly typed where ``a`` is."""
    _check_like("ones_like", a)
    checked_out_sharding(out_sharding, "jnp.ones_like")
    return lax.full_like(a, 1, requested_dtype(dtype, "ones_like", 3), _given_shape(shape), out_sharding)


@_placed
def empty_like(prototype: Any, dtype: Any = None, shape: Any = None, *, device: Any = None) -> Array:
    """An array like ``prototype`` whose contents do not matter: zeros, as JAX makes it."""
    _check_like("empty_like", prototype)
    return lax.full_like(prototype, 0, requested_dtype(dtype, "empty_like", 3), _given_shape(shape))
