"""Warnings given while a function JAX jits is traced come once per traced signature.

JAX traces a jitted function once per signature, and its eager and traced calls share that trace: a warning given
while tracing it (a 64-bit dtype asked for with x64 off, a complex value made real) comes on the first call of a
signature alone, eager or inside another ``jit``. jaxle runs some of those functions without tracing them under a
transformation (jnp functions compiled only when eager): each such run, and each trace of their compiled form,
happens inside a ``Scope`` naming the function's signature, and ``warn`` lets the warnings of a scope through only
when that signature has not warned before. A trace of any other jitted function opens a neutral scope: its own trace
cache already gives its warnings once.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any


class Scope:
    """A run of a function whose warnings come once per signature, called with ``args`` and ``kwargs``: its
    ``owner`` holds the signatures that warned (``warned``) and gives a call's (``warning_signature``; None when
    it has none that could repeat)."""

    __slots__ = ("owner", "args", "kwargs", "emits")

    def __init__(self, owner: Any, args: tuple, kwargs: dict):
        self.owner, self.args, self.kwargs = owner, args, kwargs
        self.emits: bool | None = None  # decided at the run's first warning

    def lets_through(self) -> bool:
        if self.emits is None:
            key = self.owner.warning_signature(self.args, self.kwargs)
            warned = self.owner.warned
            self.emits = key is None or key not in warned
            if key is not None:
                warned.add(key)
        return self.emits


class _Current(threading.local):
    scope: Scope | None = None


_current = _Current()


def enter(scope: Scope | None) -> Scope | None:
    """Make ``scope`` (None: a neutral one) current; returns the scope to restore with ``leave``."""
    previous = _current.scope
    _current.scope = scope
    return previous


def leave(previous: Scope | None) -> None:
    _current.scope = previous


def warn(message: str, category: type[Warning] = UserWarning, stacklevel: int = 1) -> None:
    """``warnings.warn`` (``stacklevel`` counted from the caller), unless the current scope's signature warned
    before."""
    scope = _current.scope
    if scope is not None and not scope.lets_through():
        return
    warnings.warn(message, category, stacklevel=stacklevel + 1)


def run_in(scope: Scope | None, fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fun(*args, **kwargs)`` inside ``scope``."""
    previous = enter(scope)
    try:
        return fun(*args, **kwargs)
    finally:
        leave(previous)
