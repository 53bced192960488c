"""Batching of ``ragged_dot_general``."""

from __future__ import annotations

import numpy as np

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.ragged_dot import RaggedDotDimensionNumbers, ragged_dot_general, ragged_dot_general_p


def _ragged_dot_general_rule(vals, dims, *, ragged_dot_dimension_numbers, **params):
    """As JAX, only all three operands batched along their first dimension, which becomes a batch dimension of
    the contraction (and of the group sizes)."""
    if tuple(dims) != (0, 0, 0):
        raise NotImplementedError("ragged_dot vmap over any dim but 0 - NYI")
    numbers = ragged_dot_dimension_numbers
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
    # JAX shifts the dimensions with NumPy arithmetic; its jaxprs print them as np.int64.
    shift = lambda ds: tuple(np.int64(d) + 1 for d in ds)  # noqa: E731
    shifted = RaggedDotDimensionNumbers(
        ((shift(lhs_contract), shift(rhs_contract)), ((0, *shift(lhs_batch)), (0, *shift(rhs_batch)))),
        shift(numbers.lhs_ragged_dimensions), shift(numbers.rhs_group_dimensions))
    return ragged_dot_general(*vals, shifted, **params), 0


batching_rules[ragged_dot_general_p] = _ragged_dot_general_rule
