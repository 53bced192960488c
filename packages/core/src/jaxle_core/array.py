"""Concrete arrays: the ``Array`` base class and the reference backend's array."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import AvalProperties, ShapedArray, aval_handlers


class Array(AvalProperties):
    """Base class of every concrete jaxle array (``jax.Array``), whatever the backend.

    Subclasses provide ``aval`` and ``_value`` (a NumPy array, possibly computed
    lazily); operators and array methods are installed by ``jaxle_core.lax``.
    """

    __slots__ = ()
    __array_priority__ = 100

    @property
    def _value(self) -> np.ndarray:
        raise NotImplementedError

    itemsize = property(lambda self: self.aval.dtype.itemsize)
    nbytes = property(lambda self: self.aval.size * self.aval.dtype.itemsize)

    def __array__(self, dtype=None, copy=None):
        value = self._value
        return value if dtype is None else value.astype(dtype)

    def __bool__(self) -> bool:
        return bool(self._value)

    def _scalar_value(self) -> np.ndarray:
        if self.ndim:
            raise TypeError(f"Only scalar arrays can be converted to Python scalars; got arr.ndim={self.ndim}")
        return self._value

    def __int__(self) -> int:
        return int(self._scalar_value())

    def __float__(self) -> float:
        return float(self._scalar_value())

    def __complex__(self) -> complex:
        return complex(self._scalar_value())

    def __index__(self) -> int:
        if self.ndim or not dtypes.issubdtype(self.dtype, np.integer):
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        return int(self._value)

    __hash__ = None  # arrays are not hashable, as in NumPy and JAX

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
        return format(self._value.item() if self.ndim == 0 else self._value, spec)

    def block_until_ready(self) -> Array:
        return self

    def __reduce__(self):
        return (_rebuild_array, (np.asarray(self._value), self.weak_type))


def _rebuild_array(value: np.ndarray, weak_type: bool) -> Array:
    from jaxle_core.backend import current_backend  # local: backend imports array

    return current_backend().device_put(value, weak_type=weak_type)


def array_repr(value: np.ndarray, dtype: np.dtype, weak_type: bool) -> str:
    """``Array([0., 1.], dtype=float32)``: NumPy lays out the numbers, the dtype follows as JAX writes it."""
    prefix = "Array("
    dtype_text = f"dtype={dtype.name}" + (", weak_type=True" if weak_type else "") + ")"
    if value.size == 0:
        return f"{prefix}[], shape={value.shape}, {dtype_text}"
    width = np.get_printoptions()["linewidth"]
    body = np.array2string(value, max_line_width=width, separator=", ", prefix=prefix, suffix=",")
    last_line = len(body) - body.rfind("\n") + 1
    # JAX keeps the dtype on the last line, set off by the prefix's width when that line is already long.
    gap = " " if last_line + len(dtype_text) + 1 <= width else " " * len(prefix)
    return f"{prefix}{body},{gap}{dtype_text}"


class ReferenceArray(Array):
    """An array held in host memory by the NumPy reference backend."""

    __slots__ = ("_aval", "_np", "_inline", "_python_scalar")

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
