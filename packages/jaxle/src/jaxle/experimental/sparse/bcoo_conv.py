"""``bcoo_conv_general_dilated``: the one-dimensional convolution of a sparse signal, a sparse result.

As JAX's, it handles one signal and one filter of one channel each (leading dimensions ``(1, 1)``), unit strides
and no dilation: each stored entry of the signal contributes its value times each filter tap at the output
position the tap carries it to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle import numpy as jnp
from jaxle.experimental.sparse.bcoo import BCOO, bcoo_fromdense, bcoo_todense, bcoo_update_layout
from jaxle_core import lax
from jaxle_core.api import eval_shape
from jaxle_core.avals import ShapeDtypeStruct
from jaxle_core.lax.windowed import padtype_to_pads

__all__ = ["bcoo_conv_general_dilated"]


def _unit(values: Sequence[int] | None) -> bool:
    return values is None or all(v == 1 for v in values)


def _abstract(x: Any) -> ShapeDtypeStruct:
    return ShapeDtypeStruct(tuple(x.shape), x.dtype)


def bcoo_conv_general_dilated(lhs: Any, rhs: Any, *, window_strides: Sequence[int], padding: Any,
                              lhs_dilation: Sequence[int] | None = None, rhs_dilation: Sequence[int] | None = None,
                              dimension_numbers: Any = None, feature_group_count: int = 1,
                              batch_group_count: int = 1, precision: Any = None, preferred_element_type: Any = None,
                              out_sharding: Any = None) -> BCOO:
    """``lax.conv_general_dilated`` with a sparse (or dense) signal ``lhs`` and filter ``rhs``, as a BCOO array."""

    def dense_conv(x, y):
        return lax.conv_general_dilated(x, y, window_strides, padding, lhs_dilation=lhs_dilation,
                                        rhs_dilation=rhs_dilation, dimension_numbers=dimension_numbers,
                                        feature_group_count=feature_group_count,
                                        batch_group_count=batch_group_count,
                                        preferred_element_type=preferred_element_type)

    out_aval = eval_shape(dense_conv, _abstract(lhs), _abstract(rhs))  # lax's checks, and the result's type
    if not _unit(window_strides):
        raise NotImplementedError("bcoo convolution with non-unit window_strides.")
    if not (_unit(lhs_dilation) and _unit(rhs_dilation)):
        raise NotImplementedError("bcoo convolution with lhs_dilation.")
    if feature_group_count != 1 or batch_group_count != 1:
        raise NotImplementedError("bcoo convolution with non-unit group counts.")
    if len(lhs.shape) != 3:
        raise ValueError(f"bcoo convolution has one spatial dimension, got operands of shapes {tuple(lhs.shape)} "
                         f"and {tuple(rhs.shape)}")
    if dimension_numbers is not None and tuple(map(tuple, lax.conv_dimension_numbers(
            lhs.shape, rhs.shape, dimension_numbers))) != ((0, 1, 2),) * 3:
        raise NotImplementedError("bcoo convolution with dimension_numbers other than ('NCH', 'OIH', 'NCH').")
    if not isinstance(lhs, BCOO):
        lhs = bcoo_fromdense(jnp.asarray(lhs), nse=lhs.size)
    if isinstance(rhs, BCOO):
        rhs = bcoo_todense(rhs)
    lhs = bcoo_update_layout(lhs, n_batch=2, n_dense=0)
    rhs = jnp.asarray(rhs)
    if lhs.shape[:2] != (1, 1) or rhs.shape[:2] != (1, 1):
        raise NotImplementedError("bcoo convolution with leading dimensions other than (1, 1)")
    width, taps = lhs.shape[2], rhs.shape[2]
    (low, _), = padtype_to_pads((width,), (taps,), (1,), padding) if isinstance(padding, str) else padding
    out_width = out_aval.shape[2]
    dtype = out_aval.dtype
    values, positions = lhs.data[0, 0], lhs.indices[0, 0, :, 0]
    # entry e meets tap t at output position positions[e] + low - t
    out_positions = (positions[:, None] + low - jnp.arange(taps, dtype=positions.dtype)[None, :]).reshape(-1)
    products = (values[:, None].astype(dtype) * rhs[0, 0][None, :].astype(dtype)).reshape(-1)
    inside = (out_positions >= 0) & (out_positions < out_width) & (positions < width).repeat(taps)
    products = jnp.where(inside, products, jnp.zeros((), dtype))
    out_positions = jnp.where(inside, out_positions, out_width)
    return BCOO((products[None, None], out_positions[None, None, :, None]), shape=(1, 1, out_width))
