"""Convolutions built from conv_general_dilated: the patches (im2col) of an input, and locally connected
(unshared-weight) convolutions."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.lax.convolution import conv_dimension_numbers, conv_general_dilated
from jaxle_core.lax.dot import Precision, canonicalize_precision, dot_general
from jaxle_core.lax.structural import broadcast_in_dim, eye, reshape, transpose

__all__ = ["conv_general_dilated_local", "conv_general_dilated_patches"]


def conv_general_dilated_patches(lhs, filter_shape: Sequence[int], window_strides: Sequence[int], padding,
                                 lhs_dilation: Sequence[int] | None = None,
                                 rhs_dilation: Sequence[int] | None = None, dimension_numbers=None,
                                 precision: Precision | None = None, preferred_element_type=None):
    """Every window of ``filter_shape`` over ``lhs``, laid out as the output of ``conv_general_dilated`` whose
    feature dimension holds, for each input feature (slowest) and each window position (row-major), the element
    there. The arguments are ``conv_general_dilated``'s; ``dimension_numbers`` places the window's axes."""
    lhs_shape = get_aval(lhs).shape
    filter_shape = tuple(filter_shape)
    dnums = conv_dimension_numbers(lhs_shape, (1, 1, *filter_shape), dimension_numbers)
    taps = math.prod(filter_shape)
    features = lhs_shape[dnums.lhs_spec[1]]
    # One group per input feature, whose output feature t is a one-hot window picking window position t.
    kernel = broadcast_in_dim(eye(get_aval(lhs).dtype, (taps, taps)), (features, taps, taps), (1, 2))
    kernel = reshape(kernel, (features * taps, 1, *filter_shape))
    kernel = transpose(kernel, tuple(np.argsort(dnums.rhs_spec)))
    return conv_general_dilated(lhs, kernel, window_strides, padding, lhs_dilation, rhs_dilation, dnums,
                                feature_group_count=features,
                                precision=None if precision is None else (precision, Precision.DEFAULT),
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_local(lhs, rhs, window_strides: Sequence[int], padding, filter_shape: Sequence[int],
                               lhs_dilation: Sequence[int] | None = None, rhs_dilation: Sequence[int] | None = None,
                               dimension_numbers=None, precision=None):
    """A convolution whose weights differ at every output position (a locally connected layer). ``rhs``'s
    spatial axes are the output's; its input-feature axis holds the input features times the window positions
    of ``filter_shape`` (as ``conv_general_dilated_patches`` orders them). Other arguments are
    ``conv_general_dilated``'s."""
    lhs_precision, rhs_precision = canonicalize_precision(precision) or (None, None)
    patches = conv_general_dilated_patches(lhs, filter_shape, window_strides, padding, lhs_dilation, rhs_dilation,
                                           dimension_numbers, precision=lhs_precision)
    _, rhs_spec, out_spec = conv_dimension_numbers(get_aval(lhs).shape, (1, 1, *filter_shape), dimension_numbers)
    # Contract the patch features with the rhs's input features, position by position (the batch dimensions).
    out = dot_general(patches, rhs, (((out_spec[1],), (rhs_spec[1],)), (out_spec[2:], rhs_spec[2:])),
                      precision=None if precision is None else (lhs_precision, rhs_precision))
    # dot_general gives (spatial..., N, O); move each to the axis out_spec gives it.
    n_spatial = len(out_spec) - 2
    logical_to_result = (n_spatial, n_spatial + 1, *range(n_spatial))
    return transpose(out, tuple(logical_to_result[logical] for logical in np.argsort(out_spec)))
