"""Lowering of the collectives: XLA collectives between the devices of a ``shard_map``'s mesh axes.

Inside a manual computation (``lowering/shard_map.py``) a collective over
named axes communicates within groups of partitions (the devices that differ
only along those axes, or the ``axis_index_groups`` along them), with a channel
of its own and global device ids, as JAX lowers them: ``psum``/``pmax``/
``pmin`` are ``all_reduce``, ``all_gather``, ``reduce_scatter``, ``all_to_all``
and ``ppermute`` (a ``collective_permute``), and ``axis_index`` is computed
from the ``partition_id``. ``pbroadcast`` has no CPU lowering, as in JAX.

Under ``vmap`` a reduction over the mapped axis becomes the collective over the
batch dimension's position (``psum[axes=(0,)]``, as in JAX's jaxprs), which is an
ordinary reduction here. Named axes outside a manual computation have no devices
to communicate between and are refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.parallel import (
    all_gather_invariant_p,
    all_gather_p,
    all_gather_reduced_p,
    all_to_all_p,
    axis_index_p,
    pbroadcast_p,
    pmax_p,
    pmin_p,
    ppermute_p,
    precv_p,
    preduced_p,
    psum_invariant_p,
    psum_p,
    pvary_p,
    reduce_scatter_p,
    reduced_vary_cast_p,
    split_axes,
    unreduced_psum_p,
    unreduced_reduce_scatter_p,
    vary_unreduced_cast_p,
)
from jaxle_core.lax.reductions import reduce_max, reduce_min, reduce_sum
from jaxle_xla.lowering.context import LoweringContext, Value, i64, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.shard_map import ManualRegion, manual_computation
from jaxle_xla.lowering.typed_layouts import constrain_untyped, leave_unconstrained

_REDUCTIONS = {psum_p: (reduce_sum, "stablehlo.add"), pmax_p: (reduce_max, "stablehlo.maximum"),
               pmin_p: (reduce_min, "stablehlo.minimum")}


def _region(ctx: LoweringContext, names: tuple, function: str) -> ManualRegion:
    """The manual computation whose mesh has the axes ``names``."""
    regions = ctx.module.manual_regions
    if not regions or any(n not in regions[-1].mesh.shape for n in names):
        raise NotImplementedError(f"{function} over the named axes {tuple(names)} outside a shard_map or pmap over "
                                  "them: there are no devices to communicate between")
    return regions[-1]


def _groups_attribute(groups: list[list[int]]) -> str:
    return f"dense<{groups}> : tensor<{len(groups)}x{len(groups[0])}xi64>"


def _channel(ctx: LoweringContext, region: ManualRegion) -> dict:
    # Between replicas a collective needs no channel: its groups are replica ids.
    if region.replicas:
        return {}
    return {"channel_handle": f"#stablehlo.channel_handle<handle = {ctx.module.next_channel()}, type = 1>"}


def _collective_attributes(ctx: LoweringContext, region: ManualRegion, groups: list[list[int]],
                           global_ids: bool = True) -> dict:
    attributes = {"replica_groups": _groups_attribute(groups), **_channel(ctx, region)}
    if global_ids and not region.replicas:
        attributes["use_global_device_ids"] = "unit"
    return attributes


def _combiner(ctx: LoweringContext, op: str, dtype: Any) -> str:
    scalar = ShapedArray((), dtype)
    return ctx.region([scalar, scalar], lambda inner, xs: [constrain_untyped(inner, inner.op1(op, xs, scalar))])


def _reduction(primitive, reduce, op):
    def lowering(ctx: LoweringContext, x: Value, *, axes, axis_index_groups) -> Value:
        named, positional = split_axes(axes)
        if positional:
            (x,) = ctx.lower_fun(lambda v: reduce(v, tuple(positional)), x)
        if not named:
            return x
        region = _region(ctx, named, primitive.name)
        attributes = _collective_attributes(ctx, region, region.groups(named, axis_index_groups))
        return ctx.op1("stablehlo.all_reduce", [x], x.aval, attributes,
                       regions=[_combiner(ctx, op, x.aval.dtype)])

    return lowering


for _primitive, (_reduce, _op) in _REDUCTIONS.items():
    register_lowering(_primitive)(_reduction(_primitive, _reduce, _op))

_psum = _reduction(psum_p, reduce_sum, "stablehlo.add")
register_lowering(psum_invariant_p)(lambda ctx, x, *, axes: _psum(ctx, x, axes=axes, axis_index_groups=None))
register_lowering(unreduced_psum_p)(lambda ctx, x, *, axes: _psum(ctx, x, axes=axes, axis_index_groups=None))
for _cast in (pvary_p, preduced_p, reduced_vary_cast_p, vary_unreduced_cast_p):
    register_lowering(_cast)(lambda ctx, x, *, axes: x)  # a change of type only
# As JAX writes a body where only some axes are manual: the collectives' results (and casts) left unconstrained.
leave_unconstrained(psum_p, pmax_p, pmin_p, psum_invariant_p, unreduced_psum_p, pvary_p, preduced_p,
                    reduced_vary_cast_p, vary_unreduced_cast_p, all_gather_p, all_gather_invariant_p,
                    all_gather_reduced_p, reduce_scatter_p, unreduced_reduce_scatter_p, all_to_all_p, ppermute_p,
                    axis_index_p)


def _with_unit_dim(ctx: LoweringContext, x: Value, dim: int) -> Value:
    # A broadcast, as JAX writes it.
    shape = x.aval.shape[:dim] + (1,) + x.aval.shape[dim:]
    kept = [d for d in range(len(shape)) if d != dim]
    return ctx.op1("stablehlo.broadcast_in_dim", [x], x.aval.update(shape=shape),
                   {"broadcast_dimensions": i64_array(kept)})


@register_lowering(all_gather_reduced_p)
@register_lowering(all_gather_invariant_p)
def _all_gather_invariant(ctx: LoweringContext, x: Value, *, all_gather_dimension, axis_name, axis_size,
                          tiled) -> Value:
    return _all_gather(ctx, x, all_gather_dimension=all_gather_dimension, axis_name=axis_name,
                       axis_index_groups=None, axis_size=axis_size, tiled=tiled)


@register_lowering(all_gather_p)
def _all_gather(ctx: LoweringContext, x: Value, *, all_gather_dimension, axis_name, axis_index_groups, axis_size,
                tiled) -> Value:
    region = _region(ctx, axis_name, "all_gather")
    if not tiled:
        x = _with_unit_dim(ctx, x, all_gather_dimension)
    attributes = {"all_gather_dim": i64(all_gather_dimension),
                  **_collective_attributes(ctx, region, region.groups(axis_name, axis_index_groups))}
    return ctx.op1("stablehlo.all_gather", [x], ctx.avals_out[0], attributes)


@register_lowering(reduce_scatter_p)
def _reduce_scatter(ctx: LoweringContext, x: Value, *, axis_name, scatter_dimension, axis_index_groups, axis_size,
                    tiled) -> Value:
    region = _region(ctx, axis_name, "psum_scatter")
    out_aval = ctx.avals_out[0]
    scattered = out_aval if tiled else out_aval.update(
        shape=out_aval.shape[:scatter_dimension] + (1,) + out_aval.shape[scatter_dimension:])
    attributes = {"scatter_dimension": i64(scatter_dimension),
                  **_collective_attributes(ctx, region, region.groups(axis_name, axis_index_groups))}
    out = ctx.op1("stablehlo.reduce_scatter", [x], scattered, attributes,
                  regions=[_combiner(ctx, "stablehlo.add", x.aval.dtype)])
    return out if tiled else ctx.op1("stablehlo.reshape", [out], out_aval)


@register_lowering(unreduced_reduce_scatter_p)
def _unreduced_reduce_scatter(ctx: LoweringContext, x: Value, *, axis_name, scatter_dimension, axis_size,
                              tiled) -> Value:
    return _reduce_scatter(ctx, x, axis_name=axis_name, scatter_dimension=scatter_dimension, axis_index_groups=None,
                           axis_size=axis_size, tiled=tiled)


@register_lowering(all_to_all_p)
def _all_to_all(ctx: LoweringContext, x: Value, *, split_axis, concat_axis, axis_name, axis_index_groups,
                tiled) -> Value:
    names = axis_name if isinstance(axis_name, tuple) else (axis_name,)
    region = _region(ctx, names, "all_to_all")
    groups = region.groups(names, axis_index_groups)
    attributes = {"split_dimension": i64(split_axis), "concat_dimension": i64(concat_axis),
                  "split_count": i64(len(groups[0])), **_collective_attributes(ctx, region, groups, global_ids=False)}
    return ctx.op1("stablehlo.all_to_all", [x], ctx.avals_out[0], attributes)


@register_lowering(ppermute_p)
def _ppermute(ctx: LoweringContext, x: Value, *, axis_name, perm) -> Value:
    region = _region(ctx, axis_name, "ppermute")
    # As JAX pairs them: members numbered in mesh order, whatever the order of the names.
    in_mesh_order = [n for n in region.mesh.axis_names if n in axis_name]
    pairs = [[group[i], group[j]] for group in region.groups(in_mesh_order) for i, j in perm]
    attributes = {"source_target_pairs": f"dense<{pairs}> : tensor<{len(pairs)}x2xi64>",
                  **_channel(ctx, region)}
    return ctx.op1("stablehlo.collective_permute", [x], x.aval, attributes)


@register_lowering(pbroadcast_p)
def _pbroadcast(ctx: LoweringContext, x: Value, *, axis_name, source) -> Value:
    # XLA:CPU has no collective-broadcast; JAX 0.10.2 registers pbroadcast's lowering for GPU and TPU only.
    raise NotImplementedError("MLIR translation rule for primitive 'pbroadcast' not found for platform cpu")


@register_lowering(axis_index_p)
def _axis_index(ctx: LoweringContext, *, axis_name) -> Value:
    region = _region(ctx, (axis_name,), "axis_index")
    if region.automatic_axes:
        # The partition id is read where every mesh axis is manual: JAX makes the remaining axes manual around it.
        symbol = ctx.module.mesh_symbol(region.mesh)
        index = ShapedArray((), np.dtype(np.int32))
        return manual_computation(ctx, [], [], [index], region.automatic_axes, "#sdy.sharding_per_value<[]>",
                                  f"#sdy.sharding_per_value<[<@{symbol}, []>]>",
                                  lambda inner, _: [partition_index(inner, region, axis_name)])[0]
    return partition_index(ctx, region, axis_name)


def partition_index(ctx: LoweringContext, region: ManualRegion, axis_name: Any) -> Value:
    """This partition's index along mesh axis ``axis_name``, from its id."""
    index_aval = ShapedArray((), np.dtype(np.uint32))
    stride, size = region.axis_stride(axis_name), region.mesh.shape[axis_name]
    if region.replicas:  # the older replicated programs: only the operations needed
        partition = ctx.op1("stablehlo.replica_id", [], index_aval)
        if stride > 1:
            partition = ctx.op1("stablehlo.divide", [partition, ctx.constant(np.uint32(stride))], index_aval)
        if size < region.mesh.size // stride:
            partition = ctx.op1("stablehlo.remainder", [partition, ctx.constant(np.uint32(size))], index_aval)
    else:  # as JAX writes it: (partition id / stride) % size, its constants first
        stride_value, size_value = ctx.constant(np.uint32(stride)), ctx.constant(np.uint32(size))
        partition = ctx.op1("stablehlo.partition_id", [], index_aval)
        partition = ctx.op1("stablehlo.divide", [partition, stride_value], index_aval)
        partition = ctx.op1("stablehlo.remainder", [partition, size_value], index_aval)
    return ctx.op1("stablehlo.convert", [partition], ShapedArray((), np.dtype(np.int32)))


@register_lowering(precv_p)
def _precv(ctx: LoweringContext, token: Value, *, axis_name, out_shape, perm) -> Value:
    # A receive stages without a bound axis (its type is out_shape); compiling one fails as in JAX 0.10.2 on the
    # platforms jaxle compiles for, where JAX only lowers it on GPU meshes (which jaxle-xla does not map).
    raise NotImplementedError("precv is currently only implemented on GPU")
