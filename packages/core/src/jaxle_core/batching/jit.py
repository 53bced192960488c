"""Batching of ``jit``: the call keeps its boundary under ``vmap``; its jaxpr is batched (inputs keep the batch
dimensions they arrive with) and a new call equation applies it. As in JAX, batching the same jaxpr the same way
again reuses the batched jaxpr, so repeated calls share it (jaxprs print it once, as ``let name = ...``)."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, traced_batching_rules
from jaxle_core.caches import LruCache
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jit import bind_jit, jit_p


def _jit_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool,
               **params):
    key = (jaxpr, tuple(dims), body_batch_size(trace, vals, dims), trace.axis_name, trace.layout)
    cached = _batched_jaxprs.lookup(key)
    if cached is None:
        cached = _batched_jaxprs[key] = batch_jaxpr(jaxpr, *key[1:4])
    batched, out_dims = cached
    return bind_jit(batched, vals, name, keep_unused, inline), list(out_dims)


_batched_jaxprs = LruCache()


traced_batching_rules[jit_p] = _jit_batch
