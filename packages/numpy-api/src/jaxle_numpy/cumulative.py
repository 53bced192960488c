"""Cumulative reductions: cumsum, cumprod, cumulative_sum/prod and their nan* forms.

As in JAX, cumsum/cumprod keep integer dtypes (booleans become the default integer), cumulative_sum promotes
small integers like ``sum`` does, and a requested boolean dtype computes in integers on ``a != 0``.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import conditional
from jaxle_numpy.reductions import promoted_integer_dtype
from jaxle_numpy.ufuncs import isnan
from jaxle_numpy.util import canonicalize_axis, check_arraylike, check_scalar_arraylike, ensure_array, named_jit

__all__ = ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod"]


def _check_out(name: str, out: Any) -> None:
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported")


def _accumulate(name: str, scan: Callable, a: Any, axis: int | None, dtype: Any, *, nan_fill: Any = None,
                promote_integers: bool = False) -> Any:
    """``scan`` (lax.cumsum or lax.cumprod) over ``axis`` (the flattened array for None) with JAX's dtype rules;
    NaNs are replaced by ``nan_fill`` first when it is given."""
    check_arraylike(name, a)
    a = ensure_array(a)
    if axis is None:
        a = lax.reshape(a, (get_aval(a).size,))
        axis = 0
    axis = canonicalize_axis(operator.index(axis), get_aval(a).ndim)
    if nan_fill is not None:
        a = conditional.where(isnan(a), np.array(nan_fill, get_aval(a).dtype), a)
    a_dtype = get_aval(a).dtype
    requested = None if dtype is None else dtypes.dtype(dtype, requested_in=name)
    result_dtype = a_dtype if requested is None else requested
    if (requested is None and promote_integers) or result_dtype == np.bool_:
        result_dtype = promoted_integer_dtype(result_dtype)
    if requested == np.bool_ and a_dtype != np.bool_:
        a = lax.ne(a, np.zeros((), a_dtype))
    aval = get_aval(a)
    if aval.dtype != result_dtype or aval.weak_type:
        a = lax.convert_element_type(a, result_dtype)
    result = scan(a, axis)
    if requested is not None and requested != result_dtype:
        result = lax.convert_element_type(result, requested)
    return result


def _cumsum_body(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    _check_out("cumsum", out)
    return _accumulate("cumsum", lax.cumsum, a, axis, dtype)


def _cumprod_body(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    _check_out("cumprod", out)
    return _accumulate("cumprod", lax.cumprod, a, axis, dtype)


def _nancumsum_body(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    _check_out("nancumsum", out)
    return _accumulate("nancumsum", lax.cumsum, a, axis, dtype, nan_fill=0)


def _nancumprod_body(a: Any, axis: int | None = None, dtype: Any = None, out: None = None) -> Any:
    _check_out("nancumprod", out)
    return _accumulate("nancumprod", lax.cumprod, a, axis, dtype, nan_fill=1)


def _cumsum_with_promotion_body(a: Any, axis: int | None = None, dtype: Any = None) -> Any:
    return _accumulate("cumulative_sum", lax.cumsum, a, axis, dtype, promote_integers=True)


cumsum = named_jit("cumsum", ("axis", "dtype"),
    "Cumulative sum over ``axis`` (over the flattened array for None).")(_cumsum_body)
cumprod = named_jit("cumprod", ("axis", "dtype"),
    "Cumulative product over ``axis`` (the flattened array for None).")(_cumprod_body)
nancumsum = named_jit("nancumsum", ("axis", "dtype"),
    "Cumulative sum over ``axis`` treating NaNs as zero.")(_nancumsum_body)
nancumprod = named_jit("nancumprod", ("axis", "dtype"),
    "Cumulative product over ``axis`` treating NaNs as one.")(_nancumprod_body)
_cumsum_with_promotion = named_jit("_cumsum_with_promotion", ("axis", "dtype"),
    "cumulative_sum's accumulation, small integers promoted as sum does.")(_cumsum_with_promotion_body)


def _cumulative_axis(name: str, x: Any, axis: int | None) -> int:
    ndim = get_aval(x).ndim
    if ndim == 0:
        raise ValueError(f"The input must be non-scalar to take a cumulative {name}, however a scalar value or "
                         "scalar array was given.")
    if axis is None:
        if ndim > 1:
            raise ValueError(f"The input array has rank {ndim}, however axis was not set to an explicit value. The "
                             "axis argument is only optional for one-dimensional arrays.")
        axis = 0
    return canonicalize_axis(operator.index(axis), ndim)


def _with_initial(result: Any, axis: int, identity: int) -> Any:
    """``result`` preceded along ``axis`` by one slice of the operation's identity."""
    aval = get_aval(result)
    shape = aval.shape[:axis] + (1,) + aval.shape[axis + 1:]
    initial = lax.broadcast_in_dim(np.array(identity, aval.dtype), shape, ())
    return lax.concatenate([initial, result], axis)


def cumulative_sum(x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Any:
    """Array API cumulative sum over ``axis`` (optional for 1-D input); ``include_initial`` prepends a zero."""
    check_scalar_arraylike("cumulative_sum", x)
    x = ensure_array(x)
    axis = _cumulative_axis("sum", x, axis)
    result = _cumsum_with_promotion(x, axis=axis, dtype=dtype)
    return _with_initial(result, axis, 0) if include_initial else result


def cumulative_prod(x: Any, /, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False) -> Any:
    """Array API cumulative product over ``axis`` (optional for 1-D input); ``include_initial`` prepends a one."""
    check_arraylike("cumulative_prod", x)
    x = ensure_array(x)
    axis = _cumulative_axis("product", x, axis)
    result = _accumulate("cumulative_prod", lax.cumprod, x, axis, dtype)
    return _with_initial(result, axis, 1) if include_initial else result
