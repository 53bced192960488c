"""Batching of ``shard_map``: the batch dimension stays where it is, a dimension that no mesh axis splits.

As JAX's, batched operands keep their batch dimension in place (their specs gain a
``None`` there); the body is batched along those dimensions, under the same mesh
axes, and its batched results keep the dimensions the body gives them (their specs
gain a ``None`` there too). Evaluated eagerly with no axis left to make manual (the
batch laid out along every mesh axis), the arguments' types are checked against the
specs as those of a ``shard_map`` over all axes are: JAX 0.10.2's eager call refuses
what its compiled one runs.
"""

from __future__ import annotations

from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, traced_batching_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.mesh import AxisType, PartitionSpec
from jaxle_core.shard_map import bind_shard_map, body_context, check_in_type, shard_map_p


def _unsplit_at(spec: PartitionSpec, dim: int) -> PartitionSpec:
    """``spec`` with an unsplit dimension inserted at ``dim``."""
    entries = list(spec) + [None] * (dim - len(spec))
    entries.insert(dim, None)
    return PartitionSpec(*entries, unreduced=spec.unreduced, reduced=spec.reduced)


def _with_batch_dims(specs, dims) -> list[PartitionSpec]:
    return [s if d is None else _unsplit_at(s, d) for s, d in zip(specs, dims)]


def _shard_map_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma,
                     newly_manual_axes, **params):
    size = body_batch_size(trace, vals, dims)
    with body_context(mesh, check_vma, newly_manual_axes):
        body, out_dims = batch_jaxpr(jaxpr, dims, size, trace.axis_name)
    specs = _with_batch_dims(in_specs, dims)
    if (not newly_manual_axes and isinstance(core.current_trace(), core.EvalTrace)
            and all(t is AxisType.Explicit for t in mesh.axis_types)):
        for x, spec in zip(vals, specs):
            check_in_type(get_aval(x), spec, mesh)
    outs = bind_shard_map(body, vals, mesh, specs, _with_batch_dims(out_specs, out_dims), check_vma,
                          newly_manual_axes)
    return outs, out_dims


traced_batching_rules[shard_map_p] = _shard_map_batch
