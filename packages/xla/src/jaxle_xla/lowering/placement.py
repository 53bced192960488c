"""Lowering of ``stage``, ``device_put``, ``sharding_constraint`` and ``reshard``: each is the operand itself,
except a constraint (or reshard) to a NamedSharding in a partitioned program, which becomes Shardy's
``sdy.sharding_constraint`` (JAX writes one over an empty mesh for a single device's sharding, which changes
nothing). ``constrain`` is that constraint, for other lowerings. A constraint to devices other than those of the
mesh set by ``set_mesh`` is refused with JAX's error."""

from __future__ import annotations

from jaxle_core.lax.placement import device_put_p, leaves_layout_open, reshard_p, sharding_constraint_p, stage_p
from jaxle_core.mesh import AbstractMesh
from jaxle_core.sharding import Sharding
from jaxle_xla.eager_constraints import refuse_outside_context_mesh
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import constrain, constrain_to_device, on_one_device, register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_type, constrains_types, leave_unconstrained


@register_lowering(stage_p)
def _identity(ctx: LoweringContext, x: Value, **params) -> Value:
    return x


@register_lowering(sharding_constraint_p)
def _sharding_constraint(ctx: LoweringContext, x: Value, *, sharding, unconstrained_dims=frozenset(),
                         **params) -> Value:
    refuse_outside_context_mesh(sharding)
    if on_one_device(ctx, sharding):
        return constrain_to_device(ctx, x)
    return constrain(ctx, x, sharding, unconstrained_dims)


@register_lowering(reshard_p)
def _reshard(ctx: LoweringContext, x: Value, *, dst_sharding) -> Value:
    if constrains_types(ctx) and dst_sharding.mesh.explicit_axes:  # to a type: replicated means replicated there
        return constrain_to_type(ctx, x, dst_sharding)
    if leaves_layout_open(dst_sharding) or _into_auto_axes(dst_sharding):
        return x
    return constrain(ctx, x, dst_sharding)


def _into_auto_axes(dst_sharding) -> bool:
    """Whether a reshard is one into ``auto_axes`` (over its abstract mesh of Auto axes only, split along a
    batch's axis when vmapped): as JAX's, it writes nothing, whatever its spec."""
    mesh = dst_sharding.mesh
    return isinstance(mesh, AbstractMesh) and not mesh.empty and mesh.are_all_axes_auto


leave_unconstrained(device_put_p)  # JAX's lowering of device_put writes no constraint after it


@register_lowering(device_put_p)
def _device_put(ctx: LoweringContext, *args: Value, devices, srcs, copy_semantics) -> list[Value]:
    for destination in devices:
        if isinstance(destination, Sharding):
            refuse_outside_context_mesh(destination, "device_put")
    return list(args)
