"""The device-facing public API: ``device_put``, ``device_get`` and the device queries."""

from __future__ import annotations

from typing import Any

import jaxle_tree as tree
import numpy as np
from jaxle_core.array import Array
from jaxle_core.avals import get_aval

from jaxle_xla import _jaxlib
from jaxle_xla.clients import (
    default_backend,
    device_count,
    devices,
    local_device_count,
    local_devices,
    process_count,
    process_index,
)

__all__ = ["default_backend", "device_count", "device_get", "device_put", "devices", "local_device_count",
           "local_devices", "process_count", "process_index"]


def _target_device(device: Any) -> _jaxlib.Device | None:
    if device is None or isinstance(device, _jaxlib.Device):
        return device
    if isinstance(device, _jaxlib.DeviceSharding):
        return device._device
    raise TypeError(f"device_put expects a Device or a SingleDeviceSharding, got {type(device).__name__}. "
                    "Pick one from jax.devices().")


def device_put(x: Any, device: Any = None, *, donate: bool = False, may_alias: bool | None = None) -> Any:
    """Move every leaf of ``x`` to ``device`` (the default device, uncommitted, when None)."""
    from jaxle_xla import xla_backend as backend

    target = _target_device(device)

    def put(leaf: Any) -> Any:
        get_aval(leaf)  # a clear TypeError for leaves that are not arrays
        return backend.device_put(leaf, target, weak_type=False)

    return tree.tree_map(put, x)


def device_get(x: Any) -> Any:
    """Every array leaf of ``x`` as a NumPy array (other leaves unchanged)."""
    for leaf in tree.tree_leaves(x):
        if isinstance(leaf, Array):
            leaf.copy_to_host_async() if hasattr(leaf, "copy_to_host_async") else None
    return tree.tree_map(lambda leaf: np.asarray(leaf) if isinstance(leaf, Array) else leaf, x)
