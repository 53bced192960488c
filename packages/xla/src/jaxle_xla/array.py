"""The device Array: jaxlib's own array type, given the ``jax.Array`` interface.

jaxlib's C++ array (``ArrayImpl``) is at once the device buffer and the Array users hold, as in JAX: jaxlib's C++
jit path then takes and returns jaxle's arrays directly. Core's ``Array`` is made one of its base classes (so that
``isinstance(x, jax.Array)`` holds and every operator and NumPy method installed on ``Array`` applies), and the
methods below, which need the buffer, are installed on the type itself.
"""

from __future__ import annotations

import enum
from types import FunctionType
from typing import Any

import numpy as np

from jaxle_core.api import register_batch_wait
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, aval_handlers
from jaxle_core.layout import Format, Layout
from jaxle_xla import _jaxlib, layout_meshes, sharded_array
from jaxle_xla.sharding import HloNamedSharding, maximal_index


class DLDeviceType(enum.IntEnum):
    """DLPack's device kinds, for ``__dlpack_device__``."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLROCM = 10


_DLPACK_DEVICE_TYPES = {"cpu": DLDeviceType.kDLCPU, "cuda": DLDeviceType.kDLCUDA, "rocm": DLDeviceType.kDLROCM}

XlaArray = _jaxlib.adopt_array_base(Array)
"""An array held by XLA on one device (jaxlib's ``ArrayImpl``). Operations on it dispatch asynchronously; reading
its value (``np.asarray``, ``float``, ``repr``) waits for it.

``committed`` says whether the array was placed on its device explicitly (``device_put`` with a device, or
computed from committed arrays): computations on committed arrays run on their device, uncommitted ones follow
the others. An array laid out over several devices by a NamedSharding (``_named_sharding``) is one jaxlib array
of several shards; it is always committed."""

class _NamedShardingOf:
    """``array._named_sharding`` of an array none was set on: the NamedSharding of the jaxlib sharding it was made
    with, when that one was named (see ``name_layout``; arrays jaxlib's C++ dispatch makes carry only the jaxlib
    sharding it was given), else None. A non-data descriptor: the value set on an array (``laid_out``) wins."""

    def __get__(self, array: Any, owner: Any = None) -> Any:
        if array is None:
            return None
        known = _NAMED_LAYOUTS.get(id(array._sharding))
        return None if known is None else known[1]


# id of a jaxlib sharding object -> (that object, kept alive so that its id stays its, and its NamedSharding)
_NAMED_LAYOUTS: dict[int, tuple[Any, Any]] = {}

XlaArray._named_sharding = _NamedShardingOf()  # the NamedSharding of an array over several devices
XlaArray._placed = None  # (a NamedSharding asked for by device_put, the array laid out so or None for itself)
XlaArray._maximal = None  # the maximal GSPMDSharding of a value that one device of a partitioned program computed


def name_layout(jaxlib_sharding: Any, sharding: Any) -> Any:
    """Make arrays laid out by the jaxlib sharding object ``jaxlib_sharding`` (this very object) report the
    NamedSharding ``sharding``; returns ``jaxlib_sharding``."""
    _NAMED_LAYOUTS[id(jaxlib_sharding)] = (jaxlib_sharding, sharding)
    layout_meshes.note(jaxlib_sharding, sharding)
    return jaxlib_sharding


def laid_out(array: XlaArray, sharding: Any) -> XlaArray:
    """``array`` (a jaxlib array of several shards), marked as laid out by the NamedSharding ``sharding``."""
    array._named_sharding = sharding
    layout_meshes.note(array._sharding, sharding, array.ndim)
    return array


def share_host_value(source: XlaArray, target: XlaArray) -> XlaArray:
    """``target``, given the host value already read of ``source`` (same contents; arrays are immutable)."""
    if source._npy_value is not None:
        target._npy_value = source._npy_value
    return target


def view(array: XlaArray, aval: ShapedArray, committed: bool) -> XlaArray:
    """Another handle on ``array``'s buffer (deleting either deletes both), typed ``aval``; its host value too."""
    return share_host_value(array, _jaxlib.rewrap(array, aval, committed))


_RELEASED = np.empty(0)


class _DeviceMethods:
    """The part of the Array interface that reads the buffer; installed on XlaArray (not a base class: jaxlib's
    own methods of the same names would come first). ``block_until_ready`` stays jaxlib's own, as in JAX: a call
    with no Python frame on the hot path of every waited-for step, and JAX's error for a deleted array."""

    def _check_alive(self) -> None:
        if _jaxlib.is_deleted(self):
            raise RuntimeError(f"Array has been deleted with shape={self.aval.str_short()}.")

    @property
    def _value(self) -> np.ndarray:
        self._check_alive()
        value = self._npy_value  # the host copy, read once (arrays are immutable)
        if value is None:
            if self._named_sharding is not None:
                value = sharded_array.read(self, self.aval, self._named_sharding)
            elif self._maximal is not None:  # only the device that computed it holds the value
                value = _jaxlib.to_host(self._maximal_part(), self.aval.shape, self.aval.dtype)
            else:
                value = _jaxlib.to_host(self, self.aval.shape, self.aval.dtype)
            self._npy_value = value
        return value

    def _maximal_part(self) -> _jaxlib.DeviceBuffer:
        """The buffer of the device that computed an array laid out by a maximal GSPMDSharding."""
        return _jaxlib.shard_buffers(self)[maximal_index(self._maximal)]

    def _spans_processes(self) -> bool:
        """Whether parts of the value live only on other processes' devices (it cannot be read here)."""
        sharding = self._named_sharding
        return sharding is not None and not sharding.is_fully_addressable and not sharding.is_fully_replicated

    def __repr__(self) -> str:
        if self._spans_processes():
            return f"Array(shape={self.shape}, dtype={self.dtype.name})"
        if self._holds_partial_sums():  # no values to show
            return f"Array(shape={self.shape}, dtype={self.dtype.name}, sharding={self._named_sharding})"
        return Array.__repr__(self)

    def __str__(self) -> str:
        return repr(self) if self._spans_processes() or self._holds_partial_sums() else Array.__str__(self)

    def _holds_partial_sums(self) -> bool:
        return self._named_sharding is not None and bool(self._named_sharding.spec.unreduced)

    def __format__(self, spec: str) -> str:
        return repr(self) if self._spans_processes() else Array.__format__(self, spec)

    def __array__(self, dtype=None, copy=None):
        value = self._value
        if dtype is not None and np.dtype(dtype) != value.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as requested.")
            return value.astype(dtype)
        return value.copy() if copy else value

    def is_ready(self) -> bool:
        self._check_alive()
        return _jaxlib.is_ready(self)

    def copy_to_host_async(self) -> None:
        self._check_alive()
        if self._npy_value is None:
            _jaxlib.copy_to_host_async(self)

    def delete(self) -> None:
        """Free the device buffer now; any later use of the array raises RuntimeError."""
        _jaxlib.delete(self)
        if self._npy_value is not None:
            self._npy_value = _RELEASED  # jaxlib's slot cannot be cleared; this frees the host copy

    def is_deleted(self) -> bool:
        return _jaxlib.is_deleted(self)

    @property
    def device(self) -> Any:
        """The array's device; its sharding when it spans several."""
        self._check_alive()
        named = self._named_sharding
        if named is not None:
            return named.gspmd if type(named) is HloNamedSharding else named
        return self._maximal or _jaxlib.buffer_device(self)

    def devices(self) -> set[_jaxlib.Device]:
        self._check_alive()
        return self.sharding.device_set

    @property
    def sharding(self) -> Any:
        named = self._named_sharding
        if named is not None:  # a GSPMDSharding's placement reports the GSPMDSharding
            return named.gspmd if type(named) is HloNamedSharding else named
        return self._maximal or _jaxlib.buffer_sharding(self)

    @property
    def format(self) -> Format:
        """The array's layout in memory (as XLA reports it) and its sharding."""
        self._check_alive()
        return Format(Layout.from_pjrt_layout(self._pjrt_layout), self.sharding)

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
        if self._named_sharding is not None:
            return sharded_array.shards(self)
        if self._maximal is not None:  # each device's buffer; only the one that computed the value holds it
            full = (slice(None),) * self.ndim
            return [sharded_array.Shard(device, full, i, _jaxlib.rewrap(part, self.aval, True)) for i, (device, part)
                    in enumerate(zip(self._maximal._device_assignment, _jaxlib.shard_buffers(self)))]
        device = _jaxlib.buffer_device(self)
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
        return _jaxlib.dlpack_capsule(self, stream)

    def __dlpack_device__(self) -> tuple[DLDeviceType, int]:
        device = self.device
        return _DLPACK_DEVICE_TYPES[device.platform], 0 if device.platform == "cpu" else device.local_hardware_id

    def on_device_size_in_bytes(self) -> int:
        self._check_alive()
        return _jaxlib.size_in_bytes(self)


for _name, _member in vars(_DeviceMethods).items():
    if isinstance(_member, (property, FunctionType)):
        setattr(XlaArray, _name, _member)

aval_handlers[XlaArray] = lambda x: x.aval
# jax.block_until_ready waits for all of a tree's arrays in one call into the runtime, as JAX's does.
register_batch_wait(XlaArray, _jaxlib.wait_all)
