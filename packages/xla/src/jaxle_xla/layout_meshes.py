"""The mesh that arrays of each jaxlib layout are named over, for jaxlib's C++ dispatch.

C++ dispatch keys a call by its arguments' jaxlib shardings, which name devices and tiles but no mesh: arrays laid
out alike over two meshes (other axis names or types, the same devices in the same order) would run each other's
cached entries, and their results would be reported over the other mesh. A layout seen named over two meshes is
ambiguous: jitted functions' C++ dispatch forgets the entries it has made, and makes none for arguments of that
layout (core's path names their results over their own mesh). A pmapped function's results are named over its own
mesh whatever its arguments': its entries stay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxle_xla import _jaxlib

__all__ = ["ambiguous", "forget_entries", "note"]

_noted: set[tuple[Any, int]] = set()  # (NamedSharding, rank) of the arrays already noted
_mesh_of: dict[tuple, Any] = {}  # a jaxlib layout's key -> the mesh arrays laid out so were first named over
_ambiguous: set[tuple] = set()  # the keys of layouts named over several meshes
# called when a layout becomes ambiguous: forgets the C++ dispatch entries of jitted functions (set by fast_jit)
forget_entries: Callable[[], None] = _jaxlib.clear_dispatch_caches


def note(jaxlib_sharding: Any, named: Any, ndim: int | None = None) -> None:
    """Note that arrays laid out by ``jaxlib_sharding`` are named by the NamedSharding ``named`` (for arrays of
    rank ``ndim``, noted once per NamedSharding and rank; None: a program's result layout, noted each time)."""
    if named is None:
        return
    if ndim is not None:
        if (named, ndim) in _noted:
            return
        _noted.add((named, ndim))
    key = _jaxlib.layout_key(jaxlib_sharding)
    if _mesh_of.setdefault(key, named.mesh) != named.mesh and key not in _ambiguous:
        _ambiguous.add(key)
        forget_entries()


def ambiguous(jaxlib_sharding: Any) -> bool:
    """Whether arrays laid out by ``jaxlib_sharding`` have been named over several meshes."""
    return bool(_ambiguous) and _jaxlib.layout_key(jaxlib_sharding) in _ambiguous
