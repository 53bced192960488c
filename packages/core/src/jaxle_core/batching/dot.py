"""Batching of ``dot_general``: the batch dimension becomes a batch dimension of the contraction (when both
operands are batched) or stays a free dimension of the one batched operand."""

from __future__ import annotations

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules, per_example_errors, vmapped_sharding
from jaxle_core.lax.dot import dot_general, dot_general_p


def _shift_past(dims: tuple[int, ...], inserted: int) -> tuple[int, ...]:
    """Dimension indices after a new dimension is inserted at ``inserted``."""
    return tuple(d + (d >= inserted) for d in dims)


def _dot_general_batch_numbers(ndims: tuple[int, int], bdims: tuple[int | None, int | None], dimension_numbers):
    """The dimension numbers of the batched contraction and the result's batch dimension."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    lbd, rbd = bdims
    if lbd is not None and rbd is not None:
        numbers = ((_shift_past(lhs_contract, lbd), _shift_past(rhs_contract, rbd)),
                   ((lbd, *_shift_past(lhs_batch, lbd)), (rbd, *_shift_past(rhs_batch, rbd))))
        return numbers, 0
    if lbd is not None:
        free = [d for d in range(ndims[0]) if d not in lhs_batch and d not in lhs_contract and d < lbd]
        numbers = ((_shift_past(lhs_contract, lbd), rhs_contract), (_shift_past(lhs_batch, lbd), rhs_batch))
        return numbers, len(lhs_batch) + len(free)
    free = [d for d in range(ndims[1]) if d not in rhs_batch and d not in rhs_contract and d < rbd]
    numbers = ((lhs_contract, _shift_past(rhs_contract, rbd)), (lhs_batch, _shift_past(rhs_batch, rbd)))
    return numbers, ndims[0] - len(lhs_contract) + len(free)


def _dot_general_rule(vals, dims, *, dimension_numbers, precision, preferred_element_type, out_sharding):
    lhs, rhs = vals
    ndims = (get_aval(lhs).ndim, get_aval(rhs).ndim)
    numbers, out_dim = _dot_general_batch_numbers(ndims, tuple(dims), dimension_numbers)
    out = dot_general(lhs, rhs, numbers, precision=precision, preferred_element_type=preferred_element_type,
                      out_sharding=vmapped_sharding(out_sharding, out_dim))
    return out, out_dim


batching_rules[dot_general_p] = _dot_general_rule
per_example_errors.add(dot_general_p)
