"""Batching of ``optimization_barrier`` (each operand keeps its batch dimension) and ``dce_sink``
(a batched sink is dropped, as JAX drops it)."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.barriers import dce_sink_p, optimization_barrier_p

batching_rules[optimization_barrier_p] = lambda vals, dims: (optimization_barrier_p.bind(*vals), list(dims))
batching_rules[dce_sink_p] = lambda vals, dims, **params: ([], [])
