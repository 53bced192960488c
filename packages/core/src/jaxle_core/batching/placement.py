"""Batching of ``stage``, ``device_put``, ``sharding_constraint`` and ``reshard``: the operands keep their batch
dimensions (which a sharding constraint leaves unconstrained, or splits along ``vmap``'s ``spmd_axis_name``, and a
reshard lays out as the batch is, as JAX's)."""

from __future__ import annotations

from jaxle_core.batching.trace import (
    batching_rules,
    current_spmd_axes,
    sharding_with_batch_dim,
    spmd_entry,
    vmapped_sharding,
)
from jaxle_core.lax.placement import device_put_p, reshard_p, sharding_constraint_p, stage_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.shard_map import spec_axes
from jaxle_core.sharding import NamedSharding

batching_rules[stage_p] = lambda vals, dims: (stage_p.bind(vals[0]), dims[0])
batching_rules[device_put_p] = lambda vals, dims, **params: (device_put_p.bind(*vals, **params), list(dims))


def _sharding_constraint_rule(vals, dims, *, unconstrained_dims, sharding, **params):
    """The batch dimension left open to XLA's partitioner, or split along ``vmap``'s ``spmd_axis_name``."""
    (x,), (dim,) = vals, dims
    spmd_axes = current_spmd_axes()
    shifted = {d + (d >= dim) for d in unconstrained_dims}
    if spmd_axes is None:
        shifted.add(dim)
    elif isinstance(sharding, NamedSharding) and set(spmd_axes) & set(spec_axes(sharding.spec)):
        raise ValueError(f"vmap spmd_axis_name {spmd_axes} cannot appear in with_sharding_constraint spec, but got "
                         f"spec {sharding.spec}")
    entry = PartitionSpec.UNCONSTRAINED if spmd_axes is None else spmd_entry(spmd_axes)
    return sharding_constraint_p.bind(x, unconstrained_dims=frozenset(shifted),
                                      sharding=sharding_with_batch_dim(sharding, dim, entry), **params), dim


def _reshard_rule(vals, dims, *, dst_sharding):
    (x,), (dim,) = vals, dims
    return reshard_p.bind(x, dst_sharding=vmapped_sharding(dst_sharding, dim)), dim


batching_rules[reshard_p] = _reshard_rule


batching_rules[sharding_constraint_p] = _sharding_constraint_rule
