"""jaxle-xla: the XLA backend bridge (lowering to StableHLO, compilation, the device Array, devices).

Importing this package registers XLA as jaxle-core's default backend and MLIR's own refusal of a size below zero
(jaxlib's ``MLIRError``) as the reference backend's.
"""

__version__ = "0.1.0"

from jaxle_core import backend as core_backend  # noqa: E402
from jaxle_core.backend import register_backend  # noqa: E402
from jaxle_xla import api, fast_jit  # noqa: E402, F401  (fast_jit: jitted calls through jaxlib's C++ dispatch)
from jaxle_xla._jaxlib import XlaRuntimeError as JaxRuntimeError  # noqa: E402
from jaxle_xla._jaxlib import refuse_tensor_type  # noqa: E402
from jaxle_xla.api import *  # noqa: E402, F403  (the devices and transfers, listed once in api.__all__)
from jaxle_xla.array import XlaArray  # noqa: E402
from jaxle_xla.dispatch import XlaBackend  # noqa: E402

xla_backend = XlaBackend()
register_backend("xla", xla_backend, priority=100)
core_backend.refuse_tensor_type = refuse_tensor_type

__all__ = [*api.__all__, "JaxRuntimeError", "XlaArray", "XlaBackend", "xla_backend"]
