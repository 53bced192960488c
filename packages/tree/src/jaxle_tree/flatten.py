"""Flattening a pytree into leaves and a ``PyTreeDef``, with or without key paths."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import accelerator
from .keys import DictKey, FlattenedIndexKey, SequenceKey
from .registry import (
    CUSTOM,
    DICT,
    LEAF,
    LIST,
    NAMEDTUPLE,
    NONE,
    TUPLE,
    custom_nodes,
    kind_cache,
    kind_of,
    namedtuple_keys,
)
from .treedef import LEAF_NODE, LIST_NODES, NONE_NODE, TUPLE_NODES, PythonTreeDef, PyTreeDef

__all__ = ["flatten_one_level", "flatten_one_level_with_keys", "is_tree_node", "tree_flatten", "tree_flatten_with_path",
           "tree_leaves", "tree_leaves_with_path", "tree_structure"]

_UNSORTABLE = "Comparator raised exception while sorting pytree dictionary keys."


def _sorted_keys(mapping: dict) -> list:
    try:
        return sorted(mapping)
    except Exception:
        raise ValueError(_UNSORTABLE) from None


def _walk(x: Any, leaf: Callable, node: Callable, kinds=kind_cache, LEAF=LEAF) -> None:
    """Fast post-order walk without ``is_leaf``; leaf children are handled inline to save calls."""
    t = type(x)
    kind = kinds.get(t)
    if kind is None:
        kind = kind_of(t)
    if kind == TUPLE or kind == LIST:
        for child in x:
            if kinds.get(type(child)) == LEAF:
                leaf(child)
                node(LEAF_NODE)
            else:
                _walk(child, leaf, node)
        n = len(x)
        if n < 64:
            node(TUPLE_NODES[n] if kind == TUPLE else LIST_NODES[n])
        else:
            node((kind, n, None))
    elif kind == DICT:
        keys = _sorted_keys(x)
        for key in keys:
            child = x[key]
            if kinds.get(type(child)) == LEAF:
                leaf(child)
                node(LEAF_NODE)
            else:
                _walk(child, leaf, node)
        node((DICT, len(keys), tuple(keys)))
    elif kind == LEAF:
        leaf(x)
        node(LEAF_NODE)
    elif kind == NONE:
        node(NONE_NODE)
    elif kind == NAMEDTUPLE:
        for child in x:
            _walk(child, leaf, node)
        node((NAMEDTUPLE, len(x), t))
    else:
        registration = custom_nodes[t]
        children, aux = registration.children_of(x)
        count = 0
        for child in children:
            _walk(child, leaf, node)
            count += 1
        node((CUSTOM, count, (registration, aux)))


def _walk_general(x: Any, is_leaf: Callable | None, leaf: Callable, node: Callable, path: tuple | None) -> None:
    """Post-order walk honouring ``is_leaf``; records key paths when ``path`` is not None.

    ``is_leaf`` receives ``(path, x)`` when walking with paths and ``is_leaf_takes_path`` was
    requested; the caller wraps it so that here it always takes ``(path, x)``.
    """
    if is_leaf is not None:
        stop = is_leaf(path, x)
        if stop is True:
            leaf((path, x))
            node(LEAF_NODE)
            return
        if stop is not False and stop is not None:
            raise ValueError(f"is_leaf predicate returned a non-boolean value {stop!r}; expected a boolean")
    t = type(x)
    kind = kind_of(t)
    if kind == LEAF:
        leaf((path, x))
        node(LEAF_NODE)
        return
    if kind == NONE:
        node(NONE_NODE)
        return
    if kind == TUPLE or kind == LIST:
        keyed = [(SequenceKey(i), child) for i, child in enumerate(x)] if path is not None else [(None, c) for c in x]
        record = (kind, len(x), None)
    elif kind == DICT:
        keys = _sorted_keys(x)
        keyed = [(DictKey(k), x[k]) for k in keys]
        record = (DICT, len(keys), tuple(keys))
    elif kind == NAMEDTUPLE:
        keyed = namedtuple_keys(x)
        record = (NAMEDTUPLE, len(x), t)
    else:
        registration = custom_nodes[t]
        if path is not None and registration.flatten_with_keys is not None:
            keyed, aux = registration.keyed_children_of(x)
        else:
            children, aux = registration.children_of(x)
            keyed = [(FlattenedIndexKey(i), child) for i, child in enumerate(children)]
        record = (CUSTOM, len(keyed), (registration, aux))
    for key, child in keyed:
        _walk_general(child, is_leaf, leaf, node, None if path is None else (*path, key))
    node(record)


def _flatten_general(tree: Any, is_leaf: Callable | None, with_path: bool) -> tuple[list, PyTreeDef]:
    registry = accelerator.active
    if registry is not None and with_path:
        # jaxlib's key classes are jaxle's key classes here (see keys.py), so its key paths are returned as they are.
        return registry.flatten_with_path(tree, is_leaf)
    pairs: list = []
    nodes: list = []
    _walk_general(tree, is_leaf, pairs.append, nodes.append, () if with_path else None)
    return pairs, PythonTreeDef(tuple(nodes), len(pairs))


def tree_flatten(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> tuple[list, PyTreeDef]:
    """Flatten ``tree`` into ``(leaves, treedef)``; ``is_leaf(x)`` returning True stops descent at ``x``."""
    registry = accelerator.active
    if registry is not None:  # jaxlib's leaves and treedef, as JAX hands them out
        return registry.flatten(tree, is_leaf)
    if is_leaf is None:
        leaves: list = []
        nodes: list = []
        _walk(tree, leaves.append, nodes.append)
        return leaves, PythonTreeDef(tuple(nodes), len(leaves))
    pairs, treedef = _flatten_general(tree, lambda _, x: is_leaf(x), False)
    return [x for _, x in pairs], treedef


def tree_leaves(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> list:
    """The leaves of ``tree``, in flattening order."""
    registry = accelerator.active
    if registry is not None:
        return registry.flatten(tree, is_leaf)[0]
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> PyTreeDef:
    """The ``PyTreeDef`` of ``tree``."""
    return tree_flatten(tree, is_leaf)[1]


def _path_is_leaf(is_leaf: Callable | None, takes_path: bool) -> Callable | None:
    if is_leaf is None:
        return None
    if takes_path:
        return is_leaf
    return lambda _, x: is_leaf(x)


def tree_flatten_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[tuple, Any]], PyTreeDef]:
    """Like ``tree_flatten``, but each leaf comes as ``(key_path, leaf)``."""
    return _flatten_general(tree, _path_is_leaf(is_leaf, is_leaf_takes_path), True)


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[tuple, Any]]:
    """``(key_path, leaf)`` for every leaf of ``tree``."""
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def _one_level(tree: Any, with_keys: bool) -> tuple[Any, Any] | None:
    """The children of the node ``tree`` (as ``(key, child)`` pairs ``with_keys``) and its auxiliary data, in the
    containers JAX gives them in; None for a leaf."""
    kind = kind_of(type(tree))
    if kind == LEAF:
        return None
    if kind == NONE:
        return (), None
    if kind in (TUPLE, LIST):
        if with_keys:
            return tuple((SequenceKey(i), child) for i, child in enumerate(tree)), None
        return (tuple(tree) if kind == TUPLE else list(tree)), None
    if kind == DICT:
        keys = _sorted_keys(tree)
        children = tuple((DictKey(k), tree[k]) for k in keys) if with_keys else tuple(tree[k] for k in keys)
        return children, tuple(keys)
    if kind == NAMEDTUPLE:
        return (namedtuple_keys(tree) if with_keys else list(tree)), type(tree)
    registration = custom_nodes[type(tree)]
    if with_keys and registration.flatten_with_keys is not None:
        return registration.keyed_children_of(tree)
    children, aux = registration.children_of(tree)
    if with_keys:
        return [(FlattenedIndexKey(i), child) for i, child in enumerate(children)], aux
    return children, aux


def flatten_one_level(tree: Any) -> tuple[Any, Any]:
    """``(children, aux_data)`` of the pytree node ``tree``; a leaf raises ValueError."""
    result = _one_level(tree, with_keys=False)
    if result is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return result


def flatten_one_level_with_keys(tree: Any) -> tuple[Any, Any]:
    """``(key_child_pairs, aux_data)`` of the pytree node ``tree``; a leaf raises ValueError."""
    result = _one_level(tree, with_keys=True)
    if result is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return result


def is_tree_node(typ: type) -> bool:
    """Whether values of type ``typ`` are pytree nodes (built-in containers, namedtuples, registered types)."""
    return kind_of(typ) != LEAF
