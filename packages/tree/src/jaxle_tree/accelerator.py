"""The optional C++ accelerator: jaxlib's pytree registry, kept in step with every jaxle registration.

jaxle_tree needs no compiled code. When ``jaxlib`` can be imported (and the environment variable
``JAXLE_TREE_PURE`` is not set to ``1``), flattening, rebuilding and matching structures run in jaxlib's
C++ ``PyTreeRegistry`` instead of Python; results, registrations and errors are the same on both paths.
Every registration is made in both registries whatever path is in use, so the path can change at any time.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["dispatch_registry", "jaxlib_registry", "mirror", "pytree", "register_dispatch_node", "use_jaxlib",
           "uses_jaxlib"]


def _load_pytree_module() -> Any:
    if os.environ.get("JAXLE_TREE_PURE") == "1":
        return None
    # jaxlib reads its C++ log level once, when it loads, which may be here: like JAX, keep warnings and errors
    # and drop INFO lines (client start-up, device counts), unless the user chose a level.
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
    try:
        from jaxlib._jax import pytree
    except ImportError:
        return None
    return pytree


pytree: Any = _load_pytree_module()
"""jaxlib's C++ pytree module, or None where jaxlib is absent or refused."""

mirror: Any = None if pytree is None else pytree.PyTreeRegistry()
"""jaxlib's ``PyTreeRegistry`` holding every jaxle registration, or None where jaxlib is absent or refused."""

dispatch_mirror: Any = None if pytree is None else pytree.PyTreeRegistry()
"""A second jaxlib registry for jaxlib's C++ jit dispatch: every jaxle registration, and the types registered with
``register_dispatch_node`` that pytrees treat as leaves (None where jaxlib is absent or refused)."""

active: Any = mirror
"""The registry flattening goes through: ``mirror`` on the accelerated path, None on the pure-Python path."""


def jaxlib_registry() -> Any:
    """jaxlib's ``PyTreeRegistry`` mirroring jaxle's registrations (for jaxlib's C++ callers), or None."""
    return mirror


def dispatch_registry() -> Any:
    """jaxlib's ``PyTreeRegistry`` for C++ jit dispatch (``dispatch_mirror``), or None."""
    return dispatch_mirror


def register_dispatch_node(nodetype: type, flatten: Any, unflatten: Any) -> None:
    """Make ``nodetype`` a node for jaxlib's C++ jit dispatch only (its instances stay leaves of every pytree):
    C++ keys and passes the children ``flatten`` gives, as JAX's dispatch does with arrays of keys. A no-op
    without jaxlib."""
    if dispatch_mirror is not None:
        dispatch_mirror.register_node(nodetype, flatten, unflatten)


def uses_jaxlib() -> bool:
    """Whether pytree operations currently run in jaxlib's C++ registry."""
    return active is not None


def use_jaxlib(enabled: bool) -> None:
    """Choose the path for treedefs made from now on: jaxlib's C++ (where available) or pure Python.

    Treedefs made on the two paths compare equal when their structures are, but hash differently.
    """
    global active
    if enabled and mirror is None:
        raise RuntimeError("jaxlib's pytree registry is not available (jaxlib missing or JAXLE_TREE_PURE=1).")
    active = mirror if enabled else None
