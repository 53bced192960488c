"""Batching of ``closed_call``: its jaxpr batched (inputs keep the batch dimensions they arrive with), applied by a
new ``closed_call`` equation, as JAX's."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, traced_batching_rules
from jaxle_core.closed_call import bind_closed_call, closed_call_p
from jaxle_core.core import ClosedJaxpr

__all__: list[str] = []


def _closed_call_batch(trace: BatchTrace, vals, dims, *, call_jaxpr: ClosedJaxpr, name: str = "eval_jaxpr"):
    batched, out_dims = batch_jaxpr(call_jaxpr, tuple(dims), body_batch_size(trace, vals, dims), trace.axis_name)
    return bind_closed_call(batched, vals, name), list(out_dims)


traced_batching_rules[closed_call_p] = _closed_call_batch
