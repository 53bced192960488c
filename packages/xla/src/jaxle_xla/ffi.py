"""Registering compiled kernels with XLA, to be called by name with ``jaxle_core.ffi.ffi_call``."""

from __future__ import annotations

import ctypes
from typing import Any

from jaxle_xla import _jaxlib

__all__ = ["include_dir", "pycapsule", "register_ffi_target", "register_ffi_target_as_batch_partitionable",
           "register_ffi_type_id"]


def register_ffi_target(name: str, fn: Any, platform: str = "cpu", api_version: int = 1, **kwargs: Any) -> None:
    """Register the kernel ``fn`` (a PyCapsule, or a dict of capsules for a handler's stages) as the custom-call
    target ``name`` on ``platform``; ``api_version`` 1 is the typed FFI, 0 the untyped custom-call API."""
    _jaxlib.register_custom_call_target(name, fn, platform, api_version, **kwargs)


def register_ffi_type_id(name: str, obj: Any, platform: str = "cpu") -> None:
    """Register the type id ``obj`` (a PyCapsule) of a user type that typed-FFI kernels take, under ``name``."""
    _jaxlib.register_custom_type(name, obj, platform)


def register_ffi_target_as_batch_partitionable(name: str) -> None:
    """Declare that the target ``name`` may be split along its leading (batch) dimension when partitioned."""
    _jaxlib.register_custom_call_as_batch_partitionable(name)


def pycapsule(funcptr: Any) -> Any:
    """A PyCapsule wrapping the function pointer ``funcptr`` (a ctypes function, such as a symbol of a library
    loaded with ``ctypes.cdll``), as ``register_ffi_target`` takes kernels."""
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
    return new_capsule(ctypes.cast(funcptr, ctypes.c_void_p).value, None, None)


def include_dir() -> str:
    """The directory of the C++ headers for writing FFI kernels (``xla/ffi/api/ffi.h``)."""
    return _jaxlib.include_dir()
