"""Operations over whole pytrees: map, reduce, transpose, broadcast and treedef helpers."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from . import accelerator
from .flatten import tree_flatten, tree_flatten_with_path, tree_structure
from .prefix_errors import prefix_errors
from .registry import LEAF, TUPLE, kind_of
from .treedef import PythonTreeDef, PyTreeDef, compose, jaxlib_treedef, records

__all__ = [
    "all_leaves",
    "tree_all",
    "tree_broadcast",
    "tree_map",
    "tree_map_with_path",
    "tree_reduce",
    "tree_reduce_associative",
    "tree_transpose",
    "tree_unflatten",
    "treedef_children",
    "treedef_is_leaf",
    "treedef_tuple",
]


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuild a pytree of structure ``treedef`` from ``leaves``."""
    return treedef.unflatten(leaves)


def _leaves_up_to(treedef: PyTreeDef, tree: Any, other: Any, is_leaf: Callable | None, name: str) -> list:
    """Leaves of ``other`` cut at the leaves of ``treedef`` (the structure of ``tree``)."""
    if type(treedef) is PythonTreeDef:
        # In Python, flattening ``other`` whole and comparing structures beats walking it against ``treedef``.
        try:
            leaves, other_def = tree_flatten(other)
            if other_def == treedef:
                return leaves
        except Exception:
            pass
    try:
        return treedef.flatten_up_to(other)
    except Exception as error:
        _raise_prefix_error(error, tree, other, is_leaf, name)


def _raise_prefix_error(error: Exception, tree: Any, other: Any, is_leaf: Callable | None, name: str) -> None:
    """Raise the readable explanation of why ``tree`` is not a prefix of ``other`` (``error`` when none is found)."""
    make = next(prefix_errors((), tree, other, is_leaf), None)
    if make is None:
        raise error
    raise make(name) from error.__cause__


def tree_map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Apply ``f`` leafwise; ``tree`` must be a prefix of every tree in ``rest``."""
    registry = accelerator.active
    if registry is not None:  # jaxlib's treedef, without a Python frame per extra tree
        leaves, jaxlib_def = registry.flatten(tree, is_leaf)
        if not rest:
            return jaxlib_def.unflatten([f(x) for x in leaves])
        columns = [leaves]
        for other in rest:
            try:
                columns.append(jaxlib_def.flatten_up_to(other))
            except Exception as error:
                _raise_prefix_error(error, tree, other, is_leaf, "tree_map tree")
        return jaxlib_def.unflatten([f(*xs) for xs in zip(*columns)])
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return treedef.unflatten([f(x) for x in leaves])
    columns = [leaves] + [_leaves_up_to(treedef, tree, r, is_leaf, "tree_map tree") for r in rest]
    return treedef.unflatten([f(*xs) for xs in zip(*columns)])


def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like ``tree_map``, but ``f`` receives the key path of each leaf first."""
    pairs, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    columns = [[p for p, _ in pairs], [x for _, x in pairs]]
    plain_is_leaf = None if is_leaf is None or is_leaf_takes_path else is_leaf
    columns += [_leaves_up_to(treedef, tree, r, plain_is_leaf, "tree_map_with_path tree") for r in rest]
    return treedef.unflatten([f(*xs) for xs in zip(*columns)])


class _Missing:
    def __repr__(self) -> str:
        return "<unspecified>"


_MISSING: Any = _Missing()


def tree_reduce(
    function: Callable[[Any, Any], Any],
    tree: Any,
    initializer: Any = _MISSING,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """``functools.reduce`` over the leaves of ``tree``."""
    leaves = tree_flatten(tree, is_leaf)[0]
    if initializer is _MISSING:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_reduce_associative(
    operation: Callable[[Any, Any], Any],
    tree: Any,
    *,
    identity: Any = _MISSING,
    is_leaf: Callable[[Any], bool] | None = None,
) -> Any:
    """Reduce the leaves pairwise, as a balanced tree; ``operation`` must be associative."""
    leaves = tree_flatten(tree, is_leaf)[0]
    if not leaves:
        if identity is _MISSING:
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    while len(leaves) > 1:
        paired = [operation(a, b) for a, b in zip(leaves[::2], leaves[1::2])]
        if len(leaves) % 2:
            paired.append(leaves[-1])
        leaves = paired
    return leaves[0]


def tree_all(tree: Any, *, is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """True when every leaf is truthy."""
    return all(tree_flatten(tree, is_leaf)[0])


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any) -> Any:
    """Turn an outer-structure tree of inner-structure trees into an inner tree of outer trees."""
    leaves, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0])
    inner_size, outer_size = inner_treedef.num_leaves, outer_treedef.num_leaves
    if treedef.num_leaves != inner_size * outer_size:
        raise TypeError(f"Mismatch\n{treedef}\n != \n{compose(outer_treedef, inner_treedef)}")
    rows = [leaves[i * inner_size : (i + 1) * inner_size] for i in range(outer_size)]
    columns = [outer_treedef.unflatten([row[j] for row in rows]) for j in range(inner_size)]
    return inner_treedef.unflatten(columns)


def tree_broadcast(prefix_tree: Any, full_tree: Any, is_leaf: Callable[[Any], bool] | None = None) -> Any:
    """Repeat each leaf of ``prefix_tree`` over the matching subtree of ``full_tree``."""
    prefix_leaves, prefix_def = tree_flatten(prefix_tree, is_leaf)
    try:
        subtrees = prefix_def.flatten_up_to(full_tree)
    except ValueError as error:
        make = next(prefix_errors((), prefix_tree, full_tree, is_leaf), None)
        if make is None:
            raise
        raise make("broadcast_prefix prefix_tree") from error.__cause__
    leaves: list = []
    for leaf, subtree in zip(prefix_leaves, subtrees):
        leaves.extend([leaf] * tree_structure(subtree).num_leaves)
    return tree_structure(full_tree).unflatten(leaves)


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The treedef of a tuple whose children have the given treedefs."""
    treedefs = list(treedefs)
    if accelerator.active is not None:
        return accelerator.pytree.treedef_tuple(accelerator.active, [jaxlib_treedef(t) for t in treedefs])
    nodes: list = []
    for treedef in treedefs:
        nodes.extend(records(treedef))
    nodes.append((TUPLE, len(treedefs), None))
    return PythonTreeDef(tuple(nodes), sum(t.num_leaves for t in treedefs))


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """Treedefs of the root's children."""
    return treedef.children()


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """True for a treedef of a single node (a leaf, None, or an empty container)."""
    return treedef.num_nodes == 1


def all_leaves(iterable: Iterable[Any], is_leaf: Callable[[Any], bool] | None = None) -> bool:
    """True when no item of ``iterable`` is a pytree node (None counts as a node)."""
    if is_leaf is None:
        return all(kind_of(type(item)) == LEAF for item in iterable)
    items = list(iterable)
    leaves = tree_flatten(items, is_leaf)[0]
    return len(leaves) == len(items) and all(item is leaf for item, leaf in zip(items, leaves))
