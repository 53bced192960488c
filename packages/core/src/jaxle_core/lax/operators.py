"""Python operators and basic array methods for tracers and concrete arrays.

Operators follow NumPy's semantics as ``jax.numpy`` implements them: operands
are promoted to a common dtype (weak types respected), lower-rank operands get
leading size-1 dimensions, and the lax primitive does the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import core, dtypes
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.backend import current_backend
from jaxle_core.core import Tracer
from jaxle_core.extended import ExtendedArray
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import dot_general

_PYTHON_SCALARS = (bool, int, float, complex)


def _as_weak_scalar(x: Any, dtype: np.dtype) -> Any:
    """The Python scalar ``x`` as a weakly typed constant of ``dtype``."""
    if get_aval(x).dtype == dtype:
        return x
    return lax_structural.convert_keeping_weak_type(x, dtype, True)


def promote_dtypes(*args: Any) -> list[Any]:
    """Convert ``args`` to their common dtype (weak types respected), as jnp does."""
    for x in args:
        get_aval(x)  # raises JAX's TypeError for values that are not arrays
    dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    converted = []
    for x in args:
        if type(x) in _PYTHON_SCALARS:
            converted.append(_as_weak_scalar(x, dtype))
            continue
        aval = get_aval(x)
        if aval.dtype != dtype or aval.weak_type != weak:
            x = lax_structural.convert_keeping_weak_type(x, dtype, weak)
        converted.append(x)
    return converted


def promote_ranks(args: Sequence[Any]) -> list[Any]:
    """``args`` given leading size-1 dimensions up to the largest rank (0-d operands are left alone)."""
    ndim = max((get_aval(x).ndim for x in args), default=0)
    result = []
    for x in args:
        shape = get_aval(x).shape
        if 0 < len(shape) < ndim:
            rank = len(shape)
            x = lax_structural.broadcast_in_dim(x, (1,) * (ndim - rank) + shape, tuple(range(ndim - rank, ndim)))
        result.append(x)
    return result


def promote(*args: Any) -> list[Any]:
    """Convert ``args`` to their common dtype and rank, as jnp's binary ufuncs do."""
    return promote_ranks(promote_dtypes(*args))


def _scalar_joins_without_promotion(x: Any, y: Any) -> bool:
    """Whether the Python scalar ``y`` simply takes ``x``'s dtype (a float/complex array with an int or float, or
    an integer array with an int): the common ``x * 2`` case, which needs none of the general promotion."""
    kind = x.aval.dtype.kind
    return (type(y) is float and kind in "fc") or (type(y) is int and kind in "fciu")


def _binary(lax_fn):
    def apply(x, y):
        if _scalar_joins_without_promotion(x, y):
            return lax_fn(x, _as_weak_scalar(y, x.aval.dtype))
        if not _is_operand(y):
            return NotImplemented
        return lax_fn(*promote(x, y))

    def reflected(x, y):
        if _scalar_joins_without_promotion(x, y):
            return lax_fn(_as_weak_scalar(y, x.aval.dtype), x)
        if not _is_operand(y):
            return NotImplemented
        return lax_fn(*promote(y, x))

    return apply, reflected


def _is_operand(x: Any) -> bool:
    return isinstance(x, (Tracer, Array, np.ndarray, np.generic) + _PYTHON_SCALARS)


def _true_divide(x, y):
    dtype = get_aval(x).dtype
    if not dtypes.issubdtype(dtype, np.inexact):
        float_dtype = dtypes.default_float_dtype()
        weak = get_aval(x).weak_type
        x = lax_structural.convert_keeping_weak_type(x, float_dtype, weak)
        y = lax_structural.convert_keeping_weak_type(y, float_dtype, get_aval(y).weak_type)
    return lax_elementwise.div(x, y)


def _floor_divide(x, y):
    if dtypes.issubdtype(get_aval(x).dtype, np.integer):
        quotient = lax_elementwise.div(x, y)
        remainder = lax_elementwise.rem(x, y)
        signs_differ = lax_elementwise.ne(lax_elementwise.sign(x), lax_elementwise.sign(y))
        adjust = lax_elementwise.bitwise_and(signs_differ, lax_elementwise.ne(remainder, _zero_like(remainder)))
        return lax_structural.select_n(adjust, quotient, lax_elementwise.sub(quotient, _one_like(quotient)))
    return lax_elementwise.floor(lax_elementwise.div(x, y))


def _mod(x, y):
    remainder = lax_elementwise.rem(x, y)
    zero = _zero_like(remainder)
    signs_differ = lax_elementwise.ne(lax_elementwise.lt(remainder, zero), lax_elementwise.lt(y, _zero_like(y)))
    fix = lax_elementwise.bitwise_and(lax_elementwise.ne(remainder, zero), signs_differ)
    return lax_structural.select_n(fix, remainder, lax_elementwise.add(remainder, y))


def _zero_like(x):
    return np.zeros((), get_aval(x).dtype)


def _one_like(x):
    return np.ones((), get_aval(x).dtype)


def _pow_operator(x, y):
    if type(y) is int and not isinstance(x, bool):
        return lax_elementwise.integer_pow(x, y)
    if not _is_operand(y):
        return NotImplemented
    return lax_elementwise.pow(*promote(x, y))


def _shift_right(x, y):
    if dtypes.issubdtype(get_aval(x).dtype, np.unsignedinteger):
        return lax_elementwise.shift_right_logical(x, y)
    return lax_elementwise.shift_right_arithmetic(x, y)


def _matmul(x, y):
    x, y = promote_dtypes(x, y)
    x_aval, y_aval = get_aval(x), get_aval(y)
    if x_aval.ndim == 0 or y_aval.ndim == 0:
        raise ValueError("matmul: inputs must be at least 1-dimensional; use * to multiply by a scalar.")
    if x_aval.ndim > 2 or y_aval.ndim > 2:
        raise NotImplementedError("matmul of arrays with more than 2 dimensions needs jaxle.numpy.matmul")
    contracting = ((x_aval.ndim - 1,), (0,))
    return dot_general(x, y, (contracting, ((), ())), preferred_element_type=x_aval.dtype)


# ---------------------------------------------------------------- indexing


def getitem(x, index):
    """Basic indexing: integers, slices, ``None`` and ``...``. As in JAX, an integer out of range is clamped
    into it (the index is applied as a dynamic one) rather than raising IndexError."""
    shape = get_aval(x).shape
    index = lax_slicing.expand_index(index, len(shape))
    if any(not isinstance(i, (int, np.integer, slice, type(None))) for i in index):
        return lax_slicing.index_with_arrays(x, index)
    starts, limits, strides, squeezed, new_axes, reversed_dims = [], [], [], [], [], []
    dim = 0
    out_dim = 0
    for i in index:
        if i is None:
            new_axes.append(out_dim)
            out_dim += 1
            continue
        size = shape[dim]
        if isinstance(i, slice):
            start, stop, step = i.indices(size)
            if step < 0:
                reversed_dims.append(dim)
                start, stop, step = size - 1 - start, size - 1 - stop, -step
            count = max(0, (stop - start + step - 1) // step)
            starts.append(start)
            limits.append(start + (count - 1) * step + 1 if count else start)
            strides.append(step)
            out_dim += 1
        else:
            if not -size <= i < size:
                return lax_slicing.index_with_arrays(x, index)
            start = int(i) % size
            starts.append(start)
            limits.append(start + 1)
            strides.append(1)
            squeezed.append(dim)
        dim += 1
    if reversed_dims:
        x = lax_structural.rev(x, tuple(reversed_dims))
    if starts != [0] * len(shape) or limits != list(shape) or any(s != 1 for s in strides):
        x = lax_slicing.slice(x, starts, limits, None if all(s == 1 for s in strides) else strides)
    if squeezed:
        x = lax_structural.squeeze(x, squeezed)
    if new_axes:
        kept = get_aval(x).shape
        out_shape = list(kept)
        for axis in new_axes:
            out_shape.insert(axis, 1)
        dims = [d for d in range(len(out_shape)) if d not in new_axes]
        x = lax_structural.broadcast_in_dim(x, out_shape, dims)
    return x


# ---------------------------------------------------------------- methods


def _iterate(x):
    """The rows of ``x``, each as JAX traces it: a unit-stride slice then a squeeze."""
    shape = get_aval(x).shape
    if not shape:
        raise TypeError("iteration over a 0-d array")
    if _split_over_devices(x):
        # as JAX's: each row read back and put uncommitted on the default device
        values = np.asarray(x)
        return (current_backend().device_put(values[i]) for i in range(shape[0]))
    rest = shape[1:]
    return (lax_structural.squeeze(lax_slicing.slice(x, (i,) + (0,) * len(rest), (i + 1,) + rest, (1,) * len(shape)),
                                   (0,))
            for i in range(shape[0]))


def _split_over_devices(x) -> bool:
    """Whether ``x`` is an array (not a tracer, nor an array of keys) over several devices that not all hold whole
    (an uncommitted one is on one device)."""
    if not isinstance(x, Array) or isinstance(x, ExtendedArray) or not getattr(x, "committed", False):
        return False
    sharding = getattr(x, "sharding", None)
    return sharding is not None and len(sharding.device_set) > 1 and not sharding.is_fully_replicated


def _astype(x, dtype):
    return lax_structural.convert_element_type(x, dtypes.dtype(dtype, requested_in="astype"))


def _reshape(x, *shape, order="C"):
    if order != "C":
        raise NotImplementedError("jaxle arrays only reshape in C order")
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    size = get_aval(x).size
    if shape.count(-1) > 1:
        raise ValueError("can only specify one unknown dimension")
    if -1 in shape:
        known = int(np.prod([d for d in shape if d != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise TypeError(f"cannot reshape array of shape {get_aval(x).shape} (size {size}) into shape {shape}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    return lax_structural.reshape(x, shape)


def _transpose(x, *axes):
    ndim = get_aval(x).ndim
    if not axes or axes == (None,):
        axes = tuple(reversed(range(ndim)))
    elif len(axes) == 1 and isinstance(axes[0], (tuple, list)):
        axes = tuple(axes[0])
    return lax_structural.transpose(x, tuple(a % ndim for a in axes))


_METHODS: dict[str, Any] = {
    "__neg__": lax_elementwise.neg,
    "__pos__": lambda x: x,
    "__abs__": lax_elementwise.abs,
    "__invert__": lax_elementwise.bitwise_not,
    "__getitem__": getitem,
    "__setitem__": Array.__setitem__,  # immutable, traced or not
    "__iter__": _iterate,
    "__matmul__": _matmul,
    "__rmatmul__": lambda x, y: _matmul(y, x),
    "__pow__": _pow_operator,
    "__rpow__": lambda x, y: lax_elementwise.pow(*promote(y, x)),
    "astype": _astype,
    "reshape": _reshape,
    "transpose": _transpose,
    "T": property(lambda x: _transpose(x)),
    "mT": property(lambda x: _transpose(x, *range(get_aval(x).ndim - 2), get_aval(x).ndim - 1,
                                         get_aval(x).ndim - 2)),
}
for _name, _fn in [("add", lax_elementwise.add), ("sub", lax_elementwise.sub), ("mul", lax_elementwise.mul),
                   ("truediv", _true_divide), ("floordiv", _floor_divide), ("mod", _mod),
                   ("and", lax_elementwise.bitwise_and),
                   ("or", lax_elementwise.bitwise_or), ("xor", lax_elementwise.bitwise_xor),
                   ("lshift", lax_elementwise.shift_left), ("rshift", _shift_right)]:
    _METHODS[f"__{_name}__"], _METHODS[f"__r{_name}__"] = _binary(_fn)
for _name in ["eq", "ne", "lt", "le", "gt", "ge"]:
    _METHODS[f"__{_name}__"] = _binary(getattr(lax_elementwise, _name))[0]
_METHODS["__divmod__"] = lambda x, y: (_METHODS["__floordiv__"](x, y), _METHODS["__mod__"](x, y))


def install_array_methods(methods: dict[str, Any]) -> None:
    """Give tracers and concrete arrays of every backend the operators, methods and properties in ``methods``.

    This is the hook through which a facade (jaxle-numpy) installs NumPy's array API without core importing it;
    a later call replaces what an earlier one installed under the same name.
    """
    for cls in (Tracer, Array):
        for name, method in methods.items():
            setattr(cls, name, _dispatching_on_aval(name, method) if cls is Tracer and name in _AVAL_DISPATCHED
                    else method)


_AVAL_DISPATCHED = frozenset({"__getitem__", "__setitem__"})


def _dispatching_on_aval(name: str, method: Any) -> Any:
    """``method`` for tracers of arrays, ``core.aval_methods``' for tracers of other abstract values (a traced
    reference's indexing)."""

    def dispatch(self, *args):
        own = core.aval_methods.get(type(self.aval))
        return (own[name] if own is not None and name in own else method)(self, *args)

    return dispatch


install_array_methods(_METHODS)
