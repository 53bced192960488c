"""Convolutions: conv_general_dilated, its dimension numbers, and the conv wrappers."""

from __future__ import annotations

import math
import string
from collections.abc import Sequence
from typing import Any, NamedTuple, Union

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.convolution_shapes import (
    conv_general_permutations,
    conv_transpose_padding,
    dilated_extents,
    strided_extent,
)
from jaxle_core.lax.dot import canonicalize_precision, compute_dtype, from_accumulator, to_accumulator
from jaxle_core.lax.standard import as_int_tuple
from jaxle_core.lax.structural import rev, transpose
from jaxle_core.lax.windowed import padtype_to_pads, window_positions
from jaxle_core.sharding_types import resolve_out_sharding

__all__ = ["ConvDimensionNumbers", "ConvGeneralDilatedDimensionNumbers", "conv", "conv_dimension_numbers",
           "conv_general_dilated", "conv_general_dilated_p", "conv_transpose", "conv_with_general_padding"]


class ConvDimensionNumbers(NamedTuple):
    """Where the batch/feature/spatial dimensions sit: each spec lists, for (N or O, C or I, spatial...), the
    axis of the lhs, rhs or output that holds it."""

    lhs_spec: tuple[int, ...]
    rhs_spec: tuple[int, ...]
    out_spec: tuple[int, ...]


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """``ConvDimensionNumbers`` from None (NCHW/OIHW/NCHW order), a ConvDimensionNumbers, or three layout
    strings such as ``('NHWC', 'HWIO', 'NHWC')``."""
    ndim = len(lhs_shape)
    if len(rhs_shape) != ndim:
        raise TypeError(f"convolution requires lhs and rhs ndim to be equal, got {len(lhs_shape)} and "
                        f"{len(rhs_shape)}.")
    if dimension_numbers is None:
        default = tuple(range(ndim))
        return ConvDimensionNumbers(default, default, default)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if len(dimension_numbers) != 3:
        raise TypeError(f"convolution dimension_numbers list/tuple must be length 3, got {len(dimension_numbers)}.")
    if not all(isinstance(spec, str) for spec in dimension_numbers):
        raise TypeError(f"convolution dimension_numbers elements must be strings, got "
                        f"{tuple(map(type, dimension_numbers))}.")
    for i, spec in enumerate(dimension_numbers):
        if len(spec) != ndim:
            raise TypeError(f"convolution dimension_numbers[{i}] must have len equal to the ndim of lhs and rhs, "
                            f"got {len(spec)} for lhs and rhs shapes {tuple(lhs_shape)} and {tuple(rhs_shape)}.")
    return ConvDimensionNumbers(*conv_general_permutations(dimension_numbers))


# ---------------------------------------------------------------- conv_general_dilated

conv_general_dilated_p = Primitive("conv_general_dilated")


@conv_general_dilated_p.def_abstract_eval
def _conv_aval(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
               feature_group_count, batch_group_count, precision, preferred_element_type, out_sharding):
    name = "conv_general_dilated"
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    batch, features = lhs.shape[lhs_spec[0]], lhs.shape[lhs_spec[1]]
    out_features, in_features = rhs.shape[rhs_spec[0]], rhs.shape[rhs_spec[1]]
    if feature_group_count <= 0:
        raise ValueError(f"{name} feature_group_count must be a positive integer, got {feature_group_count}.")
    if features % feature_group_count:
        raise ValueError(f"{name} feature_group_count must divide lhs feature dimension size, but "
                         f"{feature_group_count} does not divide {features}.")
    if features // feature_group_count != in_features:
        raise ValueError(f"{name} lhs feature dimension size divided by feature_group_count must equal the rhs "
                         f"input feature dimension size, but {features} // {feature_group_count} != "
                         f"{in_features}.")
    if out_features % feature_group_count:
        raise ValueError(f"{name} rhs output feature dimension size must be a multiple of feature_group_count, "
                         f"but {out_features} is not a multiple of {feature_group_count}.")
    if batch_group_count <= 0:
        raise ValueError(f"{name} batch_group_count must be a positive integer, got {batch_group_count}.")
    if batch % batch_group_count:
        raise ValueError(f"{name} batch_group_count must divide lhs batch dimension size, but "
                         f"{batch_group_count} does not divide {batch}.")
    if out_features % batch_group_count:
        raise ValueError(f"{name} rhs output feature dimension size must be a multiple of batch_group_count, "
                         f"but {out_features} is not a multiple of {batch_group_count}.")
    if feature_group_count > 1 and batch_group_count > 1:
        raise ValueError(f"At most one of batch_group_count and feature_group_count may be > 1, got "
                         f"batch_group_count={batch_group_count} and feature_group_count={feature_group_count}")
    dilated = dilated_extents([lhs.shape[d] for d in lhs_spec[2:]], lhs_dilation)
    window = dilated_extents([rhs.shape[d] for d in rhs_spec[2:]], rhs_dilation)
    padded = [size + lo + hi for size, (lo, hi) in zip(dilated, padding)]
    if any(size < 0 for size in padded):
        raise ValueError(f"Negative padding is larger than the size of the corresponding dimension: got "
                         f"padding={padding} for lhs_shape[2:]={tuple(np.int64(size) for size in dilated)}")
    # Strides are checked when the convolution runs or is compiled, as XLA's verifier does in JAX.
    spatial = [int(strided_extent(size, w, s)) for size, w, s in zip(padded, window, window_strides)]
    logical = (batch // batch_group_count, out_features, *spatial)
    shape = [0] * lhs.ndim
    for logical_dim, axis in enumerate(out_spec):
        shape[axis] = logical[logical_dim]
    if lhs.dtype != rhs.dtype:
        raise TypeError(f"lax.{name} requires arguments to have the same dtypes, got {lhs.dtype.name}, "
                        f"{rhs.dtype.name}.")
    if preferred_element_type is not None:
        _check_preferred_element_type(lhs.dtype, preferred_element_type)
    dtype = lhs.dtype if preferred_element_type is None else preferred_element_type
    return ShapedArray(shape, dtype, lhs.weak_type and rhs.weak_type)


def _check_preferred_element_type(original: np.dtype, preferred: np.dtype) -> None:
    """Integers may widen to integers of the same signedness or become floats; floats may only widen to floats;
    complex only to complex; bool to anything."""
    if not (dtypes.issubdtype(original, np.integer) and dtypes.issubdtype(preferred, np.floating)):
        for kind in (np.integer, np.floating, np.complexfloating):
            if dtypes.issubdtype(original, kind) and not dtypes.issubdtype(preferred, kind):
                raise TypeError("Input type is incompatible with `preferred_element_type`. The compatible "
                                "combinations of (input_type, preferred_element_type) are (integral, integral), "
                                "(integral, floating), (floating, floating), (complex, complex.")
        if dtypes.issubdtype(original, np.signedinteger) and not dtypes.issubdtype(preferred, np.signedinteger):
            raise TypeError("`preferred_element_type` must have the same signedness as the original type.")
    if np.dtype(preferred).itemsize < np.dtype(original).itemsize:
        raise TypeError("`preferred_element_type` must not be narrower than the original type.")


def _letters(count: int, pool) -> str:
    return "".join(next(pool) for _ in range(count))


def check_conv_window(window: Sequence[int], window_strides: Sequence[int], lhs_dilation: Sequence[int],
                      rhs_dilation: Sequence[int]) -> None:
    """What XLA's verifier rejects in a convolution that JAX's tracing lets through (JAX raises it when the
    convolution is lowered): dilations of the wrong length, and empty windows or strides that are not positive
    (``window`` is the kernel's spatial sizes)."""
    problems = [f"expects {name} to have same dimension-size as size of window dimensions ({len(window)}), but "
                f"got: {len(values)}." for name, values in (("window-strides", window_strides),
                                                            ("base-dilation factors", lhs_dilation),
                                                            ("window-dilation factors", rhs_dilation))
                if len(values) != len(window)]
    for i, (size, stride) in enumerate(zip(window, window_strides)):
        if size <= 0:
            problems.append(f"expects window to have positive value for {i}-th window dimension, but got {size}.")
        if stride <= 0:
            problems.append(f"expects window to have positive stride for {i}-th window dimension, but got {stride}.")
    if problems:
        raise ValueError(f"Cannot lower jaxpr with verifier errors:\n\t{problems[0]}")


@conv_general_dilated_p.def_impl
def _conv_impl(lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
               feature_group_count, batch_group_count, precision, preferred_element_type, out_sharding):
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    check_conv_window([rhs.shape[d] for d in rhs_spec[2:]], window_strides, lhs_dilation, rhs_dilation)
    out_dtype = np.dtype(preferred_element_type or lhs.dtype)
    compute = compute_dtype(lhs.dtype, out_dtype)
    x = to_accumulator(np.transpose(lhs, lhs_spec), compute)  # (N, C, spatial...)
    k = to_accumulator(np.transpose(rhs, rhs_spec), compute)  # (O, I, window...)
    n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
    o, window = k.shape[0], k.shape[2:]
    # Every window of the padded, lhs-dilated input: patches[n, c, out..., win...], zero over padding and holes.
    index = window_positions(spatial, window, window_strides, padding, lhs_dilation, rhs_dilation)
    flat = x.reshape(n, c, math.prod(spatial))
    taken = flat[:, :, np.maximum(index, 0)] if flat.shape[-1] else np.zeros((n, c, *index.shape), x.dtype)
    patches = np.where(index >= 0, taken, np.zeros((), x.dtype))
    # Those zeros are multiplied by the weights (0 * inf is NaN), except in the convolutions XLA on CPU computes
    # from the operand's elements alone: transposed ones (lhs dilation) of one or two spatial dimensions with unit
    # strides, no rhs dilation and no grouping, and those of an empty operand (all zeros).
    from_elements = x.size == 0 or (
        any(d > 1 for d in lhs_dilation) and len(spatial) <= 2 and set(window_strides) <= {1}
        and set(rhs_dilation) <= {1} and feature_group_count == batch_group_count == 1)
    skipped = index < 0 if from_elements else np.zeros(index.shape, bool)
    out_spatial = index.shape[:len(spatial)]
    taps = math.prod(window)
    g, b = feature_group_count, batch_group_count
    # Group the features (feature groups) or the batch (batch groups) and contract within each group, one
    # window position at a time.
    patches = patches.reshape(b, n // b, g, c // g, *out_spatial, taps)
    kernel = k.reshape(b, g, o // (b * g), c // g, taps)
    skipped = skipped.reshape(*out_spatial, taps)
    pool = iter(string.ascii_letters)
    bb, nn, gg, cc, oo = (next(pool) for _ in range(5))
    outs = _letters(len(spatial), pool)
    spec = f"{bb}{nn}{gg}{cc}{outs},{bb}{gg}{oo}{cc}->{nn}{bb}{gg}{oo}{outs}"
    total = np.zeros((n // b, b, g, o // (b * g), *out_spatial), x.dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        for tap in range(taps):
            term = np.einsum(spec, patches[..., tap], kernel[..., tap])
            total += np.where(skipped[..., tap], np.zeros((), x.dtype), term)
    total = np.transpose(total.reshape(n // b, o, *out_spatial), np.argsort(out_spec))
    return from_accumulator(total, compute, out_dtype)


def _conv_padding(padding, lhs_spatial, rhs_spatial, strides, lhs_dilation, rhs_dilation) -> tuple:
    if isinstance(padding, str):
        if any(d != 1 for d in lhs_dilation):
            raise ValueError("String padding is not implemented for transposed convolution using this op. Please "
                             "either exactly specify the required padding or use conv_transpose.")
        pads = padtype_to_pads(lhs_spatial, dilated_extents(rhs_spatial, rhs_dilation), strides, padding)
    else:
        try:
            pads = [(lo, hi) for lo, hi in padding]
        except (TypeError, ValueError):
            pads = None
        if pads is None or not all(isinstance(p, (int, np.integer)) for pair in pads for p in pair):
            raise ValueError(f"padding argument to conv_general_dilated should be a string or a sequence of "
                             f"(low, high) pairs, got {padding}")
        if len(pads) != len(lhs_spatial):
            raise TypeError(f"Wrong number of explicit pads for convolution: expected {len(lhs_spatial)}, got "
                            f"{len(pads)}.")
    return tuple((int(lo), int(hi)) for lo, hi in pads)


def _static_counts(values: Sequence[int]) -> tuple[int, ...]:
    """Dilations and group counts must be Python or NumPy integers; JAX reports anything else this way."""
    if not all(isinstance(v, (int, np.integer)) for v in values):
        raise NotImplementedError("Convolutions with non-static strides, dilation, feature_group_count, or "
                                  "batch_group_count")
    return tuple(int(v) for v in values)


def conv_general_dilated(lhs, rhs, window_strides: Sequence[int], padding, lhs_dilation=None, rhs_dilation=None,
                         dimension_numbers=None, feature_group_count: int = 1, batch_group_count: int = 1,
                         precision=None, preferred_element_type=None, out_sharding=None):
    """General n-d convolution (cross-correlation, as in deep learning) with strides, padding ('VALID', 'SAME',
    'SAME_LOWER' or (low, high) pairs), lhs dilation (transposed convolution), rhs dilation (atrous) and
    feature/batch grouping. ``dimension_numbers`` is as ``conv_dimension_numbers`` accepts."""
    lhs_shape, rhs_shape = get_aval(lhs).shape, get_aval(rhs).shape
    dnums = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    n_spatial = len(lhs_shape) - 2
    window_strides = as_int_tuple(window_strides)
    if len(window_strides) != n_spatial:
        raise ValueError(f"conv_general_dilated window and window_strides must have the same number of "
                         f"dimensions, but got {n_spatial} and {len(window_strides)}")
    lhs_dilation = (1,) * n_spatial if lhs_dilation is None else _static_counts(lhs_dilation)
    rhs_dilation = (1,) * n_spatial if rhs_dilation is None else _static_counts(rhs_dilation)
    feature_group_count, batch_group_count = _static_counts((feature_group_count, batch_group_count))
    lhs_spatial = [lhs_shape[d] for d in dnums.lhs_spec[2:]]
    rhs_spatial = [rhs_shape[d] for d in dnums.rhs_spec[2:]]
    pads = _conv_padding(padding, lhs_spatial, rhs_spatial, window_strides, lhs_dilation, rhs_dilation)
    preferred = None if preferred_element_type is None else dtypes.canonicalize_dtype(
        dtypes.dtype(preferred_element_type))
    return conv_general_dilated_p.bind(
        lhs, rhs, window_strides=window_strides, padding=pads, lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation, dimension_numbers=dnums, feature_group_count=feature_group_count,
        batch_group_count=batch_group_count, precision=canonicalize_precision(precision),
        preferred_element_type=preferred, out_sharding=resolve_out_sharding(out_sharding, "dot_general"))


def conv(lhs, rhs, window_strides: Sequence[int], padding: str, precision=None, preferred_element_type=None):
    """Convolution of an NCHW ``lhs`` with an OIHW ``rhs``, without dilation."""
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs, rhs, window_strides: Sequence[int], padding: Any, lhs_dilation, rhs_dilation,
                              precision=None, preferred_element_type=None):
    """Convolution of an NCHW ``lhs`` with an OIHW ``rhs``, with explicit dilations."""
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=lhs_dilation,
                                rhs_dilation=rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)


ConvGeneralDilatedDimensionNumbers = Union[tuple[str, str, str], ConvDimensionNumbers, None]  # noqa: UP007

# conv_transpose's default layouts by rank: features last, as in TensorFlow.
_TRANSPOSE_LAYOUTS = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"), 4: ("NHWC", "HWIO", "NHWC"),
                      5: ("NHWDC", "HWDIO", "NHWDC")}


def _flip_kernel(rhs, dnums: ConvDimensionNumbers):
    """The kernel mirrored along its window and with its input and output features swapped."""
    for axis in dnums.rhs_spec[2:]:
        rhs = rev(rhs, (axis,))
    permutation = list(range(len(dnums.rhs_spec)))
    out_axis, in_axis = dnums.rhs_spec[:2]
    permutation[out_axis], permutation[in_axis] = in_axis, out_axis
    return transpose(rhs, permutation)


def conv_transpose(lhs, rhs, strides: Sequence[int], padding, rhs_dilation: Sequence[int] | None = None,
                   dimension_numbers: ConvGeneralDilatedDimensionNumbers = None, transpose_kernel: bool = False,
                   precision=None, preferred_element_type=None, use_consistent_padding: bool = False):
    """Transposed convolution: the input dilated by ``strides`` and convolved with unit strides, padded so that
    'SAME' multiplies each spatial size by its stride and 'VALID' gives every position a window could have
    covered. Explicit (low, high) ``padding`` pads the dilated input, or with ``use_consistent_padding`` names
    the padding of the forward convolution this one transposes. ``transpose_kernel`` flips the kernel's window
    and swaps its features, giving the gradient of that forward convolution. Layouts default to NHWC/HWIO."""
    lhs_shape, rhs_shape = get_aval(lhs).shape, get_aval(rhs).shape
    ndim = len(lhs_shape)
    if ndim != len(rhs_shape) or ndim < 2:
        raise AssertionError
    if dimension_numbers is None:
        if ndim not in _TRANSPOSE_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_LAYOUTS[ndim]
    dnums = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    if rhs_dilation is None:
        rhs_dilation = (1,) * (ndim - 2)
    window = dilated_extents([rhs_shape[d] for d in dnums.rhs_spec[2:]], rhs_dilation)
    if use_consistent_padding and not isinstance(padding, str):
        pads = [(k - 1 - lo, k - 1 - hi) for k, (lo, hi) in zip(window, padding)]
    elif use_consistent_padding or padding in ("SAME", "VALID"):
        pads = [conv_transpose_padding(k, s, padding) for k, s in zip(window, strides)]
    else:
        pads = padding
    if transpose_kernel:
        rhs = _flip_kernel(rhs, dnums)
    return conv_general_dilated(lhs, rhs, (1,) * (ndim - 2), pads, strides, rhs_dilation, dnums,
                                precision=precision, preferred_element_type=preferred_element_type)
