"""Bounded caches, and ``clear_caches`` to empty them all at once.

Every cache that grows with the programs a user runs (traced jaxprs per jitted
function, compiled executables per signature, eagerly compiled primitives) is
an ``LruCache``: it holds at most ``capacity`` entries and forgets the least
recently used one first, so a long run that keeps producing new signatures
holds bounded memory. Each cache registers itself on creation, which lets
``clear_caches`` reach caches owned by objects it does not know about.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import Any

# JAX bounds its staging and compilation caches at 4096 entries; so do we.
DEFAULT_CAPACITY = 4096

_live_caches: weakref.WeakSet[LruCache] = weakref.WeakSet()


class LruCache:
    """A mapping of at most ``capacity`` entries that forgets the least recently used one first."""

    __slots__ = ("_entries", "capacity", "__weakref__")

    def __init__(self, capacity: int = DEFAULT_CAPACITY):
        self._entries: OrderedDict[Any, Any] = OrderedDict()
        self.capacity = capacity
        _live_caches.add(self)

    def lookup(self, key: Any) -> Any:
        """The value cached under ``key`` (None when absent), now the most recently used."""
        entries = self._entries
        try:
            entries.move_to_end(key)  # on the path of every jitted call: one lookup on a hit, in C
        except KeyError:
            return None
        return entries[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._entries[key] = value
        if len(self._entries) > self.capacity:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()


def clear_caches() -> None:
    """Empty every jaxle cache: traced jaxprs and compiled executables, of every jitted function and of eager calls."""
    for cache in list(_live_caches):
        cache.clear()
