"""Concrete arrays: the ``Array`` base class and the reference backend's array."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, aval_handlers


class Array:
    """Base class of every concrete jaxle array (``jax.Array``), whatever the backend.

    Subclasses provide ``aval`` and ``_value`` (a NumPy array, possibly computed
    lazily); operators and array methods are installed by ``jaxle_core.lax``.
    """

    __slots__ = ()
    __array_priority__ = 100

    @property
    def aval(self) -> ShapedArray:
        raise NotImplementedError

    @property
    def _value(self) -> np.ndarray:
        raise NotImplementedError

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)
    size = property(lambda self: self.aval.size)
    weak_type = property(lambda self: self.aval.weak_type)
    itemsize = property(lambda self: self.aval.dtype.itemsize)
    nbytes = property(lambda self: self.aval.size * self.aval.dtype.itemsize)

    def __array__(self, dtype=None, copy=None):
        value = self._value
        return value if dtype is None else value.astype(dtype)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __complex__(self) -> complex:
        return complex(self._value)

    def __index__(self) -> int:
        if not np.issubdtype(self.dtype, np.integer) and self.dtype != np.bool_:
            raise TypeError(f"Only integer scalar arrays can be converted to a scalar index, got {self.dtype}.")
        return int(self._value)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if not self.shape:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __hash__(self):
        raise TypeError("unhashable type: 'Array'. Arrays are mutable-looking values and cannot be hashed; "
                        "use a tuple or a static argument instead.")

    def __setitem__(self, index, value):
        raise TypeError(
            "JAX arrays are immutable and do not support in-place item assignment. Instead of x[idx] = y, use "
            "x = x.at[idx].set(y) or another .at[] method: https://docs.jax.dev/en/latest/_autosummary/"
            "jax.numpy.ndarray.at.html")

    def item(self, *args) -> Any:
        return self._value.item(*args)

    def tolist(self) -> Any:
        return self._value.tolist()

    def __repr__(self) -> str:
        return array_repr(self._value, self.dtype, self.weak_type)

    def __str__(self) -> str:
        return str(self._value)

    def __format__(self, spec: str) -> str:
        return format(self._value.item(), spec) if self.ndim == 0 else format(str(self), spec)

    def block_until_ready(self) -> Array:
        return self

    def __reduce__(self):
        return (_rebuild_array, (np.asarray(self._value), self.weak_type))


def _rebuild_array(value: np.ndarray, weak_type: bool) -> Array:
    from jaxle_core.backend import current_backend

    return current_backend().device_put(value, weak_type=weak_type)


_NUMPY_REPR_TAIL = re.compile(r",\s*(shape=\([^)]*\))?,?\s*(dtype=\w+)?\s*$")


def array_repr(value: np.ndarray, dtype: np.dtype, weak_type: bool) -> str:
    """``Array([0., 1.], dtype=float32)``, laid out as NumPy lays out its arrays."""
    suffix = f"dtype={dtype.name}" + (", weak_type=True" if weak_type else "")
    if value.size == 0 and value.shape != (0,):
        return f"Array([], shape={value.shape}, {suffix})"
    # NumPy's own repr lays the numbers out; keep its body, give it our name and dtype.
    body = _NUMPY_REPR_TAIL.sub("", np.array_repr(value)[len("array("):-1])
    return f"Array({body}, {suffix})"


class ReferenceArray(Array):
    """An array held in host memory by the NumPy reference backend."""

    __slots__ = ("_aval", "_np")

    def __init__(self, value: np.ndarray, weak_type: bool = False):
        self._np = value
        self._aval = ShapedArray(value.shape, value.dtype, weak_type)

    @property
    def aval(self) -> ShapedArray:
        return self._aval

    @property
    def _value(self) -> np.ndarray:
        return self._np


aval_handlers[ReferenceArray] = lambda x: x.aval
dtypes.register_uncanonicalized_type(Array)
