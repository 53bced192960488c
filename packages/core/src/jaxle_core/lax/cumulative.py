"""Cumulative reductions: cumsum, cumprod, cummax, cummin, cumlogsumexp."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.reductions import accumulation_dtype
from jaxle_core.lax.standard import NUMBER_KIND, check_dtype, lenient_axis

__all__ = ["cumlogsumexp", "cumlogsumexp_p", "cummax", "cummax_p", "cummin", "cummin_p", "cumprod", "cumprod_p",
           "cumsum", "cumsum_p"]


def _logaddexp(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """log(exp(x) + exp(y)); for complex values as XLA computes JAX's: the larger (real part first) plus
    log1p(exp(x + y - 2 * larger)), the imaginary part wrapped into [-pi, pi)."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if not np.iscomplexobj(x):
            return np.logaddexp(x, y)
        larger = _ordered(np.maximum)(x, y)
        total = larger + np.log1p(np.exp(x + y - larger * 2))
        pi = np.pi if total.dtype == np.complex128 else np.float32(np.pi)
        turn = np.fmod(total.imag + pi, 2 * pi)
        return total.real + 1j * (np.where(turn < 0, turn + 2 * pi, turn) - pi)


def _ordered(fn: Callable) -> Callable:
    """A binary max/min where NaN propagates and the zeros are ordered (-0.0 below +0.0), as in XLA."""

    def combine(x, y):
        if np.iscomplexobj(x):
            x_wins = (x.real > y.real) | ((x.real == y.real) & (x.imag > y.imag))
            return np.where(x_wins == (fn is np.maximum), x, y)
        result = fn(x, y)
        if x.dtype.kind != "f":
            return result
        zeros = (x == 0) & (y == 0)
        pick_positive = fn is np.maximum
        signed = np.where(np.signbit(x) & np.signbit(y), -0.0, 0.0) if pick_positive else np.where(
            np.signbit(x) | np.signbit(y), -0.0, 0.0)
        return np.where(zeros, signed, result)

    return combine


_COMBINE = {  # name: (combine, whether narrow floats keep a float32 running value)
    "cumsum": (np.add, True),
    "cumprod": (np.multiply, False),
    "cummax": (_ordered(np.maximum), False),
    "cummin": (_ordered(np.minimum), False),
    "cumlogsumexp": (_logaddexp, True),
}


def _scan_impl(combine: Callable, wide: bool, positive_zero: bool = False) -> Callable:
    """A running ``combine`` along ``axis``. Floats narrower than 32 bits are combined in float32; with ``wide``
    the running value stays float32 and only the outputs are rounded (XLA's tree of partial sums does not
    saturate), otherwise every step rounds. With ``positive_zero``, a scan of two or more elements starts from
    +0.0 (XLA's cumsum is a padded windowed sum), so -0.0 terms come out as +0.0."""

    def impl(x, *, axis, reverse):
        dtype = x.dtype
        work = np.moveaxis(x, axis, 0).astype(accumulation_dtype(dtype))
        if reverse:
            work = work[::-1]
        out = np.empty_like(work)
        with np.errstate(over="ignore", invalid="ignore"):
            for i in range(work.shape[0]):
                step = work[i] if i == 0 else combine(out[i - 1], work[i])
                out[i] = step if wide else np.asarray(step).astype(dtype)
            if positive_zero and work.shape[0] > 1 and dtypes.issubdtype(dtype, np.inexact):
                out = out + np.zeros((), out.dtype)
            if reverse:
                out = out[::-1]
            return np.moveaxis(out, 0, axis).astype(dtype)

    return impl


def _cumulative_primitive(name: str) -> Primitive:
    primitive = Primitive(name)

    def rule(x, *, axis, reverse):
        check_dtype(name, x.dtype, (NUMBER_KIND,))
        if not 0 <= axis < x.ndim:
            raise ValueError(f"axis {axis} is out of bounds for array of shape {x.shape}")
        return ShapedArray(x.shape, x.dtype, x.weak_type)

    primitive.def_abstract_eval(rule)
    primitive.def_impl(_scan_impl(*_COMBINE[name], positive_zero=name == "cumsum"))
    return primitive


cumsum_p = _cumulative_primitive("cumsum")
cumprod_p = _cumulative_primitive("cumprod")
cummax_p = _cumulative_primitive("cummax")
cummin_p = _cumulative_primitive("cummin")
cumlogsumexp_p = _cumulative_primitive("cumlogsumexp")


def _bind(primitive: Primitive, operand, axis: int, reverse: bool):
    axis = lenient_axis(axis)
    ndim = get_aval(operand).ndim
    if axis < 0:
        raise ValueError("XLA operations do not allow negative axes")
    if axis >= ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of shape {get_aval(operand).shape}")
    return primitive.bind(operand, axis=axis, reverse=bool(reverse))


def cumsum(operand, axis: int = 0, reverse: bool = False):
    """Running sum along ``axis`` (from the end when ``reverse``)."""
    return _bind(cumsum_p, operand, axis, reverse)


def cumprod(operand, axis: int = 0, reverse: bool = False):
    """Running product along ``axis`` (from the end when ``reverse``)."""
    return _bind(cumprod_p, operand, axis, reverse)


def cummax(operand, axis: int = 0, reverse: bool = False):
    """Running maximum along ``axis`` (NaN propagates)."""
    return _bind(cummax_p, operand, axis, reverse)


def cummin(operand, axis: int = 0, reverse: bool = False):
    """Running minimum along ``axis`` (NaN propagates)."""
    return _bind(cummin_p, operand, axis, reverse)


def cumlogsumexp(operand, axis: int = 0, reverse: bool = False):
    """Running ``log(sum(exp(x)))`` along ``axis``, computed stably."""
    return _bind(cumlogsumexp_p, operand, axis, reverse)
