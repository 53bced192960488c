"""Arrays assembled from per-device parts: ``make_array_from_callback``, ``_from_single_device_arrays`` and
``_from_process_local_data``. Every part is checked against its sharding's shard shape before it reaches XLA."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.mesh import AxisType
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import check_type_divides, typed_aval
from jaxle_xla import _jaxlib, sharded_array
from jaxle_xla.array import XlaArray, laid_out
from jaxle_xla.sharding import gspmd_sharding

__all__ = ["ProcessBlocks", "assemble_parts", "make_array_from_callback", "make_array_from_process_local_data",
           "make_array_from_single_device_arrays"]


def _typed_shape(aval: ShapedArray, sharding: Any) -> str:
    """``float32[4@x]``: the shape with the Explicit mesh axes splitting each dimension, as JAX types print it."""
    if not isinstance(sharding, NamedSharding):
        return aval.str_short()
    mesh = sharding.mesh
    dims = []
    for size, axes in zip(aval.shape, sharding.dimension_axes(aval.ndim)):
        explicit = [a for a in axes if mesh.axis_types[mesh.axis_names.index(a)] is AxisType.Explicit]
        names = "" if not explicit else f"@{explicit[0]}" if len(explicit) == 1 else f"@({','.join(explicit)})"
        dims.append(f"{size}{names}")
    return f"{aval.dtype.name}[{','.join(dims)}]"


def assemble_parts(aval: ShapedArray, sharding: Any, parts: Sequence[Any]) -> XlaArray:
    """The array laid out by ``sharding`` whose parts (host arrays or device buffers, in device order) are
    ``parts``; each must have the shard shape."""
    expected = sharding.shard_shape(aval.shape)
    for part in parts:
        if tuple(np.shape(part)) != expected:
            raise ValueError(f"Expected shard shape {expected} doesn't match the single device array shape "
                             f"{tuple(np.shape(part))}. Shape of Array is {_typed_shape(aval, sharding)} with sharding "
                             f"{sharding}")
    devices = _local_devices(sharding, aval.shape)
    if not isinstance(sharding, NamedSharding):  # one device
        (part,) = parts
        return _jaxlib.put_shards(aval, sharding, [part], devices)
    return laid_out(_jaxlib.put_shards(typed_aval(aval, sharding), gspmd_sharding(sharding, aval.ndim), parts,
                                       devices), sharding)


def make_array_from_callback(shape: Sequence[int], sharding: Any, data_callback: Callable[[Any], Any],
                             dtype: Any = None) -> XlaArray:
    """An array of ``shape`` laid out by ``sharding``, each device's part being ``data_callback(index)``."""
    shape = tuple(shape)
    indices = sharding.devices_indices_map(shape)
    parts = [np.asarray(data_callback(indices[d])) for d in _local_devices(sharding, shape)]
    if dtype is None:
        dtype = parts[0].dtype if parts else np.dtype(np.float32)
    elif parts:
        _check_dtype("make_array_from_callback", dtype, parts[0].dtype)
    dtype = dtypes.canonicalize_dtype(dtype)
    return assemble_parts(ShapedArray(shape, dtype), sharding, [np.asarray(p, dtype=dtype, order="C") for p in parts])


def make_array_from_single_device_arrays(shape: Sequence[int], sharding: Any, arrays: Sequence[Any], *,
                                         dtype: Any = None) -> XlaArray:
    """An array of ``shape`` laid out by ``sharding`` from one single-device array per device, in device order."""
    if not arrays and dtype is None:
        raise ValueError("If the Array has no addressable shards, `dtype` must be provided via the `dtype` argument "
                         "to `jax.make_array_from_single_device_arrays`.")
    for array in arrays:
        if not isinstance(array, XlaArray):
            raise TypeError(f"Unsupported type for elements in `arrays`: {type(array)}")
    if dtype is None:
        dtype = arrays[0].dtype
    elif arrays:
        _check_dtype("make_array_from_single_device_arrays", dtype, arrays[0].dtype)
    aval = ShapedArray(tuple(shape), dtypes.canonicalize_dtype(dtype))
    check_type_divides(sharding, aval.shape)
    devices = _local_devices(sharding, aval.shape)
    if len(arrays) != len(devices):
        raise ValueError(f"Expected {len(devices)} per-device arrays (this is how many devices are addressable by "
                         f"the sharding), but got {len(arrays)}")
    parts = []
    for array, device in zip(arrays, devices):
        if array._named_sharding is None and array.device == device:
            parts.append(array)
        else:
            parts.append(np.asarray(array, aval.dtype))
    return assemble_parts(aval, sharding, parts)


def _check_dtype(function: str, dtype: Any, shard_dtype: np.dtype) -> None:
    """JAX's ValueError for a ``dtype`` other than the (canonical) one of the parts."""
    dtype, shard_dtype = dtypes.canonicalize_dtype(dtype), dtypes.canonicalize_dtype(shard_dtype)
    if dtype != shard_dtype:
        raise ValueError(f"If `dtype` is provided to `jax.{function}`, it must match the dtype of the addressable "
                         f"shards. Got dtype={dtype} and shard dtype={shard_dtype}`.")


def make_array_from_process_local_data(sharding: Any, local_data: Any, global_shape: Any = None) -> XlaArray:
    """The array laid out by ``sharding`` of which this process holds ``local_data``: the parts of its own devices,
    concatenated in order along each dimension the sharding splits between processes (in one process, the whole
    array). ``global_shape`` is inferred when None."""
    local_data = np.asarray(local_data)
    dtype = dtypes.canonicalize_dtype(local_data.dtype)
    local_data = local_data.astype(dtype, copy=False)
    if isinstance(sharding, NamedSharding) and not sharding.is_fully_addressable:
        return _from_process_parts(sharding, local_data, global_shape)
    if global_shape is not None and tuple(global_shape) != local_data.shape:
        raise ValueError("When calling `make_array_from_process_local_data` on a single process, global_shape should "
                         f"be None or equal to local_data.shape.Got global_shape={tuple(global_shape)} and "
                         f"local_data.shape={local_data.shape}.")
    aval = ShapedArray(local_data.shape, dtype)
    if isinstance(sharding, NamedSharding):
        return laid_out(sharded_array.put(local_data, typed_aval(aval, sharding), sharding), sharding)
    return assemble_parts(aval, sharding, [local_data])


def _local_devices(sharding: Any, shape: tuple[int, ...]) -> list[Any]:
    """The devices of ``sharding`` that belong to this process, in its device order."""
    return [d for d in sharding.devices_indices_map(shape) if d.process_index == d.client.process_index()]


class ProcessBlocks:
    """Which blocks of each dimension of an array laid out by ``sharding`` this process's devices hold: a
    process's data is its blocks, concatenated in order along each dimension."""

    def __init__(self, sharding: NamedSharding, ndim: int):
        mesh = sharding.mesh
        self.tiles = tuple(math.prod(mesh.shape[a] for a in axes) for axes in sharding.dimension_axes(ndim))
        blocks = sharding.devices_indices_map(self.tiles)  # an index into one element per block
        self.devices = mesh.local_devices
        self.of_device = {d: tuple(s.start or 0 for s in blocks[d]) for d in self.devices}
        self.held = [sorted({b[dim] for b in self.of_device.values()}) for dim in range(ndim)]

    def local_index(self, device: Any, block_shape: Sequence[int]) -> tuple[slice, ...]:
        """Where ``device``'s part lies in this process's data, given the shape of one block."""
        return tuple(slice(held.index(b) * size, (held.index(b) + 1) * size)
                     for b, held, size in zip(self.of_device[device], self.held, block_shape))


def _from_process_parts(sharding: NamedSharding, local_data: np.ndarray, global_shape: Any) -> XlaArray:
    blocks = ProcessBlocks(sharding, local_data.ndim)
    block_shape = []
    for size, held in zip(local_data.shape, blocks.held):
        if size % len(held):
            raise ValueError(f"The local data of shape {local_data.shape} cannot be split into this process's "
                             f"{len(held)} parts of its dimension laid out by {sharding}")
        block_shape.append(size // len(held))
    inferred = tuple(b * t for b, t in zip(block_shape, blocks.tiles))
    if global_shape is not None:
        sharding.check_compatible_aval(tuple(global_shape))
        if tuple(global_shape) != inferred:
            raise ValueError(f"global_shape {tuple(global_shape)} does not match the shape {inferred} that the local "
                             f"data of shape {local_data.shape} makes with {sharding}")
    parts = [np.asarray(local_data[blocks.local_index(d, block_shape)], order="C") for d in blocks.devices]
    aval = typed_aval(ShapedArray(inferred, local_data.dtype), sharding)
    return laid_out(_jaxlib.put_shards(aval, gspmd_sharding(sharding, aval.ndim), parts, blocks.devices), sharding)
