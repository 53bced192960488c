"""Batching rules of ``eigh`` and ``eig``: both decompose the matrices of any leading batch dimensions, so the
vmapped dimension moves to the front."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.eigen import eig_p, eigh_p

batching_rules[eigh_p] = leading_batch_rule(eigh_p)
batching_rules[eig_p] = leading_batch_rule(eig_p)
