"""Batching of ``symmetric_product``: the batch dimension becomes a leading batch dimension of the primitive."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import leading_batch_rule
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.symmetric_product import symmetric_product_p

batching_rules[symmetric_product_p] = leading_batch_rule(symmetric_product_p)
