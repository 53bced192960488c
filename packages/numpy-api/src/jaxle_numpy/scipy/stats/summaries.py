"""Summaries of samples: ``mode`` (most frequent value and its count), ``rankdata`` (ranks with SciPy's tie
methods) and ``sem`` (standard error of the mean)."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.creation import asarray
from jaxle_numpy.manipulation import expand_dims, moveaxis, ravel
from jaxle_numpy.reductions import any as jnp_any
from jaxle_numpy.reductions import max as jnp_max
from jaxle_numpy.reductions import min as jnp_min
from jaxle_numpy.reductions import std
from jaxle_numpy.sorting import argsort
from jaxle_numpy.ufuncs import isnan, round, sqrt, true_divide

__all__ = ["ModeResult", "mode", "rankdata", "sem"]


class ModeResult(NamedTuple):
    """``mode``'s result: the most frequent values and how often each occurs."""

    mode: Any
    count: Any


def _check_nan_policy(nan_policy: str) -> None:
    if nan_policy == "omit":
        raise NotImplementedError("Logic for `nan_policy` of omit is not implemented")
    if nan_policy != "propagate":
        raise ValueError(f"{nan_policy} is not supported")


def _same(x: Any) -> Any:
    """``same[..., i, j]``: whether ``x[..., i]`` and ``x[..., j]`` are equal (NaNs equal to one another)."""
    left, right = expand_dims(x, -1), expand_dims(x, -2)
    return (left == right) | (isnan(left) & isnan(right))


def mode(a: Any, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False) -> ModeResult:
    """The most frequent value along ``axis`` (the smallest among ties) and its count."""
    util.check_arraylike("mode", a)
    _check_nan_policy(nan_policy)
    x = asarray(a)
    if axis is None:
        x, axis = ravel(x), 0
        out_shape = (1,) * get_aval(a).ndim if keepdims else ()
    else:
        axis = util.canonicalize_axis(axis, get_aval(x).ndim)
        shape = list(get_aval(x).shape)
        shape[axis] = 1
        out_shape = tuple(shape) if keepdims else tuple(shape[:axis] + shape[axis + 1:])
    x = moveaxis(x, axis, -1)
    if get_aval(x).shape[-1] == 0:
        return ModeResult(lax.full(out_shape, np.nan, dtypes.default_float_dtype()),
                          lax.full(out_shape, 0, dtypes.default_float_dtype()))
    counts = lax.reduce_sum(lax.convert_element_type(_same(x), np.int32), (get_aval(x).ndim,))
    top = counts == jnp_max(counts, axis=-1, keepdims=True)
    numeric_tie = top & ~isnan(x)
    largest = np.inf if dtypes.issubdtype(get_aval(x).dtype, np.inexact) else dtypes.iinfo(get_aval(x).dtype).max
    value = _where(jnp_any(numeric_tie, axis=-1), jnp_min(_where(numeric_tie, x, largest), axis=-1), np.nan)
    value = lax.convert_element_type(value, get_aval(x).dtype)
    return ModeResult(lax.reshape(value, out_shape), lax.reshape(jnp_max(counts, axis=-1), out_shape))


_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


def _ranks_along_last(x: Any, method: str) -> Any:
    """Ranks (from 1) of ``x`` along its last axis; all NaN where that axis holds a NaN."""
    float_dtype = dtypes.to_inexact_dtype(get_aval(x).dtype)
    left, right = expand_dims(x, -1), expand_dims(x, -2)
    last = get_aval(x).ndim

    def count(mask: Any) -> Any:
        return lax.reduce_sum(lax.convert_element_type(mask, float_dtype), (last,))

    if method == "ordinal":
        ranks = lax.convert_element_type(argsort(argsort(x, axis=-1, stable=True), axis=-1, stable=True), float_dtype)
        ranks = lax.add(ranks, util.scalar_like(ranks, 1))
    else:
        below, at_most = count(right < left), count(right <= left)
        if method == "min":
            ranks = lax.add(below, util.scalar_like(below, 1))
        elif method == "max":
            ranks = at_most
        elif method == "average":
            ranks = true_divide(lax.add(lax.add(below, util.scalar_like(below, 1)), at_most), 2)
        else:  # dense: each smaller distinct value counts once (a value repeated m times adds m * 1/m)
            multiplicity = count(left == right)
            weights = expand_dims(lax.div(util.scalar_like(multiplicity, 1), multiplicity), -2)
            smaller = lax.convert_element_type(right < left, float_dtype)
            ranks = lax.add(round(lax.reduce_sum(lax.mul(smaller, weights), (last,))), util.scalar_like(below, 1))
    has_nan = jnp_any(isnan(x), axis=-1, keepdims=True)
    return _where(has_nan, util.scalar_like(ranks, np.nan), ranks)


def rankdata(a: Any, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate") -> Any:
    """Ranks of ``a``'s values (from 1), ties resolved by ``method`` (SciPy's five), over all of ``a`` or along
    ``axis``; NaN ranks where NaN is present."""
    util.check_arraylike("rankdata", a)
    _check_nan_policy(nan_policy)
    if method not in _RANK_METHODS:
        raise ValueError(f"unknown method '{method}'")
    x = asarray(a)
    if axis is None:
        return _ranks_along_last(ravel(x), method)
    axis = util.canonicalize_axis(axis, get_aval(x).ndim)
    return moveaxis(_ranks_along_last(moveaxis(x, axis, -1), method), -1, axis)


@util.named_jit("sem", static_argnames=("axis", "ddof", "nan_policy", "keepdims"))
def sem(a: Any, axis: int | None = 0, ddof: int = 1, nan_policy: str = "propagate", *, keepdims: bool = False) -> Any:
    """The standard error of the mean along ``axis``: ``std(a, ddof=ddof) / sqrt(n)``."""
    util.check_arraylike("sem", a)
    _check_nan_policy(nan_policy)
    shape = get_aval(a).shape
    size = int(np.prod(shape)) if axis is None else shape[util.canonicalize_axis(axis, len(shape))]
    deviation = std(a, axis=axis, ddof=ddof, keepdims=keepdims)
    return lax.div(deviation, lax.convert_element_type(sqrt(float(size)), get_aval(deviation).dtype))
