"""``jax.ffi``: calling compiled kernels registered with XLA (the foreign function interface)."""

from jaxle_core.ffi import ffi_call
from jaxle_xla.ffi import (
    include_dir,
    pycapsule,
    register_ffi_target,
    register_ffi_target_as_batch_partitionable,
    register_ffi_type_id,
)

__all__ = ["ffi_call", "include_dir", "pycapsule", "register_ffi_target", "register_ffi_target_as_batch_partitionable",
           "register_ffi_type_id"]
