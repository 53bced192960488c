"""``default_registry``: the node registry as one object, with the methods of JAX's ``PyTreeRegistry``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .dataclass_nodes import register_dataclass
from .flatten import _one_level, is_tree_node, tree_flatten, tree_flatten_with_path
from .registry import register_pytree_node
from .treedef import PyTreeDef

__all__ = ["PyTreeRegistry", "default_registry"]


class PyTreeRegistry:
    """Flattening and registration through the one registry jaxle has (``default_registry``)."""

    def flatten(self, tree: Any, leaf_predicate: Callable[[Any], bool] | None = None) -> tuple[list, PyTreeDef]:
        return tree_flatten(tree, is_leaf=leaf_predicate)

    def flatten_with_path(self, tree: Any, leaf_predicate: Callable[[Any, Any], bool] | None = None
                          ) -> tuple[list, PyTreeDef]:
        """``leaf_predicate(key_path, value)`` decides leaves."""
        return tree_flatten_with_path(tree, is_leaf=leaf_predicate, is_leaf_takes_path=True)

    def flatten_one_level(self, tree: Any) -> tuple[Any, Any] | None:
        """``(children, aux_data)`` of a node; None for a leaf."""
        return _one_level(tree, with_keys=False)

    def flatten_one_level_with_keys(self, tree: Any) -> tuple[Any, Any] | None:
        """``(key_child_pairs, aux_data)`` of a node; None for a leaf."""
        return _one_level(tree, with_keys=True)

    def is_node(self, type: type) -> bool:  # noqa: A002  (JAX's parameter name)
        return is_tree_node(type)

    def register_node(self, type: type, to_iterable: Callable, from_iterable: Callable,  # noqa: A002
                      to_iterable_with_keys: Callable | None = None) -> None:
        register_pytree_node(type, to_iterable, from_iterable, to_iterable_with_keys)

    def register_dataclass_node(self, type: type, data_fields: Sequence[str],  # noqa: A002
                                meta_fields: Sequence[str], /) -> None:
        register_dataclass(type, data_fields, meta_fields)


default_registry = PyTreeRegistry()
