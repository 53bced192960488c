"""Batching of ``jit``: the call keeps its boundary under ``vmap``; its jaxpr is batched (inputs keep the batch
dimensions they arrive with) and a new call equation applies it."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, traced_batching_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jit import bind_jit, jit_p


def _jit_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool,
               **params):
    batched, out_dims = batch_jaxpr(jaxpr, dims, body_batch_size(trace, vals, dims), trace.axis_name)
    return bind_jit(batched, vals, name, keep_unused, inline), out_dims


traced_batching_rules[jit_p] = _jit_batch
