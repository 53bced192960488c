"""Readable explanations of where two pytrees have different structures (a compiled function called with
arguments of another structure than it was compiled for)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .keys import KeyPath
from .prefix_errors import node_metadata, one_level
from .registry import LEAF, kind_of


def _describe(tree: Any) -> str:
    return "pytree leaf" if kind_of(type(tree)) == LEAF else str(type(tree))


def _children(n: int) -> str:
    return f"{n} {'child' if n < 2 else 'children'}"


def _key_name(key: Any) -> Any:
    return getattr(key, "key", getattr(key, "idx", getattr(key, "name", key)))


def equality_errors(seen: Any, given: Any, key_path: KeyPath = ()) -> Iterator[tuple[KeyPath, str]]:
    """``(key path, reason)`` for each place where ``given``'s structure differs from ``seen``'s (leaves of any
    type are equal), outermost first; children are compared only where their parents agree."""
    seen_leaf, given_leaf = kind_of(type(seen)) == LEAF, kind_of(type(given)) == LEAF
    if seen_leaf and given_leaf:
        return
    if seen_leaf or given_leaf or type(seen) is not type(given):
        yield key_path, f"seen {_describe(seen)} but now given {_describe(given)}, so their Python types differ"
        return
    seen_keys, seen_children, seen_data = one_level(seen)
    given_keys, given_children, given_data = one_level(given)
    if isinstance(seen, (list, tuple)) and len(seen_children) != len(given_children):
        kind = type(seen).__name__
        yield key_path, (f"seen {kind} of length {len(seen_children)} but now given {kind} of length "
                         f"{len(given_children)}, so the lengths do not match")
        return
    if len(seen_children) != len(given_children):
        difference = " ".join(repr(_key_name(k)) for k in set(seen_keys) ^ set(given_keys))
        yield key_path, (f"seen {type(seen)} with {_children(len(seen_children))} but now given {type(given)} with "
                         f"{_children(len(given_children))}, so the numbers of children do not match, with the "
                         f"symmetric difference of key sets: {{{difference}}}")
        return
    if node_metadata(seen, seen_data) != node_metadata(given, given_data):
        yield key_path, (f"seen {type(seen)} with pytree metadata {node_metadata(seen, seen_data)} but now given "
                         f"{type(given)} with pytree metadata {node_metadata(given, given_data)}, so the pytree node "
                         "metadata does not match")
        return
    for key, seen_child, given_child in zip(seen_keys, seen_children, given_children):
        yield from equality_errors(seen_child, given_child, (*key_path, key))
