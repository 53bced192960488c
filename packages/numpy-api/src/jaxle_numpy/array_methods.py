"""The NumPy methods and properties of arrays and tracers, installed through core's hook.

Each method delegates to the jnp function of the same name (``x.sum(...)`` is ``jnp.sum(x, ...)``), with JAX's
signatures; what is particular to methods lives here: ``view``, ``byteswap``, ``flat``, ``__contains__``, the array
API namespace and the copies.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.core import Tracer, concrete_value
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.operators import install_array_methods
from jaxle_numpy import (
    creation,
    cumulative,
    indexing,
    manipulation,
    products,
    reductions,
    selection,
    sorting,
    ufuncs,
)

__all__: list[str] = []

_ARRAY_API_VERSIONS = ["2024.12"]


# ---------------------------------------------------------------- reductions and cumulative functions


def _sum(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None, promote_integers=True):
    # JAX 0.10.2's method does not pass ``initial`` on: it is ignored, as there
    return reductions.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where,
                          promote_integers=promote_integers)


def _prod(self, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=None, promote_integers=True):
    return reductions.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial, where=where,
                           promote_integers=promote_integers)


def _max(self, axis=None, out=None, keepdims=False, initial=None, where=None):
    return reductions.max(self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)


def _min(self, axis=None, out=None, keepdims=False, initial=None, where=None):
    return reductions.min(self, axis=axis, out=out, keepdims=keepdims, initial=initial, where=where)


def _all(self, axis=None, out=None, keepdims=False, *, where=None):
    return reductions.all(self, axis=axis, out=out, keepdims=keepdims, where=where)


def _any(self, axis=None, out=None, keepdims=False, *, where=None):
    return reductions.any(self, axis=axis, out=out, keepdims=keepdims, where=where)


def _mean(self, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    return reductions.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where)


def _var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None):
    return reductions.var(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where,
                          correction=correction)


def _std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None):
    return reductions.std(self, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where,
                          correction=correction)


def _argmax(self, axis=None, out=None, keepdims=None):
    return reductions.argmax(self, axis=axis, out=out, keepdims=keepdims)


def _argmin(self, axis=None, out=None, keepdims=None):
    return reductions.argmin(self, axis=axis, out=out, keepdims=keepdims)


def _ptp(self, axis=None, out=None, keepdims=False):
    return reductions.ptp(self, axis=axis, out=out, keepdims=keepdims)


def _cumsum(self, axis=None, dtype=None, out=None):
    return cumulative.cumsum(self, axis=axis, dtype=dtype, out=out)


def _cumprod(self, axis=None, dtype=None, out=None):
    return cumulative.cumprod(self, axis=axis, dtype=dtype, out=out)


# ---------------------------------------------------------------- shapes and dtypes


def _reshape(self, *args, order="C", out_sharding=None):
    """``x.reshape(2, 3)`` and ``x.reshape((2, 3))``."""
    shape = args[0] if len(args) == 1 and not isinstance(args[0], (int, np.integer)) else args
    return manipulation.reshape(self, shape, order=order, out_sharding=out_sharding)


def _ravel(self, order="C", *, out_sharding=None):
    return manipulation.ravel(self, order=order, out_sharding=out_sharding)


def _transpose(self, *args):
    """``x.transpose()``, ``x.transpose(1, 0)`` and ``x.transpose((1, 0))``."""
    axes = args[0] if len(args) == 1 and (args[0] is None or isinstance(args[0], (tuple, list))) else args or None
    return manipulation.transpose(self, axes)


def _squeeze(self, axis=None):
    return manipulation.squeeze(self, axis)


def _swapaxes(self, axis1, axis2):
    return manipulation.swapaxes(self, axis1, axis2)


def _diagonal(self, offset=0, axis1=0, axis2=1):
    return manipulation.diagonal(self, offset, axis1, axis2)


def _repeat(self, repeats, axis=None, *, total_repeat_length=None, out_sharding=None):
    return manipulation.repeat(self, repeats, axis, total_repeat_length=total_repeat_length,
                               out_sharding=out_sharding)


def _astype(self, dtype, copy=False, device=None):
    return manipulation.astype(self, dtype, copy=copy, device=device)


def _view(self, dtype=None, type=None):  # noqa: A002 - NumPy's argument name
    """The same bits read as ``dtype``; a different item size changes the last dimension."""
    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self
    aval = get_aval(self)
    new = dtypes.canonicalize_dtype(dtypes.dtype(dtype))
    x = self
    if aval.dtype == np.bool_:
        x = lax_structural.convert_element_type(x, np.uint8)
    target = np.dtype(np.uint8) if new == np.bool_ else new
    old_size, new_size = get_aval(x).dtype.itemsize, target.itemsize
    shape = aval.shape
    if old_size != new_size:
        if not shape:
            raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
        if (shape[-1] * old_size) % new_size:
            raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size in "
                             "bytes of the last axis of the array.")
    if old_size > new_size:
        x = lax_structural.bitcast_convert_type(x, target)
        x = lax_structural.reshape(x, shape[:-1] + (shape[-1] * old_size // new_size,))
    elif old_size < new_size:
        ratio = new_size // old_size
        x = lax_structural.reshape(x, shape[:-1] + (shape[-1] // ratio, ratio))
        x = lax_structural.bitcast_convert_type(x, target)
    elif get_aval(x).dtype != target:
        x = lax_structural.bitcast_convert_type(x, target)
    if new == np.bool_:
        x = lax_structural.convert_element_type(x, np.bool_)
    return x


def _byteswap(self):
    """The array with the bytes of each element in reverse order."""
    aval = get_aval(self)
    size = aval.dtype.itemsize
    if size == 1 or aval.size == 0:
        return self
    as_bytes = lax_structural.bitcast_convert_type(self, np.uint8)  # one more dimension, of the item size
    swapped = lax_structural.rev(as_bytes, (aval.ndim,))
    return lax_structural.bitcast_convert_type(swapped, aval.dtype)


# ---------------------------------------------------------------- sorting, products and selection


def _sort(self, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    return sorting.sort(self, axis, kind=kind, order=order, stable=stable, descending=descending)


def _argsort(self, axis=-1, *, kind=None, order=None, stable=True, descending=False):
    return sorting.argsort(self, axis, kind=kind, order=order, stable=stable, descending=descending)


def _argpartition(self, kth, axis=-1):
    return sorting.argpartition(self, kth, axis)


def _searchsorted(self, v, side="left", sorter=None, *, method="scan"):
    return sorting.searchsorted(self, v, side=side, sorter=sorter, method=method)


def _dot(self, b, *, precision=None, preferred_element_type=None):
    return products.dot(self, b, precision=precision, preferred_element_type=preferred_element_type)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    return products.trace(self, offset, axis1, axis2, dtype, out)


def _take(self, indices, axis=None, out=None, mode=None, unique_indices=False, indices_are_sorted=False,
          fill_value=None):
    return selection.take(self, indices, axis=axis, out=out, mode=mode, unique_indices=unique_indices,
                          indices_are_sorted=indices_are_sorted, fill_value=fill_value)


def _nonzero(self, *, fill_value=None, size=None):
    return selection.nonzero(self, size=size, fill_value=fill_value)


def _compress(self, condition, axis=None, *, out=None, size=None, fill_value=0):
    return selection.compress(condition, self, axis, size=size, fill_value=fill_value, out=out)


def _choose(self, choices, out=None, mode="raise"):
    return selection.choose(self, choices, out=out, mode=mode)


# ---------------------------------------------------------------- elementwise


def _clip(self, min=None, max=None):  # noqa: A002 - NumPy's argument names
    return ufuncs.clip(self, min=min, max=max)  # keywords: the jit orders them by name, as JAX's


def _round(self, decimals=0, out=None):
    return ufuncs.round(self, decimals, out)


def _python_round(number, ndigits=None):
    """``round(x)``: an integer array (rounded half to even; a complex ``x`` warns as ``astype`` does, as in JAX);
    ``round(x, n)`` keeps the dtype."""
    if ndigits is None:
        return manipulation.astype(ufuncs.round(number), dtypes.default_int_dtype())
    return ufuncs.round(number, ndigits)


def _conjugate(self):
    return ufuncs.conjugate(self)


# ---------------------------------------------------------------- Python protocols


def _copy(self):
    return creation.copy(self)


def _deepcopy(self, memo: Any):
    del memo
    return creation.copy(self)


def _contains(self, other):
    """``other in x`` for a one-dimensional ``x``: whether some element equals it."""
    shape = get_aval(self).shape
    if len(shape) != 1:
        raise ValueError(f"Array.__contains__: search array must be one-dimensional, got arr.shape={shape}.")
    return reductions.any(self == other)


def _array_namespace(self, *, api_version: str | None = None):
    """The array API namespace of jaxle arrays: ``jaxle_numpy``."""
    if api_version is not None and api_version not in _ARRAY_API_VERSIONS:
        raise ValueError(f"{api_version=!r} is not available; available versions are: {_ARRAY_API_VERSIONS}")
    return sys.modules["jaxle_numpy"]


_array_item = Array.item


def _item(self, *args):
    """The element at ``args`` (a flat index or one per dimension) as a Python scalar; concrete arrays only."""
    if isinstance(self, Tracer):  # its value may be known while it is traced (eagerly under grad, say)
        value = concrete_value(self)
        if value is None:
            raise self.concretization_error("This occurred in the item() method of jax.Array")
        return np.asarray(value).item(*args)
    return _array_item(self, *args)


def _flat(self):
    raise NotImplementedError("JAX Arrays do not implement the arr.flat property: consider arr.flatten() instead.")


install_array_methods({
    "__getitem__": indexing.getitem,
    "at": property(indexing.at),
    "sum": _sum, "prod": _prod, "max": _max, "min": _min, "all": _all, "any": _any, "mean": _mean, "var": _var,
    "std": _std, "argmax": _argmax, "argmin": _argmin, "ptp": _ptp, "cumsum": _cumsum, "cumprod": _cumprod,
    "reshape": _reshape, "ravel": _ravel, "flatten": _ravel, "transpose": _transpose, "squeeze": _squeeze,
    "swapaxes": _swapaxes, "diagonal": _diagonal, "repeat": _repeat, "astype": _astype, "view": _view,
    "byteswap": _byteswap,
    "T": property(lambda self: manipulation.transpose(self)),
    "mT": property(lambda self: manipulation.matrix_transpose(self)),
    "sort": _sort, "argsort": _argsort, "argpartition": _argpartition, "searchsorted": _searchsorted,
    "dot": _dot, "trace": _trace, "take": _take, "nonzero": _nonzero, "compress": _compress, "choose": _choose,
    "copy": _copy, "__copy__": _copy, "__deepcopy__": _deepcopy, "__contains__": _contains,
    "__array_namespace__": _array_namespace, "item": _item,
    "clip": _clip, "round": _round, "__round__": _python_round, "conj": _conjugate, "conjugate": _conjugate,
    "real": property(ufuncs.real), "imag": property(ufuncs.imag), "flat": property(_flat),
    "__numpy_dtype__": property(lambda self: get_aval(self).dtype),
    "itemsize": property(lambda self: get_aval(self).dtype.itemsize),
    "nbytes": property(lambda self: get_aval(self).size * get_aval(self).dtype.itemsize),
})
