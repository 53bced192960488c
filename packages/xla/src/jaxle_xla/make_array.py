"""Arrays assembled from per-device parts: ``make_array_from_callback``, ``_from_single_device_arrays`` and
``_from_process_local_data``. Every part is checked against its sharding's shard shape before it reaches XLA."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.mesh import AxisType
from jaxle_core.sharding import NamedSharding
from jaxle_xla import _jaxlib, sharded_array
from jaxle_xla.array import XlaArray
from jaxle_xla.sharding import gspmd_sharding

__all__ = ["make_array_from_callback", "make_array_from_process_local_data", "make_array_from_single_device_arrays"]


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


def _assemble(aval: ShapedArray, sharding: Any, parts: Sequence[Any]) -> XlaArray:
    """The array laid out by ``sharding`` whose parts (host arrays or device buffers, in device order) are
    ``parts``; each must have the shard shape."""
    expected = sharding.shard_shape(aval.shape)
    for part in parts:
        if tuple(np.shape(part)) != expected:
            raise ValueError(f"Expected shard shape {expected} doesn't match the single device array shape "
                             f"{tuple(np.shape(part))}. Shape of Array is {_typed_shape(aval, sharding)} with sharding "
                             f"{sharding}")
    devices = list(sharding.devices_indices_map(aval.shape))
    if not isinstance(sharding, NamedSharding):  # one device
        (part,) = parts
        return XlaArray(_jaxlib.put_shards(aval, sharding, [part], devices), aval, True)
    return XlaArray(_jaxlib.put_shards(aval, gspmd_sharding(sharding, aval.ndim), parts, devices), aval, True,
                    sharding)


def make_array_from_callback(shape: Sequence[int], sharding: Any, data_callback: Callable[[Any], Any],
                             dtype: Any = None) -> XlaArray:
    """An array of ``shape`` laid out by ``sharding``, each device's part being ``data_callback(index)``."""
    shape = tuple(shape)
    indices = sharding.devices_indices_map(shape)
    parts = [np.asarray(data_callback(index)) for index in indices.values()]
    if dtype is None:
        dtype = parts[0].dtype if parts else np.dtype(np.float32)
    dtype = dtypes.canonicalize_dtype(dtype)
    return _assemble(ShapedArray(shape, dtype), sharding, [np.ascontiguousarray(p, dtype=dtype) for p in parts])


def make_array_from_single_device_arrays(shape: Sequence[int], sharding: Any, arrays: Sequence[Any], *,
                                         dtype: Any = None) -> XlaArray:
    """An array of ``shape`` laid out by ``sharding`` from one single-device array per device, in device order."""
    if not arrays and dtype is None:
        raise ValueError("If the Array has no addressable shards, `dtype` must be provided via the `dtype` argument "
                         "to `jax.make_array_from_single_device_arrays`.")
    dtype = arrays[0].dtype if dtype is None else dtypes.canonicalize_dtype(dtype)
    aval = ShapedArray(tuple(shape), dtype)
    devices = list(sharding.devices_indices_map(aval.shape))
    if len(arrays) != len(devices):
        raise ValueError(f"Expected {len(devices)} per-device arrays (one for each device of {sharding}), got "
                         f"{len(arrays)}")
    parts = []
    for array, device in zip(arrays, devices):
        if type(array) is XlaArray and array._sharding is None and array.device == device:
            parts.append(array._buffer)
        else:
            parts.append(np.asarray(array, dtype))
    return _assemble(aval, sharding, parts)


def make_array_from_process_local_data(sharding: Any, local_data: Any, global_shape: Any = None) -> XlaArray:
    """The array laid out by ``sharding`` holding ``local_data``: in one process, the whole array."""
    local_data = np.asarray(local_data)
    if global_shape is not None and tuple(global_shape) != local_data.shape:
        raise ValueError(f"global_shape {tuple(global_shape)} differs from the shape {local_data.shape} of the data "
                         "of the only process")
    aval = ShapedArray(local_data.shape, dtypes.canonicalize_dtype(local_data.dtype))
    value = local_data.astype(aval.dtype, copy=False)
    if isinstance(sharding, NamedSharding):
        return XlaArray(sharded_array.put(value, aval, sharding), aval, True, sharding)
    return _assemble(aval, sharding, [value])
