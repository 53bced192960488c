"""Batching of ``shard_map``: the batch dimension becomes a leading dimension that no mesh axis splits.

Batched operands move their batch dimension to the front (their specs gain a
leading ``None``); the body is batched along that dimension, under the same mesh
axes, and batched results keep it in front.
"""

from __future__ import annotations

from jaxle_core.batching.rule_helpers import batch_jaxpr_at_front, body_batch_size
from jaxle_core.batching.trace import BatchTrace, move_dim, traced_batching_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.mesh import PartitionSpec
from jaxle_core.shard_map import bind_shard_map, body_context, shard_map_p


def _unsplit_front(spec: PartitionSpec) -> PartitionSpec:
    return PartitionSpec(None, *spec)


def _shard_map_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma,
                     newly_manual_axes, **params):
    size = body_batch_size(trace, vals, dims)
    batched = [d is not None for d in dims]
    with body_context(mesh, check_vma, newly_manual_axes):
        body, out_batched = batch_jaxpr_at_front(jaxpr, batched, size, trace.axis_name,
                                                 [False] * len(out_specs))
    args = [move_dim(v, d, 0) if d is not None else v for v, d in zip(vals, dims)]
    specs = [_unsplit_front(s) if b else s for s, b in zip(in_specs, batched)]
    result_specs = [_unsplit_front(s) if b else s for s, b in zip(out_specs, out_batched)]
    outs = bind_shard_map(body, args, mesh, specs, result_specs, check_vma, newly_manual_axes)
    return outs, [0 if b else None for b in out_batched]


traced_batching_rules[shard_map_p] = _shard_map_batch
