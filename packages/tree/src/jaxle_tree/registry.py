"""The pytree node registry: which Python types are nodes, and how to take them apart."""

from __future__ import annotations

from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from . import accelerator
from .accelerator import jaxlib_registry
from .keys import DictKey, GetAttrKey

__all__ = [
    "jaxlib_registry",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "register_pytree_with_keys_class",
    "register_static",
]

T = TypeVar("T")

# Node kinds. Built-in containers get their own kind so that flattening can
# dispatch on a small int instead of calling user functions.
LEAF, NONE, TUPLE, LIST, DICT, NAMEDTUPLE, CUSTOM = range(7)


@dataclass(slots=True, eq=False)
class NodeRegistration:
    """How one user-registered type flattens (with or without keys) and rebuilds."""

    type: type
    flatten: Callable
    unflatten: Callable
    flatten_with_keys: Callable | None

    def __reduce__(self):
        # Pickled treedefs name the type; the registration is looked up again on load.
        return (registration_of, (self.type,))

    def children_of(self, node: Any) -> tuple[Any, Any]:
        """``(children, aux_data)`` from ``flatten(node)``, whose result is checked as jaxlib checks it."""
        result = self.flatten(node)
        _check_result(result, "to_iterable", "children")
        return result[0], result[1]

    def keyed_children_of(self, node: Any) -> tuple[list, Any]:
        """``([(key, child), ...], aux_data)`` from ``flatten_with_keys(node)``, checked as jaxlib checks it."""
        result = self.flatten_with_keys(node)
        _check_result(result, "to_iterable_with_keys", "key_leaf_pairs")
        pairs = list(result[0])
        for pair in pairs:
            if not isinstance(pair, tuple) or len(pair) != 2:
                # jaxlib's message, cut short as jaxlib cuts it.
                rule = _RESULT_RULE.format("to_iterable_with_keys", "key_leaf_pairs")
                raise ValueError(f"{rule} where 'child{pair!r}")
        return pairs, result[1]


_RESULT_RULE = "The {} function for a custom PyTree node should return a ({}, aux_data) tuple"


def _check_result(result: Any, function: str, children: str) -> None:
    if not isinstance(result, tuple) or len(result) != 2:
        raise ValueError(f"{_RESULT_RULE.format(function, children)}, got {result!r}")
    try:
        iter(result[0])
    except TypeError:
        raise ValueError(f"{_RESULT_RULE.format(function, children)} where '{children}' is iterable, got {result!r}"
                         ) from None


_BUILTIN_KINDS: dict[type, int] = {tuple: TUPLE, list: LIST, dict: DICT, type(None): NONE}

# Cache type -> kind for every type seen, leaves included; reset on registration.
kind_cache: dict[type, int] = dict(_BUILTIN_KINDS)
custom_nodes: dict[type, NodeRegistration] = {}
_CACHE_LIMIT = 4096


def kind_of(nodetype: type) -> int:
    """Classify a type (and remember the answer)."""
    kind = kind_cache.get(nodetype)
    if kind is not None:
        return kind
    if nodetype in custom_nodes:
        kind = CUSTOM
    elif issubclass(nodetype, tuple) and hasattr(nodetype, "_fields"):
        kind = NAMEDTUPLE
    else:
        kind = LEAF
    if len(kind_cache) > _CACHE_LIMIT:
        kind_cache.clear()
        kind_cache.update(_BUILTIN_KINDS)
        for registered in custom_nodes:
            kind_cache[registered] = CUSTOM
    kind_cache[nodetype] = kind
    return kind


def registration_of(nodetype: type) -> NodeRegistration:
    try:
        return custom_nodes[nodetype]
    except KeyError:
        raise ValueError(f"Type {nodetype} is not registered as a pytree node.") from None


def _add(registration: NodeRegistration) -> None:
    nodetype = registration.type
    if nodetype in custom_nodes or nodetype in _BUILTIN_KINDS:
        raise ValueError(f"Duplicate custom PyTreeDef type registration for {nodetype}.")
    for mirror in (accelerator.mirror, accelerator.dispatch_mirror):
        if mirror is not None:
            mirror.register_node(
                nodetype, registration.flatten, registration.unflatten, registration.flatten_with_keys
            )
    custom_nodes[nodetype] = registration
    kind_cache[nodetype] = CUSTOM


def register_pytree_node(
    nodetype: type[T],
    flatten_func: Callable[[T], tuple[Iterable[Any], Any]],
    unflatten_func: Callable[[Any, Iterable[Any]], T],
    flatten_with_keys_func: Callable[[T], tuple[Iterable[tuple[Any, Any]], Any]] | None = None,
) -> None:
    """Make ``nodetype`` a pytree node: ``flatten_func(x) -> (children, aux)``, ``unflatten_func(aux, children)``."""
    _add(NodeRegistration(nodetype, flatten_func, unflatten_func, flatten_with_keys_func))


def register_pytree_with_keys(
    nodetype: type[T],
    flatten_with_keys: Callable[[T], tuple[Iterable[tuple[Any, Any]], Any]],
    unflatten_func: Callable[[Any, Iterable[Any]], T],
    flatten_func: Callable[[T], tuple[Iterable[Any], Any]] | None = None,
) -> None:
    """Like ``register_pytree_node``, with ``flatten_with_keys(x) -> ((key, child), ...), aux``."""
    if flatten_func is None:

        def flatten_func(node):
            pairs, aux = flatten_with_keys(node)
            return [child for _, child in pairs], aux

    _add(NodeRegistration(nodetype, flatten_func, unflatten_func, flatten_with_keys))


def register_pytree_node_class(cls: type[T]) -> type[T]:
    """Class decorator: register through ``cls.tree_flatten`` and ``cls.tree_unflatten``."""
    register_pytree_node(cls, lambda node: node.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys_class(cls: type[T]) -> type[T]:
    """Class decorator: register through ``tree_flatten_with_keys``, ``tree_unflatten`` (and ``tree_flatten``)."""
    flatten = None
    if hasattr(cls, "tree_flatten"):

        def flatten(node):
            return node.tree_flatten()

    register_pytree_with_keys(cls, lambda node: node.tree_flatten_with_keys(), cls.tree_unflatten, flatten)
    return cls


def register_static(cls: type[T]) -> type[T]:
    """Register ``cls`` as a node with no children: its instances live in the treedef, not the leaves."""
    register_pytree_with_keys(cls, lambda node: ((), node), lambda aux, _: aux, lambda node: ((), node))
    return cls


# OrderedDict and defaultdict are nodes built through the same mechanism as user types.
def _ordered_dict_flatten(node):
    return list(node.values()), tuple(node)


def _ordered_dict_keys(node):
    return [(DictKey(k), v) for k, v in node.items()], tuple(node)


def _sorted_keys(mapping) -> list:
    try:
        return sorted(mapping)
    except Exception:
        raise ValueError("Comparator raised exception while sorting pytree dictionary keys.") from None


def _defaultdict_flatten(node):
    keys = _sorted_keys(node)
    return [node[k] for k in keys], (node.default_factory, tuple(keys))


def _defaultdict_keys(node):
    keys = _sorted_keys(node)
    return [(DictKey(k), node[k]) for k in keys], (node.default_factory, tuple(keys))


register_pytree_node(
    OrderedDict, _ordered_dict_flatten, lambda keys, values: OrderedDict(zip(keys, values)), _ordered_dict_keys
)
register_pytree_node(
    defaultdict,
    _defaultdict_flatten,
    lambda aux, values: defaultdict(aux[0], zip(aux[1], values)),
    _defaultdict_keys,
)


def namedtuple_keys(node) -> list:
    return [(GetAttrKey(name), child) for name, child in zip(node._fields, node)]
