"""Approximate top-k: approx_max_k and approx_min_k, the approx_top_k primitive.

On accelerators XLA reduces the input in windows (trading recall for speed); on CPU it falls back to an exact
sort, which is what the reference computes: the largest (smallest) entries along the reduction dimension, ties in
index order. Without ``aggregate_to_topk`` the result keeps as many entries as the windowed reduction would
(``approx_top_k_output_size``), still sorted. XLA's fallback compares with ``>`` (``<``) only and does not sort
stably, so on XLA ties in longer rows and NaNs come in an order of its own, as in JAX.
"""

from __future__ import annotations

import math

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive

__all__ = ["approx_max_k", "approx_min_k", "approx_top_k_p"]


def approx_top_k_output_size(size: int, rank: int, k: int, recall_target: float, aggregate_to_topk: bool,
                             reduction_input_size_override: int) -> int:
    """How many entries XLA's windowed reduction keeps along a dimension of ``size`` (of an operand of ``rank``).

    It works on tiles (1024 lanes for a vector, 128 otherwise) and halves the tiles ``log2_reduction`` times,
    as often as the recall target allows for the logical input size (the override, when given), but not below
    one tile per block of the real input.
    """
    if aggregate_to_topk:
        return k
    tile = 1024 if rank == 1 else 128
    if size <= tile:
        return size
    if k == 1:
        return tile
    log_recall = math.log(recall_target) if recall_target > 0 else -math.inf
    # The expected recall of windows of size w is about exp((1 - k) / w): the window that reaches the target.
    window = math.inf if log_recall == 0 else max((1.0 - k) / log_recall, tile)
    if window == math.inf:
        return size
    logical_size = reduction_input_size_override if reduction_input_size_override >= 0 else size
    log2_reduction = (logical_size // int(window)).bit_length() - 1
    if log2_reduction <= 0:
        return size
    log2_reduction = min(log2_reduction, (size // tile - 1).bit_length())
    tiles = -(-size // tile)
    return -(-tiles // (1 << log2_reduction)) * tile


approx_top_k_p = Primitive("approx_top_k")
approx_top_k_p.multiple_results = True


@approx_top_k_p.def_abstract_eval
def _approx_top_k_aval(operand, *, k, reduction_dimension, recall_target, is_max_k, reduction_input_size_override,
                       aggregate_to_topk):
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    if operand.ndim == 0:
        raise TypeError(f"approx_top_k operand must have >= 1 dimension, got {operand.shape}")
    if not -operand.ndim <= reduction_dimension < operand.ndim:
        # JAX indexes the shape with the dimension unchecked.
        raise IndexError("list index out of range")
    dim = reduction_dimension % operand.ndim
    if k > operand.shape[dim]:
        raise ValueError(f"k must be smaller than the size of reduction_dim {operand.shape[dim]}, got {k}")
    if not dtypes.issubdtype(operand.dtype, np.floating):
        raise ValueError("operand must be a floating type")
    size = approx_top_k_output_size(operand.shape[dim], operand.ndim, k, recall_target, aggregate_to_topk,
                                    reduction_input_size_override)
    shape = operand.shape[:dim] + (size,) + operand.shape[dim + 1:]
    return [ShapedArray(shape, operand.dtype, operand.weak_type), ShapedArray(shape, np.int32)]


@approx_top_k_p.def_impl
def _approx_top_k_impl(operand, *, k, reduction_dimension, recall_target, is_max_k, reduction_input_size_override,
                       aggregate_to_topk):
    dim = reduction_dimension % operand.ndim
    # XLA's verifier refuses these when compiling; JAX raises its error then.
    if not 0 < recall_target <= 1:
        raise ValueError("'stablehlo.custom_call' op recall_target out of range")
    if 0 <= reduction_input_size_override < operand.shape[dim]:
        raise ValueError("'stablehlo.custom_call' op reduction_input_size_override out of range")
    size = approx_top_k_output_size(operand.shape[dim], operand.ndim, k, recall_target, aggregate_to_topk,
                                    reduction_input_size_override)
    moved = np.moveaxis(operand, dim, -1)
    keys = moved.astype(np.float64)
    # A stable sort, largest (smallest) first; -0.0 and 0.0 are equal.
    order = np.argsort(-keys if is_max_k else keys, axis=-1, kind="stable")[..., :size]
    values = np.take_along_axis(moved, order, axis=-1)
    return [np.moveaxis(values, -1, dim), np.moveaxis(order, -1, dim).astype(np.int32)]


def _approx_top_k(operand, k: int, reduction_dimension: int, recall_target: float, is_max_k: bool,
                  reduction_input_size_override: int, aggregate_to_topk: bool):
    # JAX returns the primitive's list of results as it is.
    return approx_top_k_p.bind(
        operand, k=k, reduction_dimension=reduction_dimension, recall_target=recall_target, is_max_k=is_max_k,
        reduction_input_size_override=reduction_input_size_override, aggregate_to_topk=aggregate_to_topk)


def approx_max_k(operand, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True):
    """The ``k`` largest entries of ``operand`` along ``reduction_dimension`` and their int32 indices, largest
    first (approximately on accelerators, exactly on CPU). With ``aggregate_to_topk=False`` more entries may be
    returned, as XLA's windowed reduction keeps them."""
    return _approx_top_k(operand, k, reduction_dimension, recall_target, True, reduction_input_size_override,
                         aggregate_to_topk)


def approx_min_k(operand, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True):
    """The ``k`` smallest entries along ``reduction_dimension`` and their int32 indices, smallest first; see
    ``approx_max_k``."""
    return _approx_top_k(operand, k, reduction_dimension, recall_target, False, reduction_input_size_override,
                         aggregate_to_topk)

