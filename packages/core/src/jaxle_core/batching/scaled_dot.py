"""Batching of ``scaled_dot``."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_size
from jaxle_core.batching.trace import at_dim, batching_rules
from jaxle_core.lax.scaled_dot import scaled_dot_p


def _scaled_dot_rule(vals, dims, *, dimension_numbers, preferred_element_type):
    """Every operand (unbatched ones broadcast) batched along a new leading batch dimension of the contraction."""
    size = batch_size(vals, dims)
    operands = [at_dim(v, d, size) for v, d in zip(vals, dims)]
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    shift = lambda ds: tuple(d + 1 for d in ds)  # noqa: E731
    numbers = ((shift(lhs_contract), shift(rhs_contract)), ((0, *shift(lhs_batch)), (0, *shift(rhs_batch))))
    return scaled_dot_p.bind(*operands, dimension_numbers=numbers, preferred_element_type=preferred_element_type), 0


batching_rules[scaled_dot_p] = _scaled_dot_rule
