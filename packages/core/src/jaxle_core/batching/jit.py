"""Batching of ``jit``: the call keeps its boundary under ``vmap``; its jaxpr is batched (inputs keep the batch
dimensions they arrive with) and a new call equation applies it. As in JAX, batching the same jaxpr the same way
again reuses the batched jaxpr, so repeated calls share it (jaxprs print it once, as ``let name = ...``)."""

from __future__ import annotations

import functools
from typing import Any

from jaxle_core.batching.rule_helpers import batch_jaxpr, body_batch_size
from jaxle_core.batching.trace import BatchTrace, sharding_with_batch_dim, spmd_entry, traced_batching_rules
from jaxle_core.caches import LruCache
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jit import bind_jit, jit_p
from jaxle_core.mesh import AbstractMesh, PartitionSpec
from jaxle_core.sharding import NamedSharding


def _jit_batch(trace: BatchTrace, vals, dims, *, jaxpr: ClosedJaxpr, name: str, keep_unused: bool, inline: bool,
               in_shardings, out_shardings, **params):
    key = (jaxpr, tuple(dims), body_batch_size(trace, vals, dims), trace.axis_name, trace.layout, trace.spmd_axes)
    cached = _batched_jaxprs.lookup(key)
    if cached is None:
        cached = _batched_jaxprs[key] = batch_jaxpr(jaxpr, *key[1:4])
    batched, out_dims = cached
    batched_sharding = functools.partial(_batched_sharding, spmd_axes=trace.spmd_axes)
    return bind_jit(batched, vals, name, keep_unused, inline, list(map(batched_sharding, in_shardings, dims)),
                    list(map(batched_sharding, out_shardings, out_dims))), list(out_dims)


def _batched_sharding(sharding: Any, dim: int | None, spmd_axes: tuple | None) -> Any:
    """``sharding`` of a value given a batch dimension at ``dim``, as JAX's batching of jit rewrites it: a
    NamedSharding splits it along ``vmap``'s ``spmd_axis_name`` (``spmd_axes``), else where it names mesh axes
    leaves it unsplit (unconstrained over an abstract mesh; over devices without trailing unsplit entries, as XLA's
    sharding reads back); the others (replicated, one device's, unspecified) stay as they are."""
    if dim is not None and spmd_axes is not None and isinstance(sharding, NamedSharding):
        return sharding_with_batch_dim(sharding, dim, spmd_entry(spmd_axes))
    if dim is None or not isinstance(sharding, NamedSharding) or not any(sharding.spec):
        return sharding
    abstract = isinstance(sharding.mesh, AbstractMesh)
    spec = [*sharding.spec, *[None] * (dim - len(sharding.spec))]
    spec.insert(dim, PartitionSpec.UNCONSTRAINED if abstract else None)
    while spec and spec[-1] is None and not abstract:
        spec.pop()
    return NamedSharding(sharding.mesh, PartitionSpec(*spec), memory_kind=sharding.memory_kind)


_batched_jaxprs = LruCache()


traced_batching_rules[jit_p] = _jit_batch
