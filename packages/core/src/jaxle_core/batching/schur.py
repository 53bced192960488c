"""Batching rule of ``schur``: it decomposes the matrices of any leading batch dimensions, so the vmapped
dimension moves to the front."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.schur import schur_p

batching_rules[schur_p] = leading_batch_rule(schur_p)
