"""``jax.interpreters.xla``: running one primitive on its own (``apply_primitive``), the type of jaxlib's
clients (``Backend``) and the handlers that give a Python or NumPy value its canonical dtype."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, jit
from jaxle_xla._jaxlib import xc

__all__ = ["Backend", "apply_primitive", "canonicalize_dtype_handlers"]

Backend = xc.Client


def _canonical_array(value: Any) -> np.ndarray:
    """``value`` as a NumPy array of its canonical dtype (64-bit types narrowed unless x64 is on)."""
    return np.asarray(value, dtypes.canonicalize_dtype(np.result_type(value)))


# type -> handler: Python scalars, NumPy arrays and NumPy scalars
canonicalize_dtype_handlers: dict[type, Any] = dict.fromkeys(
    [int, float, complex, bool, np.ndarray, *(np.dtype(code).type for code in "?bhilqBHILQefdgFDG")],
    _canonical_array)


def apply_primitive(prim: Any, *args: Any, **params: Any) -> Any:
    """``prim`` bound to ``args`` with ``params``, compiled and run on its own as a call named after the primitive
    (staged as that call under a trace)."""
    def run(*operands: Any) -> Any:
        return prim.bind(*operands, **params)

    run.__name__ = run.__qualname__ = prim.name
    return jit(run)(*args)
