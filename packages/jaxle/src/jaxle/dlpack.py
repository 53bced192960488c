"""``jax.dlpack``: exchanging arrays with other libraries through the DLPack protocol."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

import jaxle_numpy
import jaxle_xla
from jaxle_core.array import Array

__all__ = ["from_dlpack", "is_supported_dtype"]

# The dtypes DLPack can describe (it has no codes for 4-bit or 8-bit floating point types).
_SUPPORTED_DTYPES = frozenset(np.dtype(t) for t in (
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
    np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128))


def from_dlpack(external_array: Any, device: Any = None, copy: bool | None = None) -> Array:
    """An Array from any object with ``__dlpack__`` and ``__dlpack_device__`` (on ``device`` when given)."""
    array = jaxle_numpy.from_dlpack(external_array, copy=copy)
    return array if device is None else jaxle_xla.device_put(array, device)


def is_supported_dtype(dtype: Any) -> bool:
    """Whether arrays of ``dtype`` can be exchanged through DLPack."""
    return np.dtype(dtype) in _SUPPORTED_DTYPES
