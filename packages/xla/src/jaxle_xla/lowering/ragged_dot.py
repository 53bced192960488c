"""Lowering of ragged_dot_general as JAX lowers it on CPU: each group's positions masked out of a copy of the
operand (a new leading group dimension), then one dense ``dot_general``."""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.lax.cumulative import cumsum
from jaxle_core.lax.dot import dot_general
from jaxle_core.lax.elementwise import bitwise_and, le, lt
from jaxle_core.lax.ragged_dot import (
    RaggedMode,
    check_no_group_offset,
    dense_numbers,
    group_sizes_dims,
    ragged_dot_general_p,
    ragged_mode,
)
from jaxle_core.lax.slicing import slice_in_dim
from jaxle_core.lax.structural import broadcast_in_dim, broadcasted_iota, concatenate, select, transpose
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


def _zeros(shape: tuple[int, ...], dtype: np.dtype):
    return broadcast_in_dim(np.zeros((), dtype), shape, ())


def _grouped(operand, group_sizes, ragged: int, sizes_dims: list[int]):
    """``operand`` with a leading group dimension: copy ``j`` keeps group ``j``'s positions along ``ragged`` and
    is zero elsewhere. ``sizes_dims`` are the operand dimensions a batched ``group_sizes`` runs over."""
    aval, sizes_aval = get_aval(operand), get_aval(group_sizes)
    num_groups, last = sizes_aval.shape[-1], sizes_aval.ndim - 1
    shape = (num_groups, *aval.shape)
    copies = broadcast_in_dim(operand, shape, tuple(range(1, len(shape))))
    position = broadcasted_iota(sizes_aval.dtype, shape, ragged + 1)
    ends = cumsum(group_sizes, axis=last)
    starts = concatenate([_zeros(sizes_aval.shape[:-1] + (1,), sizes_aval.dtype),
                          slice_in_dim(ends, 0, num_groups - 1, axis=last)], last)
    # Bounds as (groups, sizes dims ascending), broadcast over the rest of the operand's dimensions.
    order = [len(sizes_dims), *(int(i) for i in np.argsort(sizes_dims))]
    bound_dims = (0, *sorted(d + 1 for d in sizes_dims))

    def spread(bound):
        if sizes_aval.ndim == 1 and sizes_dims:
            bound = broadcast_in_dim(bound, (*(aval.shape[d] for d in sizes_dims), num_groups),
                                     (len(sizes_dims),))
        return broadcast_in_dim(transpose(bound, order), shape, bound_dims)

    in_group = bitwise_and(le(spread(starts), position), lt(position, spread(ends)))
    return select(in_group, copies, _zeros(shape, aval.dtype))


def _ragged_dot_general(lhs, rhs, group_sizes, *, ragged_dot_dimension_numbers, precision,
                        preferred_element_type, group_offset, out_sharding):
    check_no_group_offset(group_offset)
    numbers = ragged_dot_dimension_numbers
    params = dict(precision=precision, preferred_element_type=preferred_element_type)
    mode = ragged_mode(numbers)
    if mode is RaggedMode.RAGGED_BATCH:
        return dot_general(lhs, rhs, numbers.dot_dimension_numbers, **params)
    (ragged,) = numbers.lhs_ragged_dimensions
    sizes_dims = group_sizes_dims(numbers, get_aval(lhs).ndim)
    lhs = _grouped(lhs, group_sizes, ragged, sizes_dims)
    if mode is RaggedMode.RAGGED_CONTRACTING:
        (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
        rhs_ragged = rhs_contract[list(lhs_contract).index(ragged)]
        rhs = _grouped(rhs, group_sizes, rhs_ragged, [rhs_batch[list(lhs_batch).index(d)] for d in sizes_dims])
    return dot_general(lhs, rhs, dense_numbers(numbers), **params)


@register_lowering(ragged_dot_general_p)
def _ragged_dot_general_lowering(ctx: LoweringContext, lhs: Value, rhs: Value, group_sizes: Value,
                                 **params) -> Value:
    return ctx.lower_fun(lambda *args: _ragged_dot_general(*args, **params), lhs, rhs, group_sizes)[0]
