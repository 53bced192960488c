"""``Partial``: a ``functools.partial`` whose bound arguments are pytree leaves."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from .registry import register_pytree_node

__all__ = ["Partial"]


class _StaticCallable:
    """A callable kept whole as ``Partial``'s static ``func``.

    ``functools.partial`` flattens a partial given as ``func`` into the new one, which would turn the inner
    partial's arguments into children of the outer ``Partial``. Hidden behind this wrapper they stay static;
    the wrapper compares and hashes as the callable it holds, so tree definitions still match.
    """

    __slots__ = ("target",)

    def __init__(self, target: Callable) -> None:
        self.target = target

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.target(*args, **kwargs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _StaticCallable):
            other = other.target
        return self.target == other

    def __hash__(self) -> int:
        return hash(self.target)

    def __repr__(self) -> str:
        # Printed inside tree definitions, where JAX shows its own wrapper's name.
        return f"_HashableCallableShim({self.target!r})"


class Partial(functools.partial):
    """``functools.partial`` that is a pytree: ``args`` and ``keywords`` are children, ``func`` is static.

    >>> tree_leaves(Partial(max, 1, key=2))
    [1, 2]
    """

    def __new__(cls, func: Callable, *args: Any, **kwargs: Any) -> Partial:
        if isinstance(func, functools.partial):
            func = _StaticCallable(func)
        return super().__new__(cls, func, *args, **kwargs)


Partial.__module__ = "jaxle_tree"


register_pytree_node(
    Partial,
    lambda p: ((p.args, p.keywords), p.func),
    lambda func, children: Partial(func, *children[0], **children[1]),
)
