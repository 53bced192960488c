"""Arrays laid out over several devices: putting their shards, reading them back whole, and ``Shard`` views.

A sharded Array holds one jaxlib array of several single-device buffers, in the order of its sharding's device
list (the mesh's devices, row-major); its NamedSharding says which slice of the whole each buffer holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.sharding import NamedSharding, check_sharding_fits
from jaxle_xla import _jaxlib
from jaxle_xla.sharding import gspmd_sharding

__all__ = ["Shard", "put", "read", "shards"]


class Shard:
    """One device's part of an Array: the device, its index into the whole, which copy it is, and the data."""

    __slots__ = ("device", "index", "replica_id", "data")

    def __init__(self, device: Any, index: tuple, replica_id: int, data: Any) -> None:
        self.device = device
        self.index = index
        self.replica_id = replica_id
        self.data = data

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, data={self.data})"


def put(value: np.ndarray, aval: ShapedArray, sharding: NamedSharding) -> _jaxlib.DeviceBuffer:
    """The host array ``value`` laid out over ``sharding``'s devices (its shape checked first)."""
    check_sharding_fits(sharding, aval.shape, "One of device_put args")
    indices = sharding.devices_indices_map(aval.shape)
    devices = sharding._device_assignment
    parts = [np.ascontiguousarray(value[indices[d]]) for d in devices]
    return _jaxlib.put_shards(aval, gspmd_sharding(sharding, aval.ndim), parts, devices)


def read(buffer: _jaxlib.DeviceBuffer, aval: ShapedArray, sharding: NamedSharding) -> np.ndarray:
    """The whole array, assembled on the host from the first copy of each part (read-only)."""
    whole = np.empty(aval.shape, aval.dtype)
    indices = sharding.devices_indices_map(aval.shape)
    shard_aval = aval.update(shape=sharding.shard_shape(aval.shape))
    for device, part, copy in zip(sharding._device_assignment, _jaxlib.shard_buffers(buffer),
                                  sharding.replica_ids(aval.shape)):
        if copy == 0:
            whole[indices[device]] = _jaxlib.to_host(part, shard_aval.shape, aval.dtype)
    whole.flags.writeable = False
    return whole


def shards(array: Any) -> list[Shard]:
    """The ``Shard`` of each device of a sharded ``array`` (an XlaArray), in its sharding's device order."""
    sharding: NamedSharding = array._sharding
    aval = array.aval
    indices = sharding.devices_indices_map(aval.shape)
    shard_aval = aval.update(shape=sharding.shard_shape(aval.shape))
    return [Shard(device, indices[device], copy, type(array)(part, shard_aval, True))
            for device, part, copy in zip(sharding._device_assignment, _jaxlib.shard_buffers(array._buffer),
                                          sharding.replica_ids(aval.shape))]
