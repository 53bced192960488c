"""Batching of ``qr``, ``geqrf``, ``geqp3``, ``householder_product`` and ``ormqr``: the batch dimension becomes a
leading batch dimension of the primitive (unbatched operands broadcast)."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.householder import geqp3_p, geqrf_p, householder_product_p, ormqr_p, qr_p

for _primitive in (qr_p, geqrf_p, geqp3_p, householder_product_p, ormqr_p):
    batching_rules[_primitive] = leading_batch_rule(_primitive)
