"""Compatibility shim for ``jax._src.traceback_util`` (see ``jaxle._src``): the files whose frames a library
leaves out of the tracebacks it shows its users (equinox registers its own and asks about each frame).

jaxle does not filter tracebacks itself; these functions only answer the libraries that do.
"""

from __future__ import annotations

import importlib
import os
import types

__all__ = ["include_frame", "register_exclusion"]

# jaxle's own packages: their frames are internals to a user, as JAX's are.
_excluded: list[str] = [os.path.dirname(importlib.import_module(name).__file__)
                        for name in ("jaxle", "jaxle_core", "jaxle_numpy", "jaxle_random", "jaxle_tree", "jaxle_xla")]


def register_exclusion(path: str) -> None:
    """Leave frames of the file or folder ``path`` out of the tracebacks users see."""
    _excluded.append(path)


def include_frame(frame: types.FrameType) -> bool:
    """Whether ``frame`` is the user's (its file is neither registered nor in jaxle)."""
    return not frame.f_code.co_filename.startswith(tuple(_excluded))
