"""Ragged contraction: ragged_dot_general (one lhs dimension split into groups by ``group_sizes``) and ragged_dot.

The lhs's ragged dimension is cut into consecutive groups: group ``j`` covers positions
``start[j] <= i < end[j]`` with ``end = cumsum(group_sizes)`` and ``start = [0, end[0], ..., end[g-2]]``. Three
modes follow from where the ragged dimension sits:

- noncontracting: the rhs has a group dimension; each lhs group is contracted with its own rhs slice;
- contracting: each group is contracted separately and the result gets a leading group dimension;
- batch: the groups do not change the result, which is plain ``dot_general``.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.dot import canonicalize_precision, check_dimension_numbers, dot_general_p
from jaxle_core.sharding_types import resolve_out_sharding

__all__ = ["RaggedDotDimensionNumbers", "ragged_dot", "ragged_dot_general"]


@dataclasses.dataclass(frozen=True)
class RaggedDotDimensionNumbers:
    """``dot_general``'s dimension numbers plus the lhs's ragged dimension and the rhs's group dimension."""

    dot_dimension_numbers: tuple
    lhs_ragged_dimensions: tuple
    rhs_group_dimensions: tuple

    def __post_init__(self):
        # Lists become tuples (the numbers are a hashable primitive parameter); the integers stay as given.
        object.__setattr__(self, "dot_dimension_numbers",
                           tuple(tuple(tuple(side) for side in pair) for pair in self.dot_dimension_numbers))
        object.__setattr__(self, "lhs_ragged_dimensions", tuple(self.lhs_ragged_dimensions))
        object.__setattr__(self, "rhs_group_dimensions", tuple(self.rhs_group_dimensions))


class RaggedMode(enum.Enum):
    """Where the lhs's ragged dimension sits."""

    RAGGED_NONCONTRACTING = 1
    RAGGED_CONTRACTING = 2
    RAGGED_BATCH = 3


def ragged_mode(numbers: RaggedDotDimensionNumbers) -> RaggedMode:
    (lhs_contract, _), (lhs_batch, _) = numbers.dot_dimension_numbers
    (ragged,) = numbers.lhs_ragged_dimensions
    if ragged in lhs_contract:
        return RaggedMode.RAGGED_CONTRACTING
    if ragged in lhs_batch:
        return RaggedMode.RAGGED_BATCH
    return RaggedMode.RAGGED_NONCONTRACTING


def group_sizes_dims(numbers: RaggedDotDimensionNumbers, lhs_ndim: int) -> list[int]:
    """The lhs dimensions a batched ``group_sizes`` (shape: their sizes, then the groups) runs over: the batch
    dimensions, and in the noncontracting mode also the free dimensions before the ragged one."""
    (lhs_contract, _), (lhs_batch, _) = numbers.dot_dimension_numbers
    (ragged,) = numbers.lhs_ragged_dimensions
    dims = [d for d in lhs_batch if d != ragged]
    if ragged_mode(numbers) is RaggedMode.RAGGED_NONCONTRACTING:
        dims += [d for d in range(ragged) if d not in lhs_contract and d not in lhs_batch]
    return dims


# ---------------------------------------------------------------- ragged_dot_general

ragged_dot_general_p = Primitive("ragged_dot_general")


def _check_numbers(lhs: ShapedArray, rhs: ShapedArray, group_sizes: ShapedArray,
                   numbers: RaggedDotDimensionNumbers) -> int:
    """JAX's checks of the ragged and group dimensions; returns the number of groups."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
    if len(numbers.lhs_ragged_dimensions) != 1:
        raise TypeError("ragged_dot_general expects exactly one lhs ragged dimension.")
    (ragged,) = numbers.lhs_ragged_dimensions
    if not 0 <= ragged < lhs.ndim:
        raise TypeError(f"ragged_dot_general requires lhs ragged dimension numbers to be nonnegative and less than "
                        f"the number of axes of the lhs value, got {ragged} for lhs of rank {lhs.ndim}.")
    if not dtypes.issubdtype(group_sizes.dtype, np.integer):
        raise TypeError("ragged_dot_general requires that group_sizes.dtype is subtype of np.integer.")
    if ragged_mode(numbers) is RaggedMode.RAGGED_NONCONTRACTING:
        if len(numbers.rhs_group_dimensions) != 1:
            raise TypeError("ragged_dot_general requires exactly one rhs group dimension when lhs ragged "
                            "dimension is noncontracting.")
        (group,) = numbers.rhs_group_dimensions
        if not 0 <= group < rhs.ndim:
            raise TypeError(f"ragged_dot_general requires rhs group dimension numbers to be nonnegative and less "
                            f"than the number of axes of the rhs value, got {group} for rhs of rank {rhs.ndim}.")
        if group in rhs_contract or group in rhs_batch:
            raise TypeError("ragged_dot_general requires rhs group dimension numbers to be distinct from "
                            "contracting and batch dimensions.")
    elif numbers.rhs_group_dimensions:
        raise TypeError("ragged_dot_general requires zero group dimensions in the rhs when lhs ragged dimension "
                        "is contracting or batch.")
    if group_sizes.ndim < 1:
        raise TypeError("expected rank of group_sizes to be >=1.")
    num_groups = group_sizes.shape[-1]
    if numbers.rhs_group_dimensions and rhs.shape[numbers.rhs_group_dimensions[0]] != num_groups:
        raise TypeError(f"expected rhs group dimension size to be {num_groups}, got "
                        f"{rhs.shape[numbers.rhs_group_dimensions[0]]}.")
    expected = tuple(lhs.shape[d] for d in group_sizes_dims(numbers, lhs.ndim)) + (num_groups,)
    if group_sizes.ndim > 1 and group_sizes.shape != expected:
        raise TypeError(f"expected group_sizes to have shape {expected}, got {group_sizes.shape}.")
    check_dimension_numbers(lhs, rhs, numbers.dot_dimension_numbers)  # on the user's operands, not the dense ones
    return num_groups


def dense_numbers(numbers: RaggedDotDimensionNumbers) -> tuple:
    """``dot_general``'s dimension numbers on the operands with a leading group dimension added (to the lhs, and
    in the contracting mode to the rhs too), which makes the ragged contraction a dense one."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
    shift = lambda dims: tuple(int(d) + 1 for d in dims)  # noqa: E731
    mode = ragged_mode(numbers)
    if mode is RaggedMode.RAGGED_NONCONTRACTING:
        return ((shift(lhs_contract) + (0,), tuple(rhs_contract) + tuple(numbers.rhs_group_dimensions)),
                (shift(lhs_batch), tuple(rhs_batch)))
    return (shift(lhs_contract), shift(rhs_contract)), ((0,) + shift(lhs_batch), (0,) + shift(rhs_batch))


@ragged_dot_general_p.def_abstract_eval
def _ragged_dot_general_aval(lhs, rhs, group_sizes, *, ragged_dot_dimension_numbers, precision,
                             preferred_element_type, group_offset, out_sharding):
    numbers = ragged_dot_dimension_numbers
    num_groups = _check_numbers(lhs, rhs, group_sizes, numbers)
    mode = ragged_mode(numbers)
    if mode is RaggedMode.RAGGED_BATCH:
        return dot_general_p.abstract_eval(
            lhs, rhs, dimension_numbers=numbers.dot_dimension_numbers, precision=precision,
            preferred_element_type=_preferred(preferred_element_type), out_sharding=out_sharding)
    lhs_dense = ShapedArray((num_groups,) + lhs.shape, lhs.dtype, lhs.weak_type)
    rhs_dense = rhs if mode is RaggedMode.RAGGED_NONCONTRACTING else \
        ShapedArray((num_groups,) + rhs.shape, rhs.dtype, rhs.weak_type)
    return dot_general_p.abstract_eval(
        lhs_dense, rhs_dense, dimension_numbers=dense_numbers(numbers), precision=precision,
        preferred_element_type=_preferred(preferred_element_type), out_sharding=out_sharding)


def _preferred(preferred_element_type: Any) -> np.dtype | None:
    """The parameter holds the dtype as the user spelled it (JAX prints it so); contractions want a dtype."""
    if preferred_element_type is None:
        return None
    return dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type))


def group_masks(group_sizes: np.ndarray, shape: tuple[int, ...], ragged: int, sizes_dims: list[int]) -> np.ndarray:
    """``masks[j]`` (shape ``shape``) is True where the position along ``ragged`` lies in group ``j``;
    ``sizes_dims`` are the dimensions of ``shape`` the leading dimensions of ``group_sizes`` run over."""
    group_sizes = np.asarray(group_sizes).astype(np.int64)
    ends = np.cumsum(group_sizes, axis=-1)
    starts = np.concatenate([np.zeros_like(ends[..., :1]), ends[..., :-1]], axis=-1)
    num_groups = group_sizes.shape[-1]
    # Bounds laid out as (groups,) + shape: batched sizes along sizes_dims, broadcast elsewhere.
    bounds_shape = [1] * len(shape)
    for d in sizes_dims:
        bounds_shape[d] = shape[d]
    order = [len(sizes_dims)] + [int(i) for i in np.argsort(sizes_dims)]

    def laid_out(bound: np.ndarray) -> np.ndarray:
        bound = np.broadcast_to(bound, tuple(shape[d] for d in sizes_dims) + (num_groups,))
        return np.transpose(bound, order).reshape((num_groups, *bounds_shape))

    position = np.arange(shape[ragged]).reshape([-1 if d == ragged else 1 for d in range(len(shape))])
    return (laid_out(starts) <= position) & (position < laid_out(ends))


def check_no_group_offset(group_offset: Any) -> None:
    """JAX's error for running a ragged contraction with a group offset."""
    if group_offset is not None:
        raise NotImplementedError("Unimplemented group_offset support.")


@ragged_dot_general_p.def_impl
def _ragged_dot_general_impl(lhs, rhs, group_sizes, *, ragged_dot_dimension_numbers, precision,
                             preferred_element_type, group_offset, out_sharding):
    check_no_group_offset(group_offset)
    numbers = ragged_dot_dimension_numbers
    params = dict(precision=precision, preferred_element_type=_preferred(preferred_element_type),
                  out_sharding=out_sharding)
    mode = ragged_mode(numbers)
    if mode is RaggedMode.RAGGED_BATCH:
        return dot_general_p.impl(lhs, rhs, dimension_numbers=numbers.dot_dimension_numbers, **params)
    (ragged,) = numbers.lhs_ragged_dimensions
    sizes_dims = group_sizes_dims(numbers, lhs.ndim)
    lhs_dense = np.where(group_masks(group_sizes, lhs.shape, ragged, sizes_dims), lhs, np.zeros((), lhs.dtype))
    if mode is RaggedMode.RAGGED_CONTRACTING:
        (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
        rhs_ragged = rhs_contract[list(lhs_contract).index(ragged)]
        rhs_sizes_dims = [rhs_batch[list(lhs_batch).index(d)] for d in sizes_dims]
        rhs = np.where(group_masks(group_sizes, rhs.shape, rhs_ragged, rhs_sizes_dims), rhs, np.zeros((), rhs.dtype))
    return dot_general_p.impl(lhs_dense, rhs, dimension_numbers=dense_numbers(numbers), **params)


def ragged_dot_general(lhs, rhs, group_sizes, ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
                       precision=None, preferred_element_type=None, group_offset=None, out_sharding=None):
    """Ragged contraction: ``lhs``'s ragged dimension is split into consecutive groups of ``group_sizes``
    (shape ``(g,)``, or batched over the lhs's batch dimensions); see the module docstring for the modes.
    ``group_offset`` is not supported (as in JAX: an array is refused as a parameter, anything else when run)."""
    try:
        hash(group_offset)
    except TypeError:
        raise TypeError("As of JAX v0.7, parameters to jaxpr equations must have __hash__ and __eq__ methods. In a "
                        "call to primitive ragged_dot_general, the value of parameter group_offset was not hashable: "
                        f"{group_offset}") from None
    return ragged_dot_general_p.bind(
        lhs, rhs, group_sizes, ragged_dot_dimension_numbers=ragged_dot_dimension_numbers,
        precision=canonicalize_precision(precision), preferred_element_type=preferred_element_type,
        group_offset=group_offset, out_sharding=resolve_out_sharding(out_sharding, "ragged_dot_general"))


# ragged_dot's layout: lhs (m, k) ragged along m, rhs (g, k, n) with its groups first.
_RAGGED_DOT_NUMBERS = RaggedDotDimensionNumbers(
    dot_dimension_numbers=(((1,), (1,)), ((), ())), lhs_ragged_dimensions=(0,), rhs_group_dimensions=(0,))


def ragged_dot(lhs, rhs, group_sizes, precision=None, preferred_element_type=None, group_offset=None,
               out_sharding=None):
    """Grouped matrix product: rows ``start[j]:end[j]`` of ``lhs`` (m, k) times ``rhs[j]`` (k, n), giving (m, n);
    rows past the last group are zero."""
    return ragged_dot_general(lhs, rhs, group_sizes, _RAGGED_DOT_NUMBERS, precision=precision,
                              preferred_element_type=preferred_element_type, group_offset=group_offset,
                              out_sharding=out_sharding)
