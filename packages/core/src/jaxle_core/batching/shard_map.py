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

import math
from typing import Any

from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, current_spmd_axes, spmd_entry, traced_batching_rules
from jaxle_core.core import ClosedJaxpr
from jaxle_core.mesh import AxisType, PartitionSpec
from jaxle_core.shard_map import (
    bind_shard_map,
    body_context,
    check_in_type,
    manual_mesh,
    shard_map_p,
    spec_axes,
)


def _batch_dim_at(spec: PartitionSpec, dim: int, entry: Any) -> PartitionSpec:
    """``spec`` with a batch dimension inserted at ``dim``, split as ``entry`` says (None: unsplit)."""
    entries = list(spec) + [None] * (dim - len(spec))
    entries.insert(dim, entry)
    return PartitionSpec(*entries, unreduced=spec.unreduced, reduced=spec.reduced)


def _with_batch_dims(specs, dims, entry: Any) -> list[PartitionSpec]:
    return [s if d is None else _batch_dim_at(s, d, entry) for s, d in zip(specs, dims)]


def _check_spmd_axes_unused(spmd_axes: tuple, specs, which: str) -> None:
    if set(spmd_axes) & {a for spec in specs for a in spec_axes(spec)}:
        raise ValueError(f"vmap spmd_axis_name cannot appear in shard_map {which}")


def _check_spmd_axes_manual(spmd_axes: tuple, mesh, newly_manual_axes: frozenset, in_specs) -> None:
    """JAX's ValueError for a batch split along mesh axes the body does not make manual (its blocks' types would
    vary over axes that are not manual there)."""
    inside = manual_mesh(mesh, newly_manual_axes)
    for name in spmd_axes:
        axis_type = dict(zip(inside.axis_names, inside.axis_types))[name]
        if axis_type is not AxisType.Manual:
            named = {a for spec in in_specs for a in spec_axes(spec)} | set(spmd_axes)
            varying = "{" + ", ".join(repr(a) for a in inside.axis_names if a in named) + "}"
            raise ValueError("Axes mentioned in `manual_axis_type` field of ShapedArray should be of type `Manual`. "
                             f"Got manual_axis_type=ManualAxisType(varying=frozenset({varying}), "
                             f"unreduced=frozenset(), reduced=frozenset()) with axis: {name} of type {axis_type}")


def _batched_body(trace: BatchTrace, vals, dims, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma: bool,
                  newly_manual_axes: frozenset) -> tuple[ClosedJaxpr, list[int | None], Any]:
    """The body batched along ``dims``, its results' batch dimensions, and the spec entry splitting the batch (None
    unless ``vmap``'s ``spmd_axis_name`` names mesh axes: then each device's block holds its part of the batch)."""
    size = body_batch_size(trace, vals, dims)
    spmd_axes = current_spmd_axes()
    entry, varying = None, frozenset()
    if spmd_axes is not None:
        _check_spmd_axes_unused(spmd_axes, in_specs, "in_specs")
        _check_spmd_axes_unused(spmd_axes, out_specs, "out_specs")
        _check_spmd_axes_manual(spmd_axes, mesh, newly_manual_axes, in_specs)
        size //= math.prod(mesh.shape[a] for a in spmd_axes)
        entry, varying = spmd_entry(spmd_axes), frozenset(spmd_axes) if check_vma else frozenset()
    with body_context(mesh, check_vma, newly_manual_axes):
        body, out_dims = batch_jaxpr(jaxpr, dims, size, trace.axis_name, varying)
    return body, out_dims, entry


def check_spmd_batched_body(trace: BatchTrace, flat, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs,
                            newly_manual_axes: frozenset) -> None:
    """JAX's errors batching a body that checks types along ``trace``'s ``spmd_axis_name``, raised before its
    results' types are checked, as JAX batches the body while it traces it: a cast (``pvary``) to the batch's mesh
    axes, which the batched blocks vary over already, is refused."""
    vals, dims = zip(*map(trace.to_val_dim, flat)) if flat else ((), ())
    with trace.running_rules():
        _batched_body(trace, vals, dims, jaxpr, mesh, in_specs, out_specs, True, newly_manual_axes)


def _shard_map_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma,
                     newly_manual_axes, **params):
    body, out_dims, entry = _batched_body(trace, vals, dims, jaxpr, mesh, in_specs, out_specs, check_vma,
                                          newly_manual_axes)
    specs = _with_batch_dims(in_specs, dims, entry)
    if (not newly_manual_axes and isinstance(core.current_trace(), core.EvalTrace)
            and all(t is AxisType.Explicit for t in mesh.axis_types)):
        for x, spec in zip(vals, specs):
            check_in_type(get_aval(x), spec, mesh)
    outs = bind_shard_map(body, vals, mesh, specs, _with_batch_dims(out_specs, out_dims, entry), check_vma,
                          newly_manual_axes)
    return outs, out_dims


traced_batching_rules[shard_map_p] = _shard_map_batch
