"""Sorting: sort over several operands, and top_k."""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, canonicalize_shape, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.standard import normalize_axis

__all__ = ["sort", "sort_key_val", "sort_p", "top_k", "top_k_p"]


def _float_parts(x: np.ndarray, signed_nan: bool) -> list[np.ndarray]:
    """Ascending sort keys (primary first) for a real float array.

    sort's order (``signed_nan=False``) treats -0.0 equal to +0.0 and puts every NaN last; top_k's order
    (``signed_nan=True``) is XLA's total order: -NaN < -inf < ... < -0.0 < +0.0 < ... < inf < +NaN.
    """
    x = x.astype(np.float64)
    nan = np.isnan(x)
    value = np.where(nan, 0.0, x)
    if not signed_nan:
        return [nan, value]
    nan_class = np.where(nan, np.where(np.signbit(x), 0, 2), 1)
    return [nan_class, value, ~np.signbit(value)]


def _sort_keys(x: np.ndarray, signed_nan: bool = False) -> list[np.ndarray]:
    if np.iscomplexobj(x):
        return _float_parts(x.real, signed_nan) + _float_parts(x.imag, signed_nan)
    if dtypes.issubdtype(x.dtype, np.floating):
        return _float_parts(x, signed_nan)
    return [x]


def stable_order(keys: Sequence[np.ndarray]) -> np.ndarray:
    """Indices that stably sort the last axis ascending by ``keys`` (primary key first)."""
    if not keys[0].shape or keys[0].shape[-1] == 0:
        return np.zeros(keys[0].shape, np.intp)
    return np.lexsort(list(reversed(keys)), axis=-1)


# ---------------------------------------------------------------- sort

sort_p = Primitive("sort")
sort_p.multiple_results = True


@sort_p.def_abstract_eval
def _sort_aval(*operands, dimension, is_stable, num_keys):
    if len({o.shape for o in operands}) != 1:
        raise TypeError(f"Arguments to sort must have equal shapes, got: {' '.join(str(o.shape) for o in operands)}")
    if not 1 <= num_keys <= len(operands):
        raise ValueError(f"num_keys={num_keys} must be between 1 and len(operand)={len(operands)}")
    if not 0 <= dimension < operands[0].ndim:
        raise ValueError(f"dimension {dimension} is out of bounds for array of dimension {operands[0].ndim}")
    return [ShapedArray(o.shape, o.dtype, o.weak_type) for o in operands]


@sort_p.def_impl
def _sort_impl(*operands, dimension, is_stable, num_keys):
    moved = [np.moveaxis(o, dimension, -1) for o in operands]
    keys = [part for key in moved[:num_keys] for part in _sort_keys(key)]
    order = stable_order(keys)
    return [np.moveaxis(np.take_along_axis(m, order, axis=-1), -1, dimension) for m in moved]


def sort(operand, dimension: int = -1, is_stable: bool = True, num_keys: int = 1):
    """Sort ``operand`` (an array, or a sequence sorted together by its first ``num_keys`` arrays) along
    ``dimension``. NaNs sort last and -0.0 equals +0.0."""
    if isinstance(operand, Sequence):
        if not operand:
            raise TypeError("Sort requires at least one operand")
        if not 1 <= num_keys <= len(operand):
            raise ValueError(f"num_keys={num_keys} must be between 1 and len(operand)={len(operand)}")
        ndim = get_aval(operand[0]).ndim
        dimension = normalize_axis(dimension, ndim)
        return tuple(sort_p.bind(*operand, dimension=dimension, is_stable=is_stable, num_keys=num_keys))
    if num_keys != 1:
        raise ValueError(f"num_keys={num_keys} must equal 1 for a single operand.")
    dimension = normalize_axis(dimension, get_aval(operand).ndim)
    return sort_p.bind(operand, dimension=dimension, is_stable=is_stable, num_keys=1)[0]


def sort_key_val(keys, values, dimension: int = -1, is_stable: bool = True):
    """Sort ``keys`` along ``dimension``, permuting ``values`` the same way."""
    dimension = normalize_axis(dimension, get_aval(keys).ndim)
    sorted_keys, sorted_values = sort_p.bind(keys, values, dimension=dimension, is_stable=is_stable, num_keys=1)
    return sorted_keys, sorted_values


# ---------------------------------------------------------------- top_k

top_k_p = Primitive("top_k")
top_k_p.multiple_results = True


@top_k_p.def_abstract_eval
def _top_k_aval(operand, *, k, axis):
    if dtypes.issubdtype(operand.dtype, np.complexfloating):
        raise ValueError("top_k is not compatible with complex inputs.")
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    if not 0 <= axis < operand.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {operand.ndim}")
    if operand.shape[axis] < k:
        raise ValueError(f"k argument to top_k must be no larger than size along axis; got k={k} with "
                         f"shape={list(operand.shape)} and axis={axis}")
    shape = operand.shape[:axis] + (k,) + operand.shape[axis + 1:]
    # JAX marks the indices weakly typed too when the operand is.
    return [ShapedArray(shape, operand.dtype, operand.weak_type), ShapedArray(shape, np.int32, operand.weak_type)]


@top_k_p.def_impl
def _top_k_impl(operand, *, k, axis):
    moved = np.moveaxis(operand, axis, -1)
    n = moved.shape[-1]
    # Descending, ties by ascending index: an ascending stable sort of the reversed axis, read backwards.
    flipped_order = stable_order(_sort_keys(moved[..., ::-1], signed_nan=True))[..., ::-1]
    index = (n - 1 - flipped_order)[..., :k]
    values = np.take_along_axis(moved, index, axis=-1)
    return [np.moveaxis(values, -1, axis), np.moveaxis(index, -1, axis).astype(np.int32)]


def top_k(operand, k: int, *, axis: int = -1):
    """The ``k`` largest entries along ``axis`` and their int32 indices, largest first (ties: lowest index)."""
    shape = get_aval(operand).shape
    if not isinstance(k, (int, np.integer)):
        canonicalize_shape([*shape[:-1], k])  # JAX meets a float k while forming the result's shape
    k = operator.index(k)
    if k < 0:
        raise ValueError(f"k argument to top_k must be nonnegative, got {k}")
    axis = normalize_axis(axis, len(shape))
    values, indices = top_k_p.bind(operand, k=k, axis=axis)
    return values, indices
