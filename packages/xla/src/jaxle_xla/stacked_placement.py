"""``device_put_sharded`` and ``device_put_replicated``: per-device values stacked along a new leading axis.

JAX has since replaced both with ``jax.device_put`` and a sharding; jaxle keeps
them from the older API (with a ``DeprecationWarning`` naming that
replacement) for programs written against it. Each array leaf becomes one
Array split along its new leading axis over ``devices``, one slice per device,
laid out over a one-axis mesh named as an unnamed ``pmap`` names its axis, so
``pmap`` consumes it where it lies.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.mesh import Mesh, PartitionSpec
from jaxle_core.pmap import PMAP_AXIS_NAME
from jaxle_core.sharding import NamedSharding
from jaxle_xla.array import XlaArray
from jaxle_xla.make_array import assemble_parts

__all__ = ["device_put_replicated", "device_put_sharded"]


def _deprecated(name: str) -> None:
    warnings.warn(f"jax.{name} is deprecated and kept from JAX's older API; use jax.device_put with a "
                  "jax.sharding.NamedSharding instead", DeprecationWarning, stacklevel=3)


def _stacked(slices: Sequence[Any], devices: Sequence[Any]) -> XlaArray:
    """One Array whose slice ``i`` along a new leading axis is ``slices[i]``, on ``devices[i]``."""
    avals = [get_aval(s) for s in slices]
    if any(a.shape != avals[0].shape or a.dtype != avals[0].dtype for a in avals):
        raise ValueError("the shards of device_put_sharded must all have the same shape and dtype, got "
                         f"{[a.str_short() for a in avals]}")
    dtype = avals[0].dtype
    mesh = Mesh(np.array(devices, dtype=object), (PMAP_AXIS_NAME,))
    sharding = NamedSharding(mesh, PartitionSpec(PMAP_AXIS_NAME))
    blocks = [np.asarray(s, dtype)[np.newaxis] for s in slices]
    return assemble_parts(ShapedArray((len(slices),) + avals[0].shape, dtype), sharding, blocks)


def device_put_sharded(shards: Sequence[Any], devices: Sequence[Any]) -> Any:
    """``shards`` (pytrees of one structure) stacked leaf by leaf along a new leading axis, slice ``i`` on
    ``devices[i]``. Deprecated: use ``jax.device_put`` with a sharding."""
    _deprecated("device_put_sharded")
    if not isinstance(shards, Sequence):
        raise TypeError(f"device_put_sharded `shards` input must be a sequence; got {type(shards)}")
    if len(shards) != len(devices):
        raise ValueError(f"len(shards) = {len(shards)} must equal len(devices) = {len(devices)}.")
    if not shards:
        raise ValueError("device_put_sharded needs at least one shard and one device")
    flat = [tree.tree_flatten(shard) for shard in shards]
    structure = flat[0][1]
    if any(treedef != structure for _, treedef in flat):
        raise ValueError(f"device_put_sharded: all shards must have the same pytree structure, got "
                         f"{[str(treedef) for _, treedef in flat]}")
    leaves = [_stacked([leaves[i] for leaves, _ in flat], devices) for i in range(structure.num_leaves)]
    return tree.tree_unflatten(structure, leaves)


def device_put_replicated(x: Any, devices: Sequence[Any]) -> Any:
    """``x`` repeated along a new leading axis of size ``len(devices)``, slice ``i`` on ``devices[i]``.
    Deprecated: use ``jax.device_put`` with a sharding."""
    _deprecated("device_put_replicated")
    if not isinstance(devices, Sequence) or not devices:
        raise ValueError("`devices` argument to `device_put_replicated must be a non-empty sequence.")
    return tree.tree_map(lambda leaf: _stacked([leaf] * len(devices), devices), x)
