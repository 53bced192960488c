"""Arrays laid out over several devices: putting their shards, reading them back whole, and ``Shard`` views.

A sharded Array holds one jaxlib array of several single-device buffers, in the order of its sharding's device
list (the mesh's devices, row-major); its NamedSharding says which slice of the whole each buffer holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.sharding import NamedSharding, check_sharding_fits
from jaxle_core.sharding_types import check_type_divides
from jaxle_xla import _jaxlib
from jaxle_xla.sharding import gspmd_sharding, public_sharding

__all__ = ["Shard", "check_layout", "put", "read", "shards"]


class Shard:
    """One device's part of an Array: the device, its index into the whole, which copy it is, and the data. The
    index and copy of a part holding a partial sum (an unreduced array) are not defined: asking raises JAX's
    error."""

    __slots__ = ("device", "_index", "_replica_id", "data")

    def __init__(self, device: Any, index: tuple | None, replica_id: int | None, data: Any,
                 sharding: NamedSharding | None = None) -> None:
        self.device = device
        self._index = index if sharding is None else sharding
        self._replica_id = replica_id if sharding is None else sharding
        self.data = data

    def _where(self, value: Any) -> Any:
        if isinstance(value, NamedSharding):  # a partial sum's: JAX's error
            value.devices_indices_map(self.data.shape)
        return value

    index = property(lambda self: self._where(self._index))
    replica_id = property(lambda self: self._where(self._replica_id))

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, data={self.data})"


def check_layout(sharding: NamedSharding, shape: tuple[int, ...]) -> dict:
    """JAX's error when no array of ``shape`` can be laid out over ``sharding`` (a type its Explicit axes do not
    divide, a spec longer than the rank, a dimension its axes do not divide); else each device's index."""
    check_type_divides(sharding, shape)
    check_sharding_fits(sharding, shape, "One of device_put args")
    return sharding.devices_indices_map(shape)


def put(value: np.ndarray, aval: ShapedArray, sharding: NamedSharding) -> _jaxlib.DeviceBuffer:
    """The host array ``value`` laid out over ``sharding``'s devices (its shape checked first)."""
    indices = check_layout(sharding, aval.shape)
    devices = sharding.mesh.local_devices  # in a multi-process run, each process puts its own devices' parts
    # np.asarray keeps a rank-0 part rank 0 (np.ascontiguousarray would make it shape (1,), a wrong shard shape)
    parts = [np.asarray(value[indices[d]], order="C") for d in devices]
    return _jaxlib.put_shards(aval, gspmd_sharding(sharding, aval.ndim), parts, devices)


def _local_parts(buffer: _jaxlib.DeviceBuffer, aval: ShapedArray, sharding: NamedSharding) -> list[tuple]:
    """(device, index, replica id, buffer) of each of this process's devices, in the sharding's device order."""
    indices = sharding.devices_indices_map(aval.shape)
    local = [(d, copy) for d, copy in zip(sharding._device_assignment, sharding.replica_ids(aval.shape))
             if d in sharding.addressable_devices]
    return [(d, indices[d], copy, part) for (d, copy), part in zip(local, _jaxlib.shard_buffers(buffer))]


def read(buffer: _jaxlib.DeviceBuffer, aval: ShapedArray, sharding: NamedSharding) -> np.ndarray:
    """The whole array, assembled on the host from the first copy of each part (read-only). An array with parts
    on other processes' devices can be read only when every device holds all of it."""
    shard_shape = sharding.shard_shape(aval.shape)
    parts = _local_parts(buffer, aval, sharding)
    if not sharding.is_fully_addressable:
        if not sharding.is_fully_replicated:
            raise RuntimeError(NOT_ADDRESSABLE)
        return _jaxlib.to_host(parts[0][3], shard_shape, aval.dtype)
    whole = np.empty(aval.shape, aval.dtype)
    for _, index, copy, part in parts:
        if copy == 0:
            whole[index] = _jaxlib.to_host(part, shard_shape, aval.dtype)
    whole.flags.writeable = False
    return whole


NOT_ADDRESSABLE = ("Fetching value for `jax.Array` that spans non-addressable (non process local) devices is not "
                   "possible. You can use `jax.experimental.multihost_utils.process_allgather` to print the global "
                   "array or use `.addressable_shards` method of jax.Array to inspect the addressable (process "
                   "local) shards.")


def shards(array: Any) -> list[Shard]:
    """The ``Shard`` of each of this process's devices of a sharded ``array`` (an XlaArray), in the order of the
    devices of its sharding (as users see it)."""
    aval, sharding = array.aval, array._named_sharding
    shard_aval = aval.update(shape=sharding.shard_shape(aval.shape), auto_mesh=None)  # each on its own device
    if sharding.spec.unreduced:  # each device's partial sum, in device order
        local = [d for d in sharding._device_assignment if d in sharding.addressable_devices]
        return [Shard(device, None, None, _jaxlib.rewrap(part, shard_aval, True), sharding)
                for device, part in zip(local, _jaxlib.shard_buffers(array))]
    listed = [Shard(device, index, copy, _jaxlib.rewrap(part, shard_aval, True))
              for device, index, copy, part in _local_parts(array, aval, sharding)]
    order = public_sharding(sharding)._device_assignment
    if order != sharding._device_assignment:  # a GSPMDSharding's tiles list its devices in another order
        position = {device: i for i, device in enumerate(order)}
        listed.sort(key=lambda shard: position[shard.device])
    return listed
