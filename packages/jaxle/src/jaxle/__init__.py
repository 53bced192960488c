"""jaxle: JAX's public API over jaxle's layers. ``import jaxle as jax``; importing it makes XLA the backend."""

__version__ = "0.1.0"

import jaxle_xla  # noqa: E402, F401  (importing the bridge registers XLA as the default backend)
from jaxle import lax, numpy, random, scipy, tree_util  # noqa: E402, F401
from jaxle_core import *  # noqa: E402, F403
from jaxle_xla import (  # noqa: E402, F401
    default_backend,
    device_count,
    device_get,
    device_put,
    devices,
    local_device_count,
    local_devices,
    process_count,
    process_index,
)
