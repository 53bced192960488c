"""``jax.nn.one_hot``: class labels as indicator vectors along a new axis."""

from __future__ import annotations

from typing import Any

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_numpy import util

__all__ = ["one_hot"]


@util.named_jit("_one_hot", static_argnames=("num_classes", "dtype", "axis"))
def _one_hot(x: Any, num_classes: int, dtype: Any, axis: int) -> Any:
    x_arr = util.as_array(x)
    out_axis = util.canonicalize_axis(axis, x_arr.ndim + 1)
    labels = lax.expand_dims(x_arr, (out_axis,))
    classes_shape = [1] * (x_arr.ndim + 1)
    classes_shape[out_axis] = num_classes
    classes = lax.broadcasted_iota(x_arr.dtype, tuple(classes_shape), out_axis)
    return lax.convert_element_type(jnp.equal(labels, classes), dtype)


def one_hot(x: Any, num_classes: int, *, dtype: Any | None = None, axis: int = -1) -> Any:
    """An array with a new ``axis`` of length ``num_classes``: 1 where the position equals the label in ``x``,
    else 0 (labels outside ``[0, num_classes)`` give all zeros)."""
    num_classes = util.concrete_index(num_classes, "The error arose in jax.nn.one_hot argument `num_classes`.")
    dtype = dtypes.default_float_dtype() if dtype is None else util.requested_dtype(dtype, "one_hot")
    return _one_hot(jnp.asarray(x), num_classes=num_classes, dtype=dtype, axis=axis)
