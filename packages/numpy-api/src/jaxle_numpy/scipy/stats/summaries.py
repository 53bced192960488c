"""Summaries of samples: ``mode`` (most frequent value and its count), ``rankdata`` (ranks with SciPy's tie
methods) and ``sem`` (standard error of the mean). ``mode`` and ``rankdata`` sort as JAX's do (``unique`` with
counts; a key-value sort, the runs of equal values and their starts), so their jaxprs and values are JAX's."""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax, vmap
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.reductions import std
from jaxle_numpy.ufuncs import sqrt

__all__ = ["ModeResult", "mode", "rankdata", "sem"]


class ModeResult(NamedTuple):
    """``mode``'s result: the most frequent values and how often each occurs."""

    mode: Any
    count: Any


def _check_nan_policy(function: str, nan_policy: str) -> None:
    """Only "propagate" is implemented (NaN in, NaN out); "raise" would need to look at the values."""
    if nan_policy not in ("propagate", "omit", "raise"):
        raise ValueError(f"Illegal nan_policy value {nan_policy!r}; expected one of "
                         "{'propagate', 'omit', 'raise'}")
    if nan_policy == "omit":
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(f"In order to best JIT compile `{function}`, we cannot know whether `x` contains "
                                  f"nans. Please check if nans exist in `x` outside of the `{function}` function.")


def _mode_of_column(x: Any) -> tuple[Any, Any]:
    """The most frequent value of the 1-d ``x`` (the smallest among ties) and its count."""
    if get_aval(x).size == 0:
        float_dtype = dtypes.default_float_dtype()
        return jnp.array(np.nan, dtype=float_dtype), jnp.array(0, dtype=float_dtype)
    values, counts = jnp.unique(x, return_counts=True, size=get_aval(x).size)
    return values[jnp.argmax(counts)], jnp.max(counts)


@util.named_jit("mode", static_argnames=("axis", "nan_policy", "keepdims"))
def mode(a: Any, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False) -> ModeResult:
    """The most frequent value along ``axis`` (the smallest among ties) and its count."""
    util.check_arraylike("mode", a)
    x = jnp.atleast_1d(a)
    _check_nan_policy("mode", nan_policy)
    shape = get_aval(x).shape
    if axis is not None:
        axis = util.canonicalize_axis(axis, len(shape))
    if axis is None:
        out_shape = (1,) * len(shape) if keepdims else ()
        axis, x = 0, jnp.ravel(x)
    else:
        out_shape = tuple(1 if i == axis else n for i, n in enumerate(shape) if keepdims or i != axis)
    x = jnp.moveaxis(x, axis, 0)
    x = jnp.reshape(x, (get_aval(x).shape[0], math.prod(get_aval(x).shape[1:])))
    values, counts = vmap(_mode_of_column, in_axes=1)(x)
    return ModeResult(jnp.reshape(values, out_shape), jnp.reshape(counts, out_shape))


_RANK_METHODS = ("average", "min", "max", "dense", "ordinal")


def _invert_permutation(i: Any) -> Any:
    return jnp.empty_like(i).at[i].set(jnp.arange(get_aval(i).size, dtype=get_aval(i).dtype))


def _ranks(a: Any, method: str) -> Any:
    """Ranks of the 1-d ``a`` without NaN: from the sorted values, where each run of equal values starts."""
    float_dtype = dtypes.default_float_dtype()
    size = get_aval(a).size
    ordered, order = lax.sort_key_val(a, jnp.arange(size))
    position = _invert_permutation(order)
    if method == "ordinal":
        return jnp.add(position, 1).astype(float_dtype)
    starts = jnp.concatenate([jnp.array([True]), jnp.not_equal(ordered[1:], ordered[:-1])])
    dense = jnp.cumsum(starts, axis=None, dtype=None, out=None)[position]
    if method == "dense":
        return dense.astype(float_dtype)
    first = jnp.nonzero(starts, size=size + 1, fill_value=get_aval(starts).size)[0].astype(float_dtype)
    if method == "max":
        return first[dense]
    if method == "min":
        return jnp.add(first[jnp.subtract(dense, 1)], 1)
    return jnp.multiply(0.5, jnp.add(jnp.add(first[dense], first[jnp.subtract(dense, 1)]), 1))


@util.named_jit("rankdata", static_argnames=("method", "axis", "nan_policy"))
def rankdata(a: Any, method: str = "average", *, axis: int | None = None, nan_policy: str = "propagate") -> Any:
    """Ranks of ``a``'s values (from 1), ties resolved by ``method`` (SciPy's five), over all of ``a`` or along
    ``axis``; all NaN where NaN is present."""
    util.check_arraylike("rankdata", a)
    _check_nan_policy("rankdata", nan_policy)
    if method not in _RANK_METHODS:
        raise ValueError(f"unknown method '{method}'")
    if axis is not None:
        return jnp.apply_along_axis(rankdata, axis, a, method)
    a = jnp.ravel(a)
    return lax.cond(jnp.any(jnp.isnan(a)), lambda a: jnp.full_like(a, jnp.nan, dtypes.default_float_dtype()),
                    lambda a: _ranks(a, method), a)


@util.named_jit("sem", static_argnames=("axis", "nan_policy", "keepdims"))
def sem(a: Any, axis: int | None = 0, ddof: int = 1, nan_policy: str = "propagate", *, keepdims: bool = False) -> Any:
    """The standard error of the mean along ``axis``: ``std(a, ddof=ddof) / sqrt(n)``."""
    util.check_arraylike("sem", a)
    if nan_policy == "omit":  # over the values that are not NaN
        b, = util.promote_args_inexact("sem", a)
        count = jnp.sum(jnp.invert(jnp.isnan(b)), axis, keepdims=keepdims)
        return jnp.true_divide(jnp.nanstd(b, axis, ddof=ddof, keepdims=keepdims),
                               jnp.sqrt(count).astype(get_aval(b).dtype))
    if nan_policy != "propagate":
        raise ValueError(f"{nan_policy} is not supported")
    shape = get_aval(a).shape
    size = int(np.prod(shape)) if axis is None else shape[util.canonicalize_axis(axis, len(shape))]
    deviation = std(a, axis=axis, ddof=ddof, keepdims=keepdims)
    return lax.div(deviation, lax.convert_element_type(sqrt(float(size)), get_aval(deviation).dtype))
