"""convolve and correlate of 1-d arrays, staged as one conv_general_dilated (as JAX does)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import convolution as lax_convolution
from jaxle_core.lax import elementwise as lax_elementwise
from jaxle_core.lax import structural as lax_structural
from jaxle_numpy.manipulation import flip
from jaxle_numpy.util import check_arraylike, promote_dtypes, promote_dtypes_inexact

__all__ = ["convolve", "correlate"]

_MODES = ("full", "same", "valid")


def _padding(mode: str, kernel_size: int) -> tuple[int, int]:
    if mode == "full":
        return kernel_size - 1, kernel_size - 1
    if mode == "same":
        return kernel_size // 2, kernel_size - 1 - kernel_size // 2
    if mode == "valid":
        return 0, 0
    raise ValueError(f"mode must be one of {list(_MODES)}")


@functools.partial(jit, static_argnames=("mode", "op", "precision", "preferred_element_type"))
def _conv(x: Any, y: Any, mode: str, op: str, precision: Any, preferred_element_type: Any) -> Any:
    """The full/same/valid ``op`` ("convolve" or "correlate") of 1-d ``x`` and ``y``: the longer operand slides
    under the shorter one in one 1-d convolution, its result reversed when a correlation's operands swapped."""
    x_shape, y_shape = get_aval(x).shape, get_aval(y).shape
    if len(x_shape) != 1 or len(y_shape) != 1:
        raise ValueError(f"{op}() only support 1-dimensional inputs.")
    if x_shape[0] == 0 or y_shape[0] == 0:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {x_shape} and {y_shape}.")
    if preferred_element_type is None:
        x, y = promote_dtypes_inexact(x, y)
    else:
        x, y = promote_dtypes(x, y)
    if op == "correlate" and dtypes.issubdtype(get_aval(y).dtype, np.complexfloating):
        y = lax_elementwise.conj(y)
    swapped = x_shape[0] < y_shape[0]
    if swapped:
        x, y = y, x
    if op == "convolve":
        y = flip(y)
    padding = _padding(mode, get_aval(y).shape[0])
    lhs = lax_structural.broadcast_in_dim(x, (1, 1) + get_aval(x).shape, (2,))
    rhs = lax_structural.broadcast_in_dim(y, (1, 1) + get_aval(y).shape, (2,))
    out = lax_convolution.conv_general_dilated(lhs, rhs, (1,), [padding], precision=precision,
                                               preferred_element_type=preferred_element_type)
    if swapped and op == "correlate":
        out = lax_structural.rev(out, (2,))
    return lax_structural.squeeze(out, (0, 1))


@functools.partial(jit, static_argnames=("mode", "precision", "preferred_element_type"))
def convolve(a: Any, v: Any, mode: str = "full", *, precision=None, preferred_element_type=None) -> Any:
    """The discrete linear convolution of 1-d ``a`` and ``v`` (``mode``: "full", "same" or "valid")."""
    check_arraylike("convolve", a, v)
    return _conv(a, v, mode=mode, op="convolve", precision=precision, preferred_element_type=preferred_element_type)


@functools.partial(jit, static_argnames=("mode", "precision", "preferred_element_type"))
def correlate(a: Any, v: Any, mode: str = "valid", *, precision=None, preferred_element_type=None) -> Any:
    """The cross-correlation of 1-d ``a`` and ``v`` (``v`` conjugated; ``mode``: "full", "same" or "valid")."""
    check_arraylike("correlate", a, v)
    return _conv(a, v, mode=mode, op="correlate", precision=precision, preferred_element_type=preferred_element_type)
