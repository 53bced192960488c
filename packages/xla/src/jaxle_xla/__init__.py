"""jaxle-xla: the XLA backend bridge (lowering to StableHLO, compilation, the device Array, devices).

Importing this package registers XLA as jaxle-core's default backend.
"""

__version__ = "0.1.0"

from jaxle_core.backend import register_backend  # noqa: E402
from jaxle_xla._jaxlib import XlaRuntimeError as JaxRuntimeError  # noqa: E402
from jaxle_xla.api import (  # noqa: E402
    Device,
    default_backend,
    device_count,
    device_get,
    device_put,
    devices,
    effects_barrier,
    host_count,
    host_id,
    host_ids,
    live_arrays,
    local_device_count,
    local_devices,
    process_count,
    process_index,
    process_indices,
)
from jaxle_xla.array import XlaArray  # noqa: E402
from jaxle_xla.dispatch import XlaBackend  # noqa: E402

xla_backend = XlaBackend()
register_backend("xla", xla_backend, priority=100)

__all__ = ["Device", "JaxRuntimeError", "XlaArray", "XlaBackend", "default_backend", "device_count", "device_get",
           "device_put", "devices", "effects_barrier", "host_count", "host_id", "host_ids", "live_arrays",
           "local_device_count", "local_devices", "process_count", "process_index", "process_indices", "xla_backend"]
