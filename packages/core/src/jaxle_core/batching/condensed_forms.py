"""Batching rules of ``hessenberg`` and ``tridiagonal``: both reduce the matrices of any leading batch
dimensions, so the vmapped dimension moves to the front."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.condensed_forms import hessenberg_p, tridiagonal_p

batching_rules[hessenberg_p] = leading_batch_rule(hessenberg_p)
batching_rules[tridiagonal_p] = leading_batch_rule(tridiagonal_p)
