"""Derivative rules of ``conv_general_dilated`` (``lax/convolution.py``).

A convolution is bilinear and transposes into another convolution: in its lhs by convolving the cotangent
with the spatially reversed kernel (strides and lhs dilation swap roles), in its rhs by convolving the lhs
with the cotangent (strides and rhs dilation swap roles); feature and batch groups trade places. The
equations match those JAX 0.10.2 emits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero
from jaxle_core.ad.rule_helpers import defbilinear, lhs_transpose_padding
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.convolution import ConvDimensionNumbers, conv_general_dilated_p
from jaxle_core.lax.structural import merge_axis, split_axis
from jaxle_core.lax.windowed import dilate_shape

defbilinear(conv_general_dilated_p)


def _rhs_transpose_padding(in_shape: Sequence[int], window: Sequence[int], strides: Sequence[int],
                           out_shape: Sequence[int], padding: Sequence[tuple[int, int]], lhs_dilation: Sequence[int],
                           rhs_dilation: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Pads making a sweep of the stride-dilated cotangent over the input give one result per kernel tap."""
    return tuple((lo, o - n + w - lo - 1) for n, w, o, (lo, _) in zip(
        dilate_shape(in_shape, lhs_dilation), dilate_shape(window, rhs_dilation), dilate_shape(out_shape, strides),
        padding))


# ---------------------------------------------------------------- conv_general_dilated


def _swap_leading(spec: Sequence[int]) -> tuple[int, ...]:
    return (spec[1], spec[0], *spec[2:])


def _spatial(shape: Sequence[int], spec: Sequence[int]) -> list[int]:
    return [shape[d] for d in spec[2:]]


def _cast(x: Any, dtype: np.dtype) -> Any:
    return x if get_aval(x).dtype == dtype else lax.convert_element_type(x, dtype)


def _conv_transpose_lhs(ct, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
                        feature_group_count, batch_group_count, precision, preferred_element_type, out_sharding):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs_aval, rhs_shape = lhs.aval, get_aval(rhs).shape
    groups = max(feature_group_count, batch_group_count)
    if groups > 1:  # the groups move from the kernel's output features to its input features
        rhs = merge_axis(split_axis(rhs, rhs_spec[0], groups), rhs_spec[0], rhs_spec[1])
    pads = lhs_transpose_padding(_spatial(lhs_aval.shape, lhs_spec), _spatial(rhs_shape, rhs_spec), window_strides,
                                 _spatial(get_aval(ct).shape, out_spec), padding, lhs_dilation, rhs_dilation)
    kernel = _cast(lax.rev(rhs, rhs_spec[2:]), get_aval(ct).dtype)
    out = lax.conv_general_dilated(
        ct, kernel, window_strides=lhs_dilation, padding=pads, lhs_dilation=window_strides,
        rhs_dilation=rhs_dilation, dimension_numbers=ConvDimensionNumbers(out_spec, _swap_leading(rhs_spec), lhs_spec),
        feature_group_count=groups, batch_group_count=1, precision=precision,
        preferred_element_type=preferred_element_type,
        # laid out as the input (over Explicit mesh axes): the features it sums over may be split
        out_sharding=lhs_aval.explicit_sharding if batch_group_count == 1 else None)
    out = _cast(out, lhs_aval.dtype)
    if batch_group_count > 1:  # the batch groups were computed as features
        out = merge_axis(split_axis(out, lhs_spec[1], batch_group_count), lhs_spec[1], lhs_spec[0])
    return out


def _conv_transpose_rhs(ct, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
                        feature_group_count, batch_group_count, precision, preferred_element_type, out_sharding):
    if get_aval(ct).size == 0:  # no cotangent reaches the kernel; avoid a convolution with an empty window
        return Zero(rhs.aval)
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    lhs_shape = get_aval(lhs).shape
    pads = _rhs_transpose_padding(_spatial(lhs_shape, lhs_spec), _spatial(rhs.aval.shape, rhs_spec), window_strides,
                                  _spatial(get_aval(ct).shape, out_spec), padding, lhs_dilation, rhs_dilation)
    out = lax.conv_general_dilated(
        _cast(lhs, get_aval(ct).dtype), ct, window_strides=rhs_dilation, padding=pads, lhs_dilation=lhs_dilation,
        rhs_dilation=window_strides,
        dimension_numbers=ConvDimensionNumbers(*map(_swap_leading, (lhs_spec, out_spec, rhs_spec))),
        feature_group_count=batch_group_count, batch_group_count=feature_group_count, precision=precision,
        preferred_element_type=preferred_element_type, out_sharding=rhs.aval.explicit_sharding)
    return _cast(out, rhs.aval.dtype)


def _conv_transpose(ct, lhs, rhs, **params):
    if is_undefined(lhs):
        return [_conv_transpose_lhs(ct, lhs, rhs, **params), None]
    return [None, _conv_transpose_rhs(ct, lhs, rhs, **params)]


transpose_rules[conv_general_dilated_p] = _conv_transpose
