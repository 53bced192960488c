"""Batching of the Cholesky and LU factorizations: the batch dimension becomes a leading batch dimension of the
primitive. ``cholesky_update`` has no rule, as in JAX."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.factorizations import cholesky_p, lu_p, lu_pivots_to_permutation_p

for _primitive in (cholesky_p, lu_p, lu_pivots_to_permutation_p):
    batching_rules[_primitive] = leading_batch_rule(_primitive)
