"""Batching of ``copy`` and ``stop_gradient``: the batch dimension passes through."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.core import Primitive
from jaxle_core.lax.identity import copy_p, stop_gradient_p


def _identity_rule(primitive: Primitive):
    def rule(vals, dims, **params):
        return primitive.bind(vals[0], **params), dims[0]

    return rule


for _p in (copy_p, stop_gradient_p):
    batching_rules[_p] = _identity_rule(_p)
