"""Readable explanations of why one pytree is not a prefix of another."""

from __future__ import annotations

import difflib
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from .flatten import _flatten_general
from .keys import keystr
from .registry import LEAF, NONE, kind_of

ErrorMaker = Callable[[str], ValueError]


def one_level(tree: Any) -> tuple[list, list, Any]:
    """Keys, children and node data of a non-leaf node."""
    pairs, treedef = _flatten_general(tree, lambda path, _: len(path) == 1, True)
    keys = [path[0] for path, _ in pairs]
    children = [child for _, child in pairs]
    data = treedef.node_data()
    return keys, children, data[1] if data else None


def _is_strict_leaf(tree: Any, is_leaf: Callable | None) -> bool:
    if is_leaf is not None and is_leaf(tree):
        return True
    return kind_of(type(tree)) == LEAF


def prefix_errors(
    key_path: tuple, prefix_tree: Any, full_tree: Any, is_leaf: Callable | None = None
) -> Iterator[ErrorMaker]:
    """Yield one error factory per place where ``prefix_tree`` fails to be a prefix of ``full_tree``."""
    if _is_strict_leaf(prefix_tree, is_leaf):
        return
    where = keystr(key_path)
    if type(prefix_tree) is not type(full_tree):
        yield lambda name: ValueError(
            "pytree structure error: different types at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {type(prefix_tree)}\n"
            "but at the same key path the full pytree has a subtree of different type\n"
            f"    {type(full_tree)}."
        )
        return
    if kind_of(type(prefix_tree)) == NONE:
        return
    prefix_keys, prefix_children, prefix_data = one_level(prefix_tree)
    full_keys, full_children, full_data = one_level(full_tree)
    if isinstance(prefix_tree, (list, tuple)) and len(prefix_tree) != len(full_tree):
        kind = type(prefix_tree).__name__
        yield lambda name: ValueError(
            f"pytree structure error: different lengths of {kind} at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type {kind} of length "
            f"{len(prefix_tree)}, but the full pytree has a subtree of the same type but of length {len(full_tree)}."
        )
        return
    if not isinstance(prefix_tree, (list, tuple)) and len(prefix_children) != len(full_children):
        try:
            difference = " ".join(str(k.key) for k in set(prefix_keys) ^ set(full_keys))
            difference_text = f"so the symmetric difference on key sets is\n    {difference}"
        except Exception:
            difference_text = ""
        yield lambda name: ValueError(
            "pytree structure error: different numbers of pytree children at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {type(prefix_tree)}\n"
            f"with {len(prefix_children)} child keys\n"
            f"    {' '.join(str(getattr(k, 'key', k)) for k in prefix_keys)}\n"
            "but at the same key path the full pytree has a subtree of the same type but with "
            f"{len(full_children)} child keys\n"
            f"    {' '.join(str(getattr(k, 'key', k)) for k in full_keys)}\n" + difference_text
        )
        return
    if node_metadata(prefix_tree, prefix_data) != node_metadata(full_tree, full_data):
        prefix_text = str(node_metadata(prefix_tree, prefix_data))
        full_text = str(node_metadata(full_tree, full_data))
        diff = textwrap.indent("\n".join(difflib.ndiff(prefix_text.splitlines(), full_text.splitlines())), "    ")
        yield lambda name: ValueError(
            "pytree structure error: different pytree metadata at key path\n"
            f"    {name}{where}\n"
            f"At that key path, the prefix pytree {name} has a subtree of type\n"
            f"    {type(prefix_tree)}\n"
            "with metadata\n"
            f"    {prefix_text}\n"
            "but at the same key path the full pytree has a subtree of the same type but with metadata\n"
            f"    {full_text}\n"
            "so the diff in the metadata at these pytree nodes is\n"
            f"{diff}"
        )
        return
    for key, prefix_child, full_child in zip(prefix_keys, prefix_children, full_children):
        yield from prefix_errors((*key_path, key), prefix_child, full_child, is_leaf)


def node_metadata(tree: Any, data: Any) -> Any:
    """A node's metadata as error messages show it (a dict's is the tuple of its sorted keys)."""
    if type(tree) is dict:
        return tuple(data)
    return data
