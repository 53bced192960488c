"""Arrays from and to bytes, strings, files and other libraries: frombuffer, fromstring, load/save/savez,
from_dlpack, and JAX's refusals of the impure fromiter/fromfile."""

from __future__ import annotations

import os
from typing import IO, Any

import ml_dtypes
import numpy as np

from jaxle_core import dtypes
from jaxle_core.array import Array, ReferenceArray
from jaxle_core.backend import current_backend
from jaxle_core.lax.structural import convert_element_type
from jaxle_numpy.creation import array, asarray

__all__ = ["frombuffer", "fromstring", "fromiter", "fromfile", "load", "save", "savez", "from_dlpack"]

# Writing arrays is NumPy's own: the file holds the array's values (JAX's functions are NumPy's too).
save = np.save
savez = np.savez


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0) -> Array:
    """The bytes of ``buffer`` read as a 1-D array of ``dtype`` (then canonicalised, as JAX does)."""
    return asarray(np.frombuffer(buffer, dtype, count, offset))


def fromstring(string: str, dtype: Any = float, count: int = -1, *, sep: str) -> Array:
    """The numbers written in ``string``, separated by ``sep``, as a 1-D array of ``dtype``."""
    return asarray(np.fromstring(string, dtype, count, sep=sep))


def _impure(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"jnp.{name}() is not implemented because it may be non-pure and thus unsafe for use with JIT and other JAX "
        f"transformations. Consider using jnp.asarray(np.{name}(...)) instead, although care should be taken if "
        f"np.{name} is used within a jax transformations because of its potential side-effect of consuming the "
        f"{'iterable' if name == 'fromiter' else 'file'} object; for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions")


def fromiter(*args: Any, **kwargs: Any) -> Array:
    """Refused, as in JAX: consuming an iterator is a side effect; use ``jnp.asarray(np.fromiter(...))``."""
    raise _impure("fromiter")


def fromfile(*args: Any, **kwargs: Any) -> Array:
    """Refused, as in JAX: reading a file is a side effect; use ``jnp.asarray(np.fromfile(...))``."""
    raise _impure("fromfile")


def load(file: IO[bytes] | str | os.PathLike[Any], *args: Any, **kwargs: Any) -> Any:
    """``np.load``, its array made a jnp array (``.npz`` archives and non-numeric arrays are returned as NumPy
    gives them). bfloat16 arrays, which NumPy writes as two-byte voids, are read back as bfloat16."""
    out = np.load(file, *args, **kwargs)
    if not isinstance(out, np.ndarray):
        return out
    if out.dtype == np.dtype("V2"):
        out = out.view(ml_dtypes.bfloat16)
    return array(out) if dtypes.is_valid_dtype(out.dtype) else out


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Array:
    """An array viewing the DLPack-exporting ``x`` (a NumPy array, a jnp array, ...)."""
    del device  # one device: placement is a no-op
    if isinstance(x, Array):
        return array(x, copy=bool(copy))
    if not (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")):
        raise TypeError("The array passed to from_dlpack must have __dlpack__ and __dlpack_device__ methods.")
    # As JAX, the buffer is imported with its own dtype (64 bits even without x64) and then made canonical: under a
    # trace the conversion is staged after the imported constant.
    imported = current_backend().device_put(ReferenceArray(np.from_dlpack(x)))
    return convert_element_type(imported, dtypes.canonicalize_dtype(imported.dtype))
