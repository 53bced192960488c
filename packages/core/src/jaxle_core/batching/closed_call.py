"""Batching of ``closed_call``: its jaxpr batched (inputs keep the batch dimensions they arrive with), applied by a
new ``closed_call`` equation named ``eval_jaxpr``, as JAX's (also where no input is batched)."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, traced_batching_rules, unbatched_params
from jaxle_core.closed_call import bind_closed_call, closed_call_p, with_named_calls
from jaxle_core.core import ClosedJaxpr

__all__: list[str] = []


def _closed_call_batch(trace: BatchTrace, vals, dims, *, call_jaxpr: ClosedJaxpr, name: str = "eval_jaxpr"):
    batched, out_dims = batch_jaxpr(call_jaxpr, tuple(dims), body_batch_size(trace, vals, dims), trace.axis_name)
    return bind_closed_call(batched, vals, name), list(out_dims)


traced_batching_rules[closed_call_p] = _closed_call_batch
unbatched_params[closed_call_p] = lambda params: {**params, "call_jaxpr": with_named_calls(params["call_jaxpr"]),
                                                  "name": params.get("name", "eval_jaxpr")}
