"""Order statistics: quantile, percentile, median and their nan* forms.

As JAX does, the data are sorted along the reduced axis (several axes are first moved last and merged into one)
and the two elements around each fractional position ``q * (n - 1)`` are gathered and combined per ``method``.
The plain forms make a slice containing NaN all NaN; the nan* forms count the non-NaN elements instead (NaNs sort
last). ``inverted_cdf`` (the one method taking ``weights``) picks the first element whose cumulative weight reaches
``q`` of the total.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_core.axis_type_scopes import auto_axes
from jaxle_core.lax import GatherDimensionNumbers, GatherScatterMode
from jaxle_core.lax import operators as lax_operators
from jaxle_core.lax import structural as lax_structural
from jaxle_core.sharding_types import resolve_out_sharding
from jaxle_numpy import conditional
from jaxle_numpy.cumulative import cumsum
from jaxle_numpy.reductions import any as any_
from jaxle_numpy.reductions import broadcast_to_shape, sum
from jaxle_numpy.selection import take_along_axis
from jaxle_numpy.ufuncs import isnan
from jaxle_numpy.util import canonicalize_axis, check_arraylike, ensure_array, named_jit, promote_dtypes_inexact

__all__ = ["quantile", "nanquantile", "percentile", "nanpercentile", "median", "nanmedian"]

_METHODS = ("linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf")
AxisArg = int | tuple[int, ...] | None


def _merge_axes(a: Any, axis: AxisArg, keepdims: bool) -> tuple[Any, int, list[int] | None]:
    """``a`` with the reduced axes merged into one; (array, that axis, the shape keepdims restores or None)."""
    shape = get_aval(a).shape
    if axis is None:
        kept_shape = [1] * len(shape) if keepdims else None
        return lax.reshape(a, (math.prod(shape),)), 0, kept_shape
    if not isinstance(axis, tuple):
        return a, canonicalize_axis(axis, len(shape)), None
    ndim = len(shape)
    axes = tuple(canonicalize_axis(ax, ndim) for ax in axis)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    kept_shape = [1 if d in axes else size for d, size in enumerate(shape)]
    # Move the kept axes first (in order) by swapping, as JAX's permutation does, then merge the reduced ones.
    permutation = list(range(ndim))
    for position, kept in enumerate(d for d in range(ndim) if d not in axes):
        permutation[position], permutation[kept] = permutation[kept], permutation[position]
    kept_sizes = tuple(size for d, size in enumerate(shape) if d not in axes)
    merged = math.prod(size for d, size in enumerate(shape) if d in axes)
    a = lax.reshape(a, kept_sizes + (merged,), tuple(permutation))
    return a, len(kept_sizes), kept_shape


def _gather_along(a: Any, index: Any, axis: int, keepdims: bool) -> Any:
    """``a``'s elements at ``index`` (an integer array of q's shape) along ``axis``, for every other position."""
    shape = get_aval(a).shape
    q_ndim = get_aval(index).ndim
    slice_sizes = list(shape)
    slice_sizes[axis] = 1
    out_rank = len(shape) + q_ndim if keepdims else len(shape) + q_ndim - 1
    dnums = GatherDimensionNumbers(offset_dims=tuple(range(q_ndim, out_rank)),
                                   collapsed_slice_dims=() if keepdims else (axis,), start_index_map=(axis,))
    index = lax.broadcast_in_dim(index, get_aval(index).shape + (1,), tuple(range(q_ndim)))
    return lax.gather(a, index, dnums, tuple(slice_sizes), mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _index_along(a: Any, indices: list[Any]) -> Any:
    """``a[indices]`` for integer index arrays of one shape (one per dimension), staged as jnp indexing does."""
    shape = get_aval(a).shape
    index_shape = get_aval(indices[0]).shape
    if not index_shape:  # dynamic_slice wraps negative indices itself
        return lax.squeeze(lax.dynamic_slice(a, indices, (1,) * len(shape)), tuple(range(len(shape))))
    normalized = [lax.select_n(lax.lt(i, np.zeros((), get_aval(i).dtype)), i,
                               lax.add(i, np.array(size, get_aval(i).dtype))) for i, size in zip(indices, shape)]
    columns = [lax.broadcast_in_dim(i, index_shape + (1,), tuple(range(len(index_shape)))) for i in normalized]
    stacked = columns[0] if len(columns) == 1 else lax.concatenate(columns, len(index_shape))
    dnums = GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=tuple(range(len(shape))),
                                   start_index_map=tuple(range(len(shape))))
    return lax.gather(a, stacked, dnums, (1,) * len(shape), mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _combine(method: str, low_value: Any, high_value: Any, low_weight: Any, high_weight: Any) -> Any:
    if method == "linear":  # multiplied as jnp.multiply does: float16 data promoted to the weights' float32
        return lax.add(lax.mul(*lax_operators.promote_dtypes(low_value, low_weight)),
                       lax.mul(*lax_operators.promote_dtypes(high_value, high_weight)))
    if method == "lower":
        return low_value
    if method == "higher":
        return high_value
    if method == "nearest":
        return lax.select_n(lax.le(high_weight, np.array(0.5, get_aval(high_weight).dtype)), high_value, low_value)
    return lax.mul(lax.add(low_value, high_value), np.array(0.5, get_aval(low_value).dtype))


def _positions(q: Any, last: Any, clip: Callable[[Any, Any], Any]) -> tuple[Any, Any, Any, Any]:
    """(low index, high index, low weight, high weight) of the fractional positions ``q * last``."""
    one = np.array(1, get_aval(q).dtype)
    position = lax.mul(q, last())
    low, high = lax.floor(position), lax.ceil(position)
    high_weight = lax.sub(position, low)
    low_weight = lax.sub(one, high_weight)
    low, high = clip(low, last()), clip(high, last())
    index_dtype = dtypes.default_int_dtype()
    return lax.convert_element_type(low, index_dtype), lax.convert_element_type(high, index_dtype), low_weight, \
        high_weight


def _quantile(name: str, a: Any, q: Any, axis: AxisArg, method: str, keepdims: bool, squash_nans: bool,
              weights: Any) -> Any:
    if method not in _METHODS:
        raise ValueError("method can only be 'linear', 'lower', 'higher', 'midpoint', 'nearest' or 'inverted_cdf'")
    if weights is not None and method != "inverted_cdf":
        raise NotImplementedError(f"{method} doesn't support weights. Only method 'inverted_cdf' supports weights.")
    (a,) = promote_dtypes_inexact(a)
    q = ensure_array(q)
    if dtypes.issubdtype(get_aval(a).dtype, np.complexfloating):
        raise ValueError("quantile does not support complex input, as the operation is poorly defined.")
    if weights is not None:
        weights = _broadcast_weights(weights, get_aval(a).shape, axis)
        weights, _, _ = _merge_axes(weights, axis, keepdims)
    a, axis, kept_shape = _merge_axes(a, axis, keepdims)
    q_aval = get_aval(q)
    if q_aval.ndim > 1:
        raise ValueError(f"q must be have rank <= 1, got shape {q_aval.shape}")
    q_dtype = q_aval.dtype
    q_original = q
    shape = get_aval(a).shape
    if squash_nans:
        a = conditional.where(isnan(a), np.nan, a)
        if weights is None:
            a = lax.sort(a, dimension=axis)
        else:
            a, weights = lax.sort([a, weights], dimension=axis)
        counts = sum(lax.bitwise_not(isnan(a)), axis=axis, dtype=q_dtype, keepdims=keepdims)
        reduced_shape = get_aval(counts).shape
        q = lax.expand_dims(q, tuple(range(q_aval.ndim, len(reduced_shape) + q_aval.ndim)))
        counts = lax.expand_dims(counts, tuple(range(q_aval.ndim)))
        one = np.array(1, q_dtype)
        low, high, low_weight, high_weight = _positions(
            q, lambda: lax.sub(counts, one), lambda x, last: lax.max(np.array(0, q_dtype), lax.min(x, last)))
        out_shape = q_aval.shape + reduced_shape
        iotas = [lax.broadcasted_iota(dtypes.default_int_dtype(), out_shape, d + q_aval.ndim)
                 for d in range(len(reduced_shape))]

        def at(index: Any) -> Any:
            indices = list(iotas)
            if keepdims:
                indices[axis] = index
            else:
                indices.insert(axis, index)
            return _index_along(a, indices)

        low_value, high_value = at(low), at(high)
    else:
        a = conditional.where(any_(isnan(a), axis=axis, keepdims=True), np.nan, a)
        if weights is None:
            a = lax.sort(a, dimension=axis)
        else:
            a, weights = lax.sort([a, weights], dimension=axis)
        size = np.array(shape[axis], q_dtype)
        one, zero = np.array(1, q_dtype), np.array(0, q_dtype)
        low, high, low_weight, high_weight = _positions(
            q, lambda: lax.sub(size, one), lambda x, last: lax.clamp(zero, x, last))
        low_value, high_value = (_gather_along(a, i, axis, keepdims) for i in (low, high))
        if q_aval.ndim == 1:
            value_shape = get_aval(low_value).shape
            low_weight = lax.broadcast_in_dim(low_weight, value_shape, (0,))
            high_weight = lax.broadcast_in_dim(high_weight, value_shape, (0,))
    if method == "inverted_cdf":
        result = _inverted_cdf(a, q_original, weights, axis, keepdims, squash_nans)
    else:
        result = _combine(method, low_value, high_value, low_weight, high_weight)
    if kept_shape is not None and keepdims:
        result = lax.reshape(result, q_aval.shape + tuple(kept_shape))
    return _to_dtype(result, get_aval(a).dtype)


def _to_dtype(x: Any, dtype: np.dtype) -> Any:
    aval = get_aval(x)
    return x if aval.dtype == dtype and not aval.weak_type else lax.convert_element_type(x, dtype)


def _percent_to_fraction(q: Any) -> Any:
    """``q / 100`` as jnp.true_divide computes it (integers become the default float, weak types kept)."""
    q = ensure_array(q)
    aval = get_aval(q)
    if not dtypes.issubdtype(aval.dtype, np.inexact):
        q = lax_structural.convert_keeping_weak_type(q, dtypes.default_float_dtype(), aval.weak_type)
    return lax.div(q, np.array(100, get_aval(q).dtype))


def _broadcast_weights(weights: Any, shape: tuple[int, ...], axis: AxisArg) -> Any:
    """``weights`` of ``a``'s shape, or 1-D along an integer ``axis``, as an array of ``a``'s shape."""
    weights = ensure_array(weights)
    w_shape = get_aval(weights).shape
    if w_shape == shape:
        return weights
    if isinstance(axis, (int, np.integer)) and len(w_shape) == 1 and w_shape[0] == shape[axis]:
        return lax.broadcast_in_dim(weights, shape, (canonicalize_axis(axis, len(shape)),))
    raise ValueError(f"Shape of weights must be consistent with shape of a along specified axis, got "
                     f"{w_shape} and {shape}")


def _inverted_cdf(a: Any, q: Any, weights: Any, axis: int, keepdims: bool, squash_nans: bool) -> Any:
    """The first sorted element whose cumulative weight reaches ``q`` of the total (NaN for a slice with a negative
    or NaN weight, or with NaN data, or with no data). Results have q's dimensions first."""
    shape = get_aval(a).shape
    dtype = get_aval(a).dtype
    q_dtype, q_shape = get_aval(q).dtype, get_aval(q).shape
    q_dims = tuple(range(len(q_shape)))
    if weights is None:
        weights = lax.broadcast_in_dim(np.ones((), dtype), shape, ())
    zero = lax.broadcast_in_dim(np.zeros((), get_aval(weights).dtype), shape, ())
    bad_weight = lax.bitwise_or(lax.lt(weights, zero), isnan(weights))
    nan_data = isnan(a)
    cumulative = cumsum(lax.select_n(lax.bitwise_or(bad_weight, nan_data), weights, zero), axis=axis)
    total = lax.expand_dims(lax.index_in_dim(cumulative, -1, axis, keepdims=False), q_dims)
    target = lax.mul(lax.reshape(q, q_shape + (1,) * (len(shape) - 1)), total)
    target = lax.expand_dims(target, (axis + len(q_shape),))
    below = lax.lt(lax.expand_dims(cumulative, q_dims), target)
    count = sum(below, axis=axis + len(q_shape))
    if squash_nans:
        available = sum(lax.bitwise_not(nan_data), axis=axis, dtype=q_dtype)
    else:
        available = broadcast_to_shape(np.array(shape[axis], q_dtype), shape[:axis] + shape[axis + 1:])
    count_dtype = get_aval(count).dtype
    last = lax.convert_element_type(lax.sub(available, np.array(1, q_dtype)), count_dtype)
    index = lax.max(np.zeros((), count_dtype), lax.min(count, lax.expand_dims(last, q_dims)))
    if q_shape:  # q's dimension goes where the reduced one was, and back in front after the pick
        index = _move_first_axis(index, axis)
        picked = _move_axis_first(take_along_axis(a, index, axis, mode="fill", fill_value=np.nan), axis)
    else:
        picked = take_along_axis(a, lax.expand_dims(index, (axis,)), axis, mode="fill", fill_value=np.nan)
        picked = lax.squeeze(picked, (axis,))
    empty = lax.eq(available, broadcast_to_shape(np.zeros((), q_dtype), get_aval(available).shape))
    if squash_nans:
        invalid = lax.bitwise_or(any_(bad_weight, axis=axis), empty)
    else:
        invalid = lax.bitwise_or(any_(bad_weight, axis=axis), any_(nan_data, axis=axis))
    invalid = lax.expand_dims(invalid, q_dims)
    result = conditional.where(invalid, broadcast_to_shape(np.array(np.nan, dtype), get_aval(picked).shape), picked)
    return lax.expand_dims(result, (axis + len(q_shape),)) if keepdims else result


def _move_first_axis(x: Any, position: int) -> Any:
    """``x`` with its first dimension moved to ``position``."""
    ndim = get_aval(x).ndim
    permutation = tuple(range(1, position + 1)) + (0,) + tuple(range(position + 1, ndim))
    return x if permutation == tuple(range(ndim)) else lax.transpose(x, permutation)


def _move_axis_first(x: Any, position: int) -> Any:
    """``x`` with dimension ``position`` moved first."""
    ndim = get_aval(x).ndim
    permutation = (position,) + tuple(d for d in range(ndim) if d != position)
    return x if permutation == tuple(range(ndim)) else lax.transpose(x, permutation)


def _quantile_body(a: Any, q: Any, axis: AxisArg = None, out: None = None, overwrite_input: bool = False,
                   method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Any:
    check_arraylike("quantile", a, q)
    if overwrite_input or out is not None:
        raise ValueError("jax.numpy.quantile does not support overwrite_input=True or out != None")
    return _quantile("quantile", a, q, axis, method, keepdims, False, weights)


def _nanquantile_body(a: Any, q: Any, axis: AxisArg = None, out: None = None, overwrite_input: bool = False,
                      method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Any:
    check_arraylike("nanquantile", a, q)
    if overwrite_input or out is not None:
        raise ValueError("jax.numpy.nanquantile does not support overwrite_input=True or out != None")
    return _quantile("nanquantile", a, q, axis, method, keepdims, True, weights)


def _percentile_body(a: Any, q: Any, axis: AxisArg = None, out: None = None, overwrite_input: bool = False,
                     method: str = "linear", keepdims: bool = False, *, weights: Any = None,
                     out_sharding: Any = None) -> Any:
    check_arraylike("percentile", a, q)

    def fractions(x: Any, fraction: Any, w: Any) -> Any:
        return quantile(x, fraction, axis=axis, out=out, overwrite_input=overwrite_input, method=method,
                        keepdims=keepdims, weights=w)

    # checked as JAX's (in a jitted function of its own); with it, computed over the mesh's axes made Auto
    sharding = resolve_out_sharding(out_sharding, "jnp.percentile", located=False)
    if sharding is not None:
        fractions = auto_axes(fractions, out_sharding=sharding, axes=sharding.mesh.explicit_axes)
    return fractions(a, _percent_to_fraction(q), weights)


def _nanpercentile_body(a: Any, q: Any, axis: AxisArg = None, out: None = None, overwrite_input: bool = False,
                        method: str = "linear", keepdims: bool = False, *, weights: Any = None) -> Any:
    check_arraylike("nanpercentile", a, q)
    return nanquantile(a, _percent_to_fraction(q), axis=axis, out=out, overwrite_input=overwrite_input,
                       method=method, keepdims=keepdims, weights=weights)


def _median_body(a: Any, axis: AxisArg = None, out: None = None, overwrite_input: bool = False,
                 keepdims: bool = False) -> Any:
    check_arraylike("median", a)
    return quantile(a, 0.5, axis=axis, out=out, overwrite_input=overwrite_input, keepdims=keepdims,
                    method="midpoint")


def _nanmedian_body(a: Any, axis: AxisArg = None, out: None = None, overwrite_input: bool = False,
                    keepdims: bool = False) -> Any:
    check_arraylike("nanmedian", a)
    return nanquantile(a, 0.5, axis=axis, out=out, overwrite_input=overwrite_input, keepdims=keepdims,
                       method="midpoint")


_Q_STATIC = ("axis", "overwrite_input", "method", "keepdims")
quantile = named_jit("quantile", _Q_STATIC,
    "The ``q``-th quantiles (``q`` in [0, 1], a scalar or 1-D) over ``axis``, per ``method``.")(_quantile_body)
nanquantile = named_jit("nanquantile", _Q_STATIC, "``quantile`` ignoring NaNs.")(_nanquantile_body)
percentile = named_jit("percentile", (*_Q_STATIC, "out_sharding"),
    "The ``q``-th percentiles (``q`` in [0, 100]) over ``axis``, per ``method``.")(_percentile_body)
nanpercentile = named_jit("nanpercentile", _Q_STATIC, "``percentile`` ignoring NaNs.")(_nanpercentile_body)
median = named_jit("median", ("axis", "overwrite_input", "keepdims"),
    "The median over ``axis`` (the midpoint of the two middle elements for an even count).")(_median_body)
nanmedian = named_jit("nanmedian", ("axis", "overwrite_input", "keepdims"),
    "``median`` ignoring NaNs.")(_nanmedian_body)
