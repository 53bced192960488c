"""Evenly spaced values: arange, and linspace/logspace/geomspace (jitted as JAX's ``_linspace`` & co)."""

from __future__ import annotations

import math
import operator
from functools import partial
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax.structural import convert_keeping_weak_type
from jaxle_core.shape_poly import is_symbolic_dim
from jaxle_core.sharding_types import checked_out_sharding
from jaxle_numpy.scalar_types import iscomplexobj
from jaxle_numpy.util import (
    check_arraylike,
    check_conversion_target,
    check_device_or_out_sharding,
    concrete_index,
    concrete_or_error,
    converted_onto,
    converted_staged,
    is_arraylike,
    promote_args,
    promote_shapes,
    put_staged,
    requested_dtype,
    staged_target,
    warn_complex_astype,
)

__all__ = ["arange", "linspace", "logspace", "geomspace"]


# ---------------------------------------------------------------- arange

def _concrete_scalar(name: str, x: Any) -> Any:
    """A start/stop/step argument as a concrete scalar, or JAX's error for a traced or non-scalar one."""
    if np.ndim(x) if not hasattr(x, "ndim") else x.ndim:
        raise ValueError(f"jax.numpy.arange: arguments must be scalars; got {name}={x}")
    if isinstance(x, Array) or hasattr(x, "aval"):
        return concrete_or_error(x, f"It arose in the jnp.arange argument '{name}'")[()]
    return x


def _converted(x: Any, dtype: np.dtype) -> np.ndarray:
    """A concrete scalar converted to ``dtype`` as lax converts (integers wrap, floats truncate toward zero)."""
    with np.errstate(invalid="ignore", over="ignore"):
        return np.asarray(x).astype(dtype)


def _size(count: Any) -> int:
    """How many values a range of ``count`` steps has, as NumPy's ``ceil`` counts them (a string gets its error)."""
    return max(int(np.ceil(count)), 0)


def _iota(dtype: Any, size: int, out_sharding: Any) -> Any:
    """``0, 1, ..., size - 1``, laid out as ``out_sharding`` (over a mesh of Explicit axes) when given."""
    return lax.broadcasted_iota(dtype, (size,), 0, out_sharding=out_sharding)


def arange(start: Any, stop: Any = None, step: Any = None, dtype: Any = None, *, device: Any = None,
           out_sharding: Any = None) -> Array:
    """Evenly spaced values in ``[start, stop)`` (``[0, start)`` with one argument), as an iota scaled and
    shifted in the result's dtype."""
    check_device_or_out_sharding(device, out_sharding)
    checked_out_sharding(out_sharding, "jnp.arange")
    return put_staged(_arange(start, stop, step, dtype, out_sharding), device, as_sharding=True)


def _arange(start: Any, stop: Any, step: Any, dtype: Any, out_sharding: Any) -> Array:
    if is_symbolic_dim(start) and stop is None and step is None:  # as JAX: the count scaled by 1, shifted by 0
        out_dtype = requested_dtype(dtype, "arange") or dtypes.canonicalize_dtype(np.int64)
        one, zero = np.ones((), out_dtype)[()], np.zeros((), out_dtype)[()]
        return lax.add(zero, lax.mul(one, lax.iota(out_dtype, start)))
    given = [x for x in (start, stop, step) if x is not None]
    for position, x in enumerate((start, stop, step)):
        if x is not None and not is_arraylike(x) and not np.isscalar(x):  # a string fails as a dtype below
            raise TypeError(f"arange requires ndarray, scalar, or None arguments, got {type(x)} at position "
                            f"{position}.")
    requested = requested_dtype(dtype, "arange")
    out_dtype = requested if requested is not None else dtypes.result_type(*given) if given else \
        dtypes.default_float_dtype()
    if any(iscomplexobj(x) for x in given):
        raise ValueError("Passing complex start/stop/step to jnp.arange is no longer supported starting in JAX "
                         "v0.10.0.")
    if stop is None and step is None:  # the one argument is the stop
        return _iota(out_dtype, _size(_concrete_scalar("stop", start)), out_sharding)
    if stop is None:  # arange(start, None, step) counts from zero to start, as NumPy does
        start, stop = 0, start
    start_value = _concrete_scalar("start", start)
    stop_value = _concrete_scalar("stop", stop)
    step_value = 1 if step is None else _concrete_scalar("step", step)
    size = _size((stop_value - start_value) / step_value)
    if step is None:  # JAX shifts by a nonzero start only
        values = _iota(out_dtype, size, out_sharding)
        return lax.add(_converted(start_value, out_dtype), values) if start_value != 0 else values
    # A step is applied in float32 at least: narrow floats could not even count the elements exactly.
    narrow_float = dtypes.issubdtype(out_dtype, np.floating) and dtypes.itemsize_bits(out_dtype) < 32
    compute_dtype = np.dtype(np.float32) if narrow_float else out_dtype
    values = _iota(compute_dtype, size, out_sharding)
    values = lax.add(_converted(start_value, compute_dtype), lax.mul(_converted(step_value, compute_dtype), values))
    return lax.convert_element_type(values, out_dtype)


# ---------------------------------------------------------------- linspace, logspace, geomspace

def _check_num(num: Any, fun_name: str) -> int:
    num = concrete_index(num, f"'num' argument of jnp.{fun_name}")
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    return num


def _default_dtype(dtype: Any, fun_name: str, *bounds: Any) -> np.dtype:
    """The requested dtype (checked while tracing, as JAX's: a 64-bit one warns once per traced signature), else
    the inexact dtype of the bounds."""
    if dtype is None:
        return dtypes.to_inexact_dtype(dtypes.result_type(*bounds))
    return requested_dtype(dtype, fun_name, stacklevel=3)


def _as_dtype(x: Any, dtype: np.dtype) -> Any:
    return convert_keeping_weak_type(x, dtype, False)


def _bound_as_dtype(x: Any, dtype: np.dtype) -> Any:
    """A start or stop converted to the computation dtype, as JAX's ``astype`` converts it (a complex one made
    real warns its DeprecationWarning)."""
    warn_complex_astype(get_aval(x).dtype, dtype, stacklevel=3)
    return _as_dtype(x, dtype)


def _broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    aval = get_aval(x)
    if aval.shape == shape:
        return x
    return lax.broadcast_in_dim(x, shape, tuple(range(len(shape) - aval.ndim, len(shape))))


def _scalar(value: Any, dtype: np.dtype) -> np.ndarray:
    return np.array(value, dtype)


def _difference(stop: Any, start: Any) -> Any:
    """``stop - start`` as jnp.subtract stages it (ranks promoted, sizes broadcast by lax)."""
    return lax.sub(*promote_shapes("subtract", stop, start))


@partial(jit, static_argnames=("num", "endpoint", "retstep", "dtype", "axis", "device"))
def _linspace(start: Any, stop: Any, num: int, endpoint: bool = True, retstep: bool = False,
              dtype: np.dtype | None = None, axis: int = 0, device: Any = None) -> Any:
    """The values of ``linspace``; inside a transformation converted for the sharding ``device``
    (``staged_target``) as JAX's are."""
    dtype = _default_dtype(dtype, "linspace", start, stop)
    computation = dtypes.to_inexact_dtype(dtype)
    given_start, given_stop = _bound_as_dtype(start, computation), _bound_as_dtype(stop, computation)
    bounds_shape = lax.broadcast_shapes(get_aval(given_start).shape, get_aval(given_stop).shape)
    start, stop = _broadcast_to(given_start, bounds_shape), _broadcast_to(given_stop, bounds_shape)
    divisor = num - 1 if endpoint else num
    counts_shape = [1] * (len(bounds_shape) + 1)
    counts_shape[axis] = divisor  # an axis out of range fails here, with JAX's IndexError
    axis %= len(counts_shape)
    expanded_shape = (*bounds_shape[:axis], 1, *bounds_shape[axis:])
    if num > 1:
        step = lax.div(_difference(given_stop, given_start), _scalar(divisor, computation))
        # The fraction of the way from start to stop, counted in the real dtype (complex bounds interpolate too).
        real = np.dtype(np.float32) if computation == np.complex64 else \
            np.dtype(np.float64) if computation == np.complex128 else computation
        fraction = lax.div(lax.reshape(lax.iota(real, divisor), counts_shape), _scalar(divisor, real))
        fraction = _as_dtype(fraction, computation)
        out = lax.add(lax.mul(lax.reshape(start, expanded_shape), lax.sub(_scalar(1, computation), fraction)),
                      lax.mul(lax.reshape(stop, expanded_shape), fraction))
        if endpoint:
            kept_dims = tuple(d for d in range(len(expanded_shape)) if d != axis)
            out = lax.concatenate([out, lax.broadcast_in_dim(stop, expanded_shape, kept_dims)], axis)
    elif num == 1:
        step = lax.full((), np.nan, computation) if endpoint else _difference(given_stop, given_start)
        out = lax.reshape(start, expanded_shape)
    else:
        step = lax.full((), np.nan, computation)
        empty_shape = (*bounds_shape[:axis], 0, *bounds_shape[axis:])
        out = lax.full(empty_shape, 0, dtype)
    if dtypes.issubdtype(dtype, np.integer) and num:
        out = lax.floor(out)  # integers round toward -inf, as NumPy's casting of the float result would not
    out = lax.convert_element_type(out, dtype) if device is None else \
        converted_staged(out, dtype, False, device, located=False)
    return (out, step) if retstep else out


def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, retstep: bool = False, dtype: Any = None,
             axis: int = 0, *, device: Any = None) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (inclusive unless ``endpoint=False``) along
    ``axis``; with ``retstep``, also the spacing."""
    num = _check_num(num, "linspace")
    check_arraylike("linspace", start, stop)
    check_conversion_target(device)
    target = staged_target(device)  # inside a transformation: converted where it is computed
    out = _linspace(start, stop, num, bool(endpoint), bool(retstep), dtype,
                    operator.index(axis), target)
    if target is not None:
        return out
    return (converted_onto(out[0], device, True), out[1]) if retstep else converted_onto(out, device, True)


@partial(jit, static_argnames=("num", "endpoint", "dtype", "axis"))
def _logspace(start: Any, stop: Any, base: Any, num: int, endpoint: bool = True, dtype: np.dtype | None = None,
              axis: int = 0) -> Any:
    dtype = _default_dtype(dtype, "logspace", start, stop)
    computation = dtypes.to_inexact_dtype(dtype)
    start, stop = _bound_as_dtype(start, computation), _bound_as_dtype(stop, computation)
    exponents = _linspace(start, stop, num, endpoint=endpoint, axis=axis)
    # base ** exponents as jnp.power computes it (a complex base gives complex powers, made real at the end)
    return lax.convert_element_type(lax.pow(*promote_args("power", base, exponents)), dtype)


def logspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, base: Any = 10.0, dtype: Any = None,
             axis: int = 0) -> Array:
    """``base`` raised to ``num`` evenly spaced exponents from ``start`` to ``stop``."""
    num = _check_num(num, "logspace")
    return _logspace(start, stop, base, num, bool(endpoint), dtype,
                     operator.index(axis))


_LOG10_E = math.log10(math.e)  # JAX's factor (not 1 / log(10), which differs in the last float64 bit)


def _log10(x: Any) -> Any:
    """``log(x) / log(10)``, as jnp.log10 stages it (per component for complex values)."""
    log = lax.log(x)
    if not dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        return lax.mul(log, _scalar(_LOG10_E, get_aval(log).dtype))
    real_part, imag_part = lax.real(log), lax.imag(log)
    scale = _scalar(_LOG10_E, get_aval(real_part).dtype)
    return lax.complex(lax.mul(real_part, scale), lax.mul(imag_part, scale))


@partial(jit, static_argnames=("num", "endpoint", "dtype", "axis"))
def _geomspace(start: Any, stop: Any, num: int, endpoint: bool = True, dtype: np.dtype | None = None,
               axis: int = 0) -> Array:
    dtype = _default_dtype(dtype, "geomspace", start, stop)
    computation = dtypes.to_inexact_dtype(dtype)
    start, stop = _bound_as_dtype(start, computation), _bound_as_dtype(stop, computation)
    # Interpolate the logarithms of the magnitudes; both bounds take the sign of start (mixed signs give NaN).
    sign = lax.sign(start)
    log_start, log_stop = _log10(lax.div(start, sign)), _log10(lax.div(stop, sign))
    out = _logspace(log_start, log_stop, 10.0, num, endpoint=endpoint, axis=0)
    out = lax.mul(*promote_shapes("multiply", sign, out))
    ndim = get_aval(out).ndim
    axis = axis % ndim if ndim else 0
    if axis:
        permutation = list(range(1, ndim))
        permutation.insert(axis, 0)
        out = lax.transpose(out, permutation)
    return lax.convert_element_type(out, dtype)


def geomspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None,
              axis: int = 0) -> Array:
    """``num`` values from ``start`` to ``stop`` spaced evenly on a log scale (a geometric progression)."""
    num = _check_num(num, "geomspace")
    return _geomspace(start, stop, num, bool(endpoint), dtype, operator.index(axis))
