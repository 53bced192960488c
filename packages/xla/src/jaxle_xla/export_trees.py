"""The pytrees of an ``Exported``'s calling signature, written as data (JSON) rather than pickled.

Leaves, ``None``, tuples, lists, dicts and ``OrderedDict``s with string keys are written as they are; any other
node type must be registered for serialization first (``register_pytree_node_serialization``, or
``register_namedtuple_serialization`` for namedtuples) under a name that stands for it in the data, so a
function exported in one program can be deserialized in another that registers the same name.
"""

from __future__ import annotations

import base64
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import jaxle_tree as tree
from jaxle_tree.registry import custom_nodes

__all__ = ["register_namedtuple_serialization", "register_pytree_node_serialization", "treedef_from_data",
           "treedef_to_data"]

T = TypeVar("T")
_UNREGISTERED = "Use `export.register_pytree_node_serialization` or `export.register_namedtuple_serialization`."


@dataclass(frozen=True)
class _Serialization:
    """How one node type is written: its name in the data, its aux data to and from bytes, and how to rebuild a
    node of the type from aux data and children."""

    nodetype: type
    name: str
    serialize_auxdata: Callable[[Any], bytes]
    deserialize_auxdata: Callable[[bytes], Any]
    from_children: Callable[[Any, list], Any]


_by_type: dict[type, _Serialization] = {}
_by_name: dict[str, _Serialization] = {}


def _register(serialization: _Serialization) -> None:
    if serialization.nodetype in _by_type:
        raise ValueError(f"Duplicate serialization registration for type `{serialization.nodetype}`. Previous "
                         f"registration was with serialized_name `{_by_type[serialization.nodetype].name}`.")
    if serialization.name in _by_name:
        raise ValueError(f"Duplicate serialization registration for serialized_name `{serialization.name}`. "
                         f"Previous registration was for type `{_by_name[serialization.name].nodetype}`.")
    _by_type[serialization.nodetype] = _by_name[serialization.name] = serialization


def register_pytree_node_serialization(nodetype: type[T], *, serialized_name: str,
                                       serialize_auxdata: Callable[[Any], bytes],
                                       deserialize_auxdata: Callable[[bytes], Any],
                                       from_children: Callable[[Any, list], Any] | None = None) -> type[T]:
    """Let ``Exported.serialize`` write pytree nodes of ``nodetype`` (registered with ``register_pytree_node``
    unless ``from_children`` rebuilds them) under ``serialized_name``, their aux data as the bytes
    ``serialize_auxdata`` gives; returns ``nodetype`` (usable as a class decorator)."""
    if from_children is None:
        if nodetype not in custom_nodes:
            raise ValueError("If `from_children` is not present, you must call first"
                             f"`jax.tree_util.register_pytree_node` for `{nodetype}`")
        from_children = custom_nodes[nodetype].unflatten
    _register(_Serialization(nodetype, serialized_name, serialize_auxdata, deserialize_auxdata, from_children))
    return nodetype


def register_namedtuple_serialization(nodetype: type[T], *, serialized_name: str) -> type[T]:
    """Let ``Exported.serialize`` write the namedtuple class ``nodetype`` under ``serialized_name`` (its fields are
    written too: the class registered under that name when deserializing must take the same ones)."""
    if not (isinstance(nodetype, type) and issubclass(nodetype, tuple) and hasattr(nodetype, "_fields")):
        raise ValueError("Use `jax.export.register_pytree_node_serialization` for types other than "
                         "`collections.namedtuple`.")
    _register(_Serialization(nodetype, serialized_name, lambda _: ",".join(nodetype._fields).encode(),
                             lambda data: data.decode().split(",") if data else [],
                             lambda fields, children: nodetype(**dict(zip(fields, children)))))
    return nodetype


_BUILTIN = {type(None): "none", tuple: "tuple", list: "list", dict: "dict", OrderedDict: "ordered_dict"}


def treedef_to_data(treedef: Any) -> Any:
    """``treedef`` as JSON-compatible data (nested lists)."""
    node = treedef.node_data()
    if node is None:
        return "leaf"
    nodetype, aux = node
    children = [treedef_to_data(child) for child in treedef.children()]
    kind = _BUILTIN.get(nodetype)
    if kind in ("dict", "ordered_dict"):
        for key in aux:
            if not isinstance(key, str):
                raise TypeError("Serialization is supported only for dictionaries with string keys. Found key "
                                f"{key} of type {type(key)}.")
        return [kind, list(aux), children]
    if kind is not None:
        return [kind, children]
    serialization = _by_type.get(nodetype)
    if serialization is None:
        raise ValueError(f"Cannot serialize PyTreeDef containing an unregistered type `{nodetype}`. {_UNREGISTERED}")
    aux_bytes = serialization.serialize_auxdata(aux)
    if not isinstance(aux_bytes, bytes):
        raise ValueError("The custom serialization function for `node_type` must return a `bytes` object. It "
                         f"returned a {type(aux_bytes)}.")
    return ["custom", serialization.name, base64.b64encode(aux_bytes).decode(), children]


_LEAF = object()  # stands for each leaf while the example tree is rebuilt


def _example(data: Any) -> Any:
    """A pytree of the structure ``data`` describes, with ``_LEAF`` at the leaves."""
    if data == "leaf":
        return _LEAF
    kind = data[0]
    if kind == "none":
        return None
    if kind in ("tuple", "list"):
        children = [_example(child) for child in data[1]]
        return tuple(children) if kind == "tuple" else children
    if kind in ("dict", "ordered_dict"):
        pairs = zip(data[1], (_example(child) for child in data[2]))
        return dict(pairs) if kind == "dict" else OrderedDict(pairs)
    _, name, aux, children = data
    serialization = _by_name.get(name)
    if serialization is None:
        raise ValueError(f"Cannot deserialize a PyTreeDef containing an unregistered type `{name}`. {_UNREGISTERED}")
    aux_data = serialization.deserialize_auxdata(base64.b64decode(aux))
    return serialization.from_children(aux_data, [_example(child) for child in children])


def treedef_from_data(data: Any) -> Any:
    """The treedef that ``treedef_to_data`` wrote as ``data``."""
    return tree.tree_structure(_example(data))
