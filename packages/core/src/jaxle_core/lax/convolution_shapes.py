"""Shape arithmetic of convolutions and windowed reductions: layout permutations, output shapes, the padding of
transposed convolutions. Pure functions of shapes; no primitives."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.lax.windowed import padtype_to_pads

__all__ = ["conv_general_permutations", "conv_general_shape_tuple", "conv_shape_tuple", "conv_transpose_shape_tuple",
           "reduce_window_shape_tuple"]


def conv_general_permutations(dimension_numbers) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """For three layout strings such as ``('NHWC', 'HWIO', 'NHWC')``, the axes of the lhs, rhs and output that
    hold (N or O, C or I, spatial...), the spatial dimensions in the rhs's order."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    for i, (spec, pair) in enumerate(zip((lhs_spec, rhs_spec, out_spec), ("NC", "OI", "NC"))):
        if any(spec.count(c) != 1 for c in pair):
            raise TypeError(f"convolution dimension_numbers[{i}] must contain the characters '{pair[0]}' and "
                            f"'{pair[1]}' exactly once, got {spec}.")
        if len(set(spec)) != len(spec):
            raise TypeError(f"convolution dimension_numbers[{i}] cannot have duplicate characters, got {spec}.")
    spatial = [set(lhs_spec) - set("NC"), set(rhs_spec) - set("OI"), set(out_spec) - set("NC")]
    if not spatial[0] == spatial[1] == spatial[2]:
        raise TypeError(f"convolution dimension_numbers elements must each have the same set of spatial "
                        f"characters, got {dimension_numbers}.")
    spatial_order = [c for c in rhs_spec if c not in "OI"]

    def permutation(spec: str, pair: str) -> tuple[int, ...]:
        return tuple(spec.index(c) for c in (*pair, *spatial_order))

    return permutation(lhs_spec, "NC"), permutation(rhs_spec, "OI"), permutation(out_spec, "NC")


def check_dilations(dilation: Sequence[int]) -> None:
    if not all(d > 0 for d in dilation):
        raise TypeError(f"All dilations must be positive, got {tuple(dilation)}.")


def dilated_extents(shape: Sequence[int], dilation: Sequence[int]) -> list:
    """``shape`` with ``dilation - 1`` holes between neighbours. A dilation of another length than the shape
    pairs with its trailing dimensions, the others staying undilated (as JAX's shape rule does)."""
    check_dilations(dilation)
    extents = list(shape)
    for i in range(1, min(len(shape), len(dilation)) + 1):
        n = extents[-i]
        extents[-i] = 0 if n == 0 else (n - 1) * dilation[-i] + 1
    return extents


def strided_extent(size: Any, window: int, stride: int) -> Any:
    """How many window positions ``stride`` apart fit in ``size``. As in JAX, a zero stride counts as an integer
    division by zero (zero) and a negative one is not rejected here but by the compiler."""
    steps = (size - window) // stride if stride else size * 0
    return max(steps + 1, 0)


def _explicit_pads(padding, lhs_spatial: Sequence[int], rhs_spatial: Sequence[int], strides: Sequence[int]) -> list:
    if isinstance(padding, str):
        padding = padtype_to_pads(lhs_spatial, rhs_spatial, strides, padding)
    if len(padding) != len(lhs_spatial):
        raise TypeError(f"Wrong number of explicit pads for convolution: expected {len(lhs_spatial)}, got "
                        f"{len(padding)}.")
    return padding


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count: int = 1) -> tuple:
    """The output shape of an NC... / OI... convolution (``pads`` a padding string or (low, high) pairs)."""
    pads = _explicit_pads(pads, lhs_shape[2:], rhs_shape[2:], strides)
    padded = np.add(lhs_shape[2:], np.sum(np.array(pads).reshape(-1, 2), axis=1))
    if np.any(padded < 0):
        raise ValueError(f"Negative padding is larger than the size of the corresponding dimension: got "
                         f"padding={pads} for lhs_shape[2:]={lhs_shape[2:]}")
    spatial = tuple(strided_extent(size, window, stride) for size, window, stride in zip(padded, rhs_shape[2:],
                                                                                          strides))
    batch = lhs_shape[0]
    if batch_group_count > 1:
        if batch % batch_group_count:
            raise AssertionError
        batch = batch // batch_group_count
    return (batch, rhs_shape[0], *spatial)


def conv_general_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers) -> tuple:
    """The output shape of ``conv_general_dilated`` without dilations, for layout strings."""
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    logical = conv_shape_tuple(np.take(lhs_shape, lhs_perm), np.take(rhs_shape, rhs_perm), window_strides, padding)
    return tuple(np.take(logical, np.argsort(out_perm)))


def conv_transpose_padding(window: int, stride: int, padding: str) -> tuple[int, int]:
    """The (low, high) padding of the ``stride``-dilated input that makes ``conv_transpose`` undo a 'SAME' or
    'VALID' strided convolution with a window of ``window``: its output is ``stride`` times its input ('SAME')
    or the input the window could have covered ('VALID')."""
    if padding == "SAME":
        total = window + stride - 2
        low = window - 1 if stride > window - 1 else -(-total // 2)
    elif padding == "VALID":
        total = window + stride - 2 + max(window - stride, 0)
        low = window - 1
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return low, total - low


def conv_transpose_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers) -> tuple:
    """The output shape of ``conv_transpose`` (without rhs dilation), for layout strings."""
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    lhs_spatial, window = np.take(lhs_shape, lhs_perm)[2:], np.take(rhs_shape, rhs_perm)[2:]
    if isinstance(padding, str):
        padding = [conv_transpose_padding(k, s, padding) for k, s in zip(window, window_strides)]
    padding = np.array(padding).reshape(-1, 2)
    # The stride-dilated input, padded, swept by the window with unit strides.
    dilated = np.array([(n - 1) * s + 1 for n, s in zip(lhs_spatial, window_strides)])
    spatial = dilated + padding[:, 0] + padding[:, 1] - window + 1
    logical = (lhs_shape[lhs_perm[0]], rhs_shape[rhs_perm[0]], *spatial)
    return tuple(np.take(logical, np.argsort(out_perm)))


def reduce_window_shape_tuple(operand_shape, window_dimensions, window_strides, padding, base_dilation=None,
                              window_dilation=None) -> tuple[int, ...]:
    """The output shape of a windowed reduction with explicit (low, high) ``padding``."""
    if base_dilation is not None:
        operand_shape = dilated_extents(operand_shape, base_dilation)
    if window_dilation is not None:
        window_dimensions = dilated_extents(window_dimensions, window_dilation)
    _check_lengths(operand_shape, window_dimensions, window_strides, padding)
    padded = [n + lo + hi for n, (lo, hi) in zip(operand_shape, padding)]
    return tuple(int(max((size - window) // stride + 1, 0))
                 for size, window, stride in zip(padded, window_dimensions, window_strides))


def _check_lengths(operand_shape: Sequence[int], window_dimensions: Sequence[int], window_strides: Sequence[int],
                   padding: Sequence) -> None:
    """JAX's errors for arguments of different lengths: it pairs the shape with the padding, then walks the padded
    shape, the window and the strides together."""
    if len(padding) != len(operand_shape):
        raise ValueError(f"safe_zip() argument 1 has length {len(padding)} but argument 0 has length "
                         f"{len(operand_shape)}. All lengths: {(len(operand_shape), len(padding))}")
    for position, values in ((2, window_dimensions), (3, window_strides)):
        if len(values) != len(operand_shape):
            relation = "shorter" if len(values) < len(operand_shape) else "longer"
            raise ValueError(f"safe_map() argument {position} is {relation} than argument 1")
