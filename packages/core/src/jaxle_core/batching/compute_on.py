"""Batching of ``compute_on``: its jaxpr batched (inputs keep the batch dimensions they arrive with), applied by a
new ``compute_on`` equation on the same compute, as JAX's."""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, traced_batching_rules
from jaxle_core.compute_on import bind_compute_on, compute_on_p
from jaxle_core.compute_types import computing_on
from jaxle_core.core import ClosedJaxpr

__all__: list[str] = []


def _compute_on_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, compute_type: str,
                      out_memory_spaces: tuple, compiler_options_json):
    with computing_on(compute_type):
        batched, out_dims = batch_jaxpr(jaxpr, tuple(dims), body_batch_size(trace, vals, dims), trace.axis_name)
    return bind_compute_on(batched, vals, compute_type, out_memory_spaces, compiler_options_json), list(out_dims)


traced_batching_rules[compute_on_p] = _compute_on_batch
