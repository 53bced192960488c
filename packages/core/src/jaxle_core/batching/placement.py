"""Batching of ``stage``, ``device_put``, ``sharding_constraint`` and ``reshard``: the operands keep their batch
dimensions (which a sharding constraint leaves unconstrained and a reshard replicates, as JAX's)."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.placement import device_put_p, reshard_p, sharding_constraint_p, stage_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding

batching_rules[stage_p] = lambda vals, dims: (stage_p.bind(vals[0]), dims[0])
batching_rules[device_put_p] = lambda vals, dims, **params: (device_put_p.bind(*vals, **params), list(dims))


def _with_batch_dimension(sharding, dim: int, entry=PartitionSpec.UNCONSTRAINED):
    """``sharding`` with the batch dimension ``dim`` inserted, laid out by ``entry`` (default: unconstrained)."""
    if not isinstance(sharding, NamedSharding):
        return sharding
    entries = list(sharding.spec) + [None] * max(0, dim - len(sharding.spec))
    entries.insert(dim, entry)
    return sharding.update(spec=sharding.spec.update(partitions=entries))


def _sharding_constraint_rule(vals, dims, *, unconstrained_dims, sharding, **params):
    (x,), (dim,) = vals, dims
    shifted = {d + (d >= dim) for d in unconstrained_dims} | {dim}
    return sharding_constraint_p.bind(x, unconstrained_dims=frozenset(shifted),
                                      sharding=_with_batch_dimension(sharding, dim), **params), dim


def _reshard_rule(vals, dims, *, dst_sharding):
    (x,), (dim,) = vals, dims
    return reshard_p.bind(x, dst_sharding=_with_batch_dimension(dst_sharding, dim, None)), dim


batching_rules[reshard_p] = _reshard_rule


batching_rules[sharding_constraint_p] = _sharding_constraint_rule
