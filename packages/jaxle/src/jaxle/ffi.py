"""``jax.ffi``: calling compiled kernels registered with XLA (the foreign function interface)."""

from jaxle_core.ffi import ffi_call
from jaxle_xla.ffi import (
    include_dir,
    pycapsule,
    register_ffi_target,
    register_ffi_target_as_batch_partitionable,
    register_ffi_type_id,
)
from jaxle_xla.ffi_lowering import build_ffi_lowering_function, ffi_lowering, register_ffi_type

__all__ = ["build_ffi_lowering_function", "ffi_call", "ffi_lowering", "include_dir", "pycapsule",
           "register_ffi_target", "register_ffi_target_as_batch_partitionable", "register_ffi_type",
           "register_ffi_type_id"]
