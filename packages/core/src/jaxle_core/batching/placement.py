"""Batching of ``stage``, ``device_put`` and ``sharding_constraint``: the operands keep their batch dimensions
(which a sharding constraint leaves unconstrained)."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.placement import device_put_p, sharding_constraint_p, stage_p

batching_rules[stage_p] = lambda vals, dims: (stage_p.bind(vals[0]), dims[0])
batching_rules[device_put_p] = lambda vals, dims, **params: (device_put_p.bind(*vals, **params), list(dims))


def _sharding_constraint_rule(vals, dims, *, unconstrained_dims, **params):
    (x,), (dim,) = vals, dims
    shifted = {d + (d >= dim) for d in unconstrained_dims} | {dim}
    return sharding_constraint_p.bind(x, unconstrained_dims=frozenset(shifted), **params), dim


batching_rules[sharding_constraint_p] = _sharding_constraint_rule
