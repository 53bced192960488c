"""Batching rule of ``custom_vmap_call``: the function's own rule, on values batched at axis 0."""

from __future__ import annotations

from typing import Any

from jaxle_core.batching.rule_helpers import batch_size
from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.custom_batching import BatchingRule, custom_vmap_call_p


def _custom_vmap_call_batch(vals: list, dims: list, *, rule: BatchingRule, **params: Any) -> tuple[list, list]:
    size = batch_size(vals, dims)
    vals = [v if d is None else move_dim(v, d, 0) for v, d in zip(vals, dims)]
    outs, out_batched = rule.apply(size, vals, [d is not None for d in dims])
    return outs, [0 if b else None for b in out_batched]


batching_rules[custom_vmap_call_p] = _custom_vmap_call_batch
