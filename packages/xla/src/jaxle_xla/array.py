"""The device Array: an XLA buffer on one device, with the ``jax.Array`` interface."""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, aval_handlers
from jaxle_xla import _jaxlib, sharded_array


class DLDeviceType(enum.IntEnum):
    """DLPack's device kinds, for ``__dlpack_device__``."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLROCM = 10


_DLPACK_DEVICE_TYPES = {"cpu": DLDeviceType.kDLCPU, "cuda": DLDeviceType.kDLCUDA, "rocm": DLDeviceType.kDLROCM}


class XlaArray(Array):
    """An array held by XLA on one device. Operations on it dispatch asynchronously;
    reading its value (``np.asarray``, ``float``, ``repr``) waits for it.

    ``committed`` says whether the array was placed on its device explicitly
    (``device_put`` with a device, or computed from committed arrays): computations
    on committed arrays run on their device, uncommitted ones follow the others.

    An array laid out over several devices by a NamedSharding (``_sharding``) holds one
    buffer of several shards; it is always committed.
    """

    __slots__ = ("aval", "_buffer", "_host", "_committed", "_inline", "_sharding")

    def __init__(self, buffer: _jaxlib.DeviceBuffer, aval: ShapedArray, committed: bool = False,
                 sharding: Any = None):
        self.aval = aval
        self._buffer = buffer
        self._host: np.ndarray | None = None
        self._committed = committed
        self._sharding = sharding

    def _check_alive(self) -> None:
        if self._buffer.is_deleted():
            raise RuntimeError(f"Array has been deleted with shape={self.aval.str_short()}.")

    @property
    def _value(self) -> np.ndarray:
        self._check_alive()
        if self._host is None:
            if self._sharding is not None:
                self._host = sharded_array.read(self._buffer, self.aval, self._sharding)
            else:
                self._host = _jaxlib.to_host(self._buffer, self.aval.shape, self.aval.dtype)
        return self._host

    def _spans_processes(self) -> bool:
        """Whether parts of the value live only on other processes' devices (it cannot be read here)."""
        sharding = self._sharding
        return sharding is not None and not sharding.is_fully_addressable and not sharding.is_fully_replicated

    def __repr__(self) -> str:
        if self._spans_processes():
            return f"Array(shape={self.shape}, dtype={self.dtype.name})"
        return super().__repr__()

    def __str__(self) -> str:
        return repr(self) if self._spans_processes() else super().__str__()

    def __format__(self, spec: str) -> str:
        return repr(self) if self._spans_processes() else super().__format__(spec)

    def __array__(self, dtype=None, copy=None):
        value = self._value
        if dtype is not None and np.dtype(dtype) != value.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return value.astype(dtype)
        return value.copy() if copy else value

    def block_until_ready(self) -> XlaArray:
        self._check_alive()
        self._buffer.block_until_ready()
        return self

    def is_ready(self) -> bool:
        self._check_alive()
        return self._buffer.is_ready()

    def copy_to_host_async(self) -> None:
        self._check_alive()
        if self._host is None:
            _jaxlib.copy_to_host_async(self._buffer)

    def delete(self) -> None:
        """Free the device buffer now; any later use of the array raises RuntimeError."""
        self._buffer.delete()
        self._host = None

    def is_deleted(self) -> bool:
        return self._buffer.is_deleted()

    @property
    def device(self) -> Any:
        """The array's device; its sharding when it spans several."""
        self._check_alive()
        return self._sharding or _jaxlib.buffer_device(self._buffer)

    def devices(self) -> set[_jaxlib.Device]:
        self._check_alive()
        return self.sharding.device_set

    @property
    def sharding(self) -> Any:
        return self._sharding or _jaxlib.sharding_for(_jaxlib.buffer_device(self._buffer))

    @property
    def is_fully_replicated(self) -> bool:
        return self.sharding.is_fully_replicated

    @property
    def is_fully_addressable(self) -> bool:
        return self.sharding.is_fully_addressable

    @property
    def addressable_shards(self) -> list[sharded_array.Shard]:
        """Each device's part of the array, with its index into the whole."""
        self._check_alive()
        if self._sharding is not None:
            return sharded_array.shards(self)
        device = _jaxlib.buffer_device(self._buffer)
        return [sharded_array.Shard(device, (slice(None),) * self.ndim, 0, self)]

    global_shards = addressable_shards

    def addressable_data(self, index: int) -> XlaArray:
        return self.addressable_shards[index].data

    @property
    def committed(self) -> bool:
        return self._committed

    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: tuple[DLDeviceType, int] | None = None, copy: bool | None = None) -> Any:
        self._check_alive()
        return _jaxlib.dlpack_capsule(self._buffer, stream)

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        device = self.device
        return _DLPACK_DEVICE_TYPES[device.platform], 0 if device.platform == "cpu" else device.local_hardware_id

    def on_device_size_in_bytes(self) -> int:
        self._check_alive()
        return self._buffer.on_device_size_in_bytes()


aval_handlers[XlaArray] = lambda x: x.aval
