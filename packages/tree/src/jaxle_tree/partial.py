"""``Partial``: a ``functools.partial`` whose bound arguments are pytree leaves."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .registry import register_pytree_node

__all__ = ["Partial"]


class _HashableCallableShim:
    """Holds a nested partial as static data, so only the outer arguments become children."""

    def __init__(self, fun: Callable) -> None:
        self.fun = fun

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fun(*args, **kwargs)

    def __hash__(self) -> int:
        return hash(self.fun)

    def __eq__(self, other: object) -> bool:
        target = other.fun if isinstance(other, _HashableCallableShim) else other
        return self.fun == target

    def __repr__(self) -> str:
        return f"_HashableCallableShim({self.fun!r})"


class Partial(functools.partial):
    """``functools.partial`` that is a pytree: ``args`` and ``keywords`` are children, ``func`` is static.

    >>> tree_leaves(Partial(max, 1, key=2))
    [1, 2]
    """

    def __new__(cls, func: Callable, *args: Any, **kwargs: Any) -> Partial:
        # functools.partial would merge a nested partial's arguments into this one;
        # wrapping keeps the inner partial (and its arguments) static instead.
        if isinstance(func, functools.partial):
            func = _HashableCallableShim(func)
        return super().__new__(cls, func, *args, **kwargs)


Partial.__module__ = "jaxle_tree"


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, children: Partial(func, *children[0], **children[1]),
)
