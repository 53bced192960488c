"""``jax.interpreters.xla``: running one primitive on its own (``apply_primitive``) and the type of jaxlib's
clients (``Backend``)."""

from __future__ import annotations

from typing import Any

from jaxle_core import jit
from jaxle_xla._jaxlib import xc

__all__ = ["Backend", "apply_primitive"]

Backend = xc.Client


def apply_primitive(prim: Any, *args: Any, **params: Any) -> Any:
    """``prim`` bound to ``args`` with ``params``, compiled and run on its own as a call named after the primitive
    (staged as that call under a trace)."""
    def run(*operands: Any) -> Any:
        return prim.bind(*operands, **params)

    run.__name__ = run.__qualname__ = prim.name
    return jit(run)(*args)
