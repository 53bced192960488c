"""Treedefs, the structure of a pytree: jaxlib's where jaxlib is installed, else post-order tuples of node records.

A node record is ``(kind, arity, payload)`` where payload is ``None`` for leaves, None,
tuples and lists, the key tuple for dicts, the class for namedtuples and
``(registration, aux_data)`` for custom nodes. Records of the common shapes are
shared, so flattening a tree of built-in containers allocates almost nothing.

On the accelerated path (see ``accelerator``) flattening hands out jaxlib's C++ treedef itself, as JAX does;
``PythonTreeDef`` is the pure-Python path's. Node records are derived from a jaxlib treedef only for pickling
and for comparing treedefs of the two paths.
"""

from __future__ import annotations

import copyreg
from collections.abc import Iterable
from typing import Any

from . import accelerator
from .builders import builder_for
from .registry import CUSTOM, DICT, LEAF, LIST, NAMEDTUPLE, NONE, TUPLE, custom_nodes, registration_of

__all__ = ["PyTreeDef", "PythonTreeDef", "compose", "jaxlib_treedef", "records"]

LEAF_NODE = (LEAF, 0, None)
NONE_NODE = (NONE, 0, None)
TUPLE_NODES = [(TUPLE, n, None) for n in range(64)]
LIST_NODES = [(LIST, n, None) for n in range(64)]

_NONE_PREFIX_HINT = (
    "\n\nIn previous releases of JAX, flatten-up-to used to consider None to be a tree-prefix of non-None "
    "values. To obtain the previous behavior, you can usually write:\n"
    "  jax.tree.map(lambda x, y: None if x is None else f(x, y), a, b, is_leaf=lambda x: x is None)"
)


def _nested(nodes: tuple) -> tuple:
    """Post-order records -> ``(record, [child, ...])`` nested view of the root."""
    stack: list = []
    for node in nodes:
        arity = node[1]
        if arity:
            children = stack[-arity:]
            del stack[-arity:]
        else:
            children = []
        stack.append((node, children))
    return stack[0]


def _post_order(view: tuple, out: list) -> None:
    node, children = view
    for child in children:
        _post_order(child, out)
    out.append(node)


_JAXLIB_CLASS: Any = None if accelerator.pytree is None else accelerator.pytree.PyTreeDef


class PythonTreeDef(object if _JAXLIB_CLASS is None else _JAXLIB_CLASS):
    """The structure of a pytree made on the pure-Python path: its containers and where the leaves go.

    Where jaxlib is installed this subclasses jaxlib's treedef, so that one ``isinstance`` check covers the
    treedefs of both paths and comparing a jaxlib treedef with this one reaches this class's ``__eq__``. Its
    C++ part is never built: every method of jaxlib's class is defined here.
    """

    __slots__ = ("_builder", "_hash", "_nodes", "_num_leaves", "_view")

    def __init__(self, nodes: tuple, num_leaves: int) -> None:
        self._nodes = nodes
        self._num_leaves = num_leaves
        self._view = None
        self._hash = None
        self._builder = None

    @classmethod
    def _from_view(cls, view: tuple) -> PythonTreeDef:
        out: list = []
        _post_order(view, out)
        nodes = tuple(out)
        return cls(nodes, sum(1 for n in nodes if n[0] == LEAF))

    @property
    def num_leaves(self) -> int:
        return self._num_leaves

    @property
    def num_nodes(self) -> int:
        return len(self._nodes)

    def _root(self) -> tuple:
        if self._view is None:
            self._view = _nested(self._nodes)
        return self._view

    def unflatten(self, leaves: Iterable[Any]) -> Any:
        """Build the pytree of this structure holding ``leaves``."""
        if type(leaves) is not list:
            try:
                leaves = list(iter(leaves))
            except TypeError:
                if hasattr(leaves, "__iter__") or hasattr(leaves, "__getitem__"):
                    raise
                raise _incompatible_arguments("unflatten", "arg: Iterable[Any], /) -> Any", leaves) from None
        if len(leaves) != self._num_leaves:
            if len(leaves) < self._num_leaves:
                raise ValueError(
                    f"Too few leaves for PyTreeDef; expected {self._num_leaves}, got {len(leaves)}"
                )
            raise ValueError(f"Too many leaves for PyTreeDef; expected {self._num_leaves}.")
        builder = self._builder
        if builder is None:
            builder = builder_for(self._nodes)
            if builder is not True:
                self._builder = builder
        if builder is not True and builder:
            return builder(leaves, self._nodes)
        stack: list = []
        push = stack.append
        position = 0
        for kind, arity, payload in self._nodes:
            if kind == LEAF:
                push(leaves[position])
                position += 1
                continue
            if arity:
                children = stack[-arity:]
                del stack[-arity:]
            else:
                children = []
            if kind == LIST:
                push(children)
            elif kind == TUPLE:
                push(tuple(children))
            elif kind == DICT:
                push(dict(zip(payload, children)))
            elif kind == NONE:
                push(None)
            elif kind == NAMEDTUPLE:
                push(payload(*children))
            else:
                registration, aux = payload
                push(registration.unflatten(aux, tuple(children)))
        return stack[0]

    def flatten_up_to(self, tree: Any) -> list:
        """Leaves of this structure found in ``tree``, which this treedef must be a prefix of."""
        out: list = []
        _flatten_up_to(self._root(), tree, out)
        return out

    def children(self) -> list[PythonTreeDef]:
        """Treedefs of the root's children."""
        return [PythonTreeDef._from_view(child) for child in self._root()[1]]

    def node_data(self) -> tuple[type, Any] | None:
        """``(type, aux data)`` of the root node; ``None`` for a leaf."""
        kind, _, payload = self._root()[0]
        if kind == LEAF:
            return None
        if kind == DICT:
            return (dict, list(payload))
        if kind == NAMEDTUPLE:
            return (payload, None)
        if kind == CUSTOM:
            return (payload[0].type, payload[1])
        return ({NONE: type(None), TUPLE: tuple, LIST: list}[kind], None)

    def compose(self, inner: Any) -> PythonTreeDef:
        """The treedef of this structure with every leaf replaced by ``inner`` (a treedef of either path)."""
        if not isinstance(inner, PyTreeDef):
            raise _incompatible_arguments("compose", f"arg: {_JAXLIB_TREEDEF}, /) -> {_JAXLIB_TREEDEF}", inner)
        inner_nodes = records(inner)
        nodes: list = []
        for node in self._nodes:
            if node[0] == LEAF:
                nodes.extend(inner_nodes)
            else:
                nodes.append(node)
        return PythonTreeDef(tuple(nodes), self._num_leaves * inner.num_leaves)

    def __eq__(self, other: object) -> bool:
        if type(other) is PythonTreeDef:
            return self._nodes == other._nodes
        if not isinstance(other, PyTreeDef):
            return False
        return self._nodes == records(other)  # a jaxlib treedef (made on the other path): compare as records

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        # Aux data takes part in equality but not in the hash, so unhashable aux data is allowed.
        if self._hash is None:
            self._hash = hash(tuple((k, a, p[0].type if k == CUSTOM else p) for k, a, p in self._nodes))
        return self._hash

    def __repr__(self) -> str:
        return f"PyTreeDef({_render(self._root())})"

    def __reduce__(self):
        return _pickled(self._nodes, self._num_leaves)


PyTreeDef: Any = PythonTreeDef if _JAXLIB_CLASS is None else _JAXLIB_CLASS
"""The class of every treedef: jaxlib's (as JAX's) where jaxlib is installed, else ``PythonTreeDef``."""


def _on_jaxlib_treedef(name: str) -> Any:
    def method(self: PythonTreeDef, *args: Any) -> Any:
        return getattr(jaxlib_treedef(self), name)(*args)

    method.__name__ = name
    method.__doc__ = f"jaxlib's ``{name}`` of the same structure."
    return method


if _JAXLIB_CLASS is not None:
    # jaxlib's methods that the pure path has no Python version of run on the jaxlib treedef of the same structure.
    for _name in ("walk", "from_iterable_tree", "serialize_using_proto", "__getstate__"):
        setattr(PythonTreeDef, _name, _on_jaxlib_treedef(_name))


def records(treedef: Any) -> tuple:
    """The post-order node records of a treedef of either path."""
    if type(treedef) is PythonTreeDef:
        return treedef._nodes
    out: list = []
    _records_of(treedef, out)
    return tuple(out)


def _pickled(nodes: tuple, num_leaves: int) -> tuple:
    # Both paths pickle the same plain records (custom nodes by type), so either path can load either pickle.
    plain = tuple((k, a, (p[0].type, p[1])) if k == CUSTOM else (k, a, p) for k, a, p in nodes)
    return (_rebuild, (plain, num_leaves))


def _reduce_jaxlib_treedef(treedef: Any) -> tuple:
    """Pickle a jaxlib treedef of jaxle's registry as the pure path pickles its own; leave any other to jaxlib."""
    if treedef.__getstate__()[0] is not accelerator.mirror:
        return treedef.__reduce_ex__(2)
    return _pickled(records(treedef), treedef.num_leaves)


if _JAXLIB_CLASS is not None:
    copyreg.pickle(_JAXLIB_CLASS, _reduce_jaxlib_treedef)


def jaxlib_treedef(treedef: Any) -> Any:
    """jaxlib's C++ treedef of ``treedef`` (for jaxlib's C++ callers), built from its node records when it was made
    on the pure-Python path; None where jaxlib is absent or refused."""
    if type(treedef) is not PythonTreeDef:
        return treedef
    if accelerator.mirror is None:
        return None
    return _jaxlib_def_of(_nested(treedef._nodes), accelerator.mirror)


def compose(outer: Any, inner: Any) -> Any:
    """``outer.compose(inner)`` for treedefs of either path: jaxlib's own ``compose`` takes only jaxlib's treedefs,
    so a pure-path ``inner`` goes to a jaxlib ``outer`` as the jaxlib treedef of its structure."""
    if type(inner) is PythonTreeDef and type(outer) is not PythonTreeDef:
        inner = jaxlib_treedef(inner)
    return outer.compose(inner)


_KIND_OF_BUILTIN = {type(None): NONE, tuple: TUPLE, list: LIST, dict: DICT}


def _records_of(jaxlib_def: Any, out: list) -> None:
    """Append the post-order node records of a jaxlib treedef to ``out``."""
    data = jaxlib_def.node_data()
    if data is None:
        out.append(LEAF_NODE)
        return
    children = jaxlib_def.children()
    for child in children:
        _records_of(child, out)
    nodetype, aux = data
    kind = _KIND_OF_BUILTIN.get(nodetype)
    if kind == DICT:
        out.append((DICT, len(children), tuple(aux)))
    elif kind is not None:
        out.append((kind, len(children), None))
    elif nodetype in custom_nodes:
        out.append((CUSTOM, len(children), (custom_nodes[nodetype], aux)))
    else:
        out.append((NAMEDTUPLE, len(children), nodetype))


def _jaxlib_def_of(view: tuple, registry: Any) -> Any:
    """The jaxlib treedef of a nested record view."""
    (kind, _, payload), children = view
    if kind == LEAF:
        data = None
    elif kind == DICT:
        data = (dict, list(payload))
    elif kind == NAMEDTUPLE:
        data = (payload, None)
    elif kind == CUSTOM:
        data = (payload[0].type, payload[1])
    else:
        data = ({NONE: type(None), TUPLE: tuple, LIST: list}[kind], None)
    parts = [_jaxlib_def_of(child, registry) for child in children]
    return accelerator.pytree.PyTreeDef.from_node_data_and_children(registry, data, parts)


_JAXLIB_TREEDEF = "jaxlib._jax.pytree.PyTreeDef"


def _incompatible_arguments(method: str, signature: str, argument: Any) -> TypeError:
    """jaxlib's error for a ``PyTreeDef`` method called with an argument of the wrong type."""
    kind = type(argument)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    return TypeError(f"{method}(): incompatible function arguments. The following argument types are supported:\n"
                     f"    1. {method}(self, {signature}\n\nInvoked with types: {_JAXLIB_TREEDEF}, {name}")


def _rebuild(plain: tuple, num_leaves: int) -> Any:
    nodes = tuple((k, a, (registration_of(p[0]), p[1])) if k == CUSTOM else (k, a, p) for k, a, p in plain)
    if accelerator.active is not None:
        return _jaxlib_def_of(_nested(nodes), accelerator.active)
    return PythonTreeDef(nodes, num_leaves)


def _render(view: tuple) -> str:
    (kind, arity, payload), children = view
    if kind == LEAF:
        return "*"
    if kind == NONE:
        return "None"
    parts = [_render(child) for child in children]
    if kind == TUPLE:
        return f"({parts[0]},)" if arity == 1 else "(" + ", ".join(parts) + ")"
    if kind == LIST:
        return "[" + ", ".join(parts) + "]"
    if kind == DICT:
        return "{" + ", ".join(f"{key!r}: {part}" for key, part in zip(payload, parts)) + "}"
    if kind == NAMEDTUPLE:
        name, data = "namedtuple", payload.__name__
    else:
        name, data = payload[0].type.__name__, payload[1]
    return f"CustomNode({name}[{data}], [" + ", ".join(parts) + "])"


def _flatten_up_to(view: tuple, tree: Any, out: list) -> None:
    (kind, arity, payload), children = view
    if kind == LEAF:
        out.append(tree)
        return
    kind_type = type(tree)
    if kind == NONE:
        if tree is not None:
            raise ValueError(f"Expected None, got {tree!r}.{_NONE_PREFIX_HINT}")
        return
    if kind == TUPLE or kind == LIST:
        name, expected = ("tuple", tuple) if kind == TUPLE else ("list", list)
        if kind_type is not expected:
            raise ValueError(f"Expected {name}, got {tree!r}.")
        if len(tree) != arity:
            raise ValueError(f"{name.capitalize()} arity mismatch: {len(tree)} != {arity}; {name}: {tree!r}.")
        values = tree
    elif kind == DICT:
        if kind_type is not dict:
            raise ValueError(f"Expected dict, got {tree!r}.")
        try:
            present = sorted(tree)
        except Exception:
            raise ValueError("Comparator raised exception while sorting pytree dictionary keys.") from None
        if tuple(present) != payload:
            raise ValueError(f"Dict key mismatch; expected keys: {list(payload)!r}; present keys: {present!r}.")
        values = [tree[key] for key in payload]
    elif kind == NAMEDTUPLE:
        if not (isinstance(tree, tuple) and hasattr(kind_type, "_fields")):
            raise ValueError(f"Expected named tuple, got {tree!r}.")
        if kind_type is not payload:
            raise ValueError(f"Named tuple type mismatch: expected type: {payload!r}, tuple: {tree!r}.")
        if len(tree) != arity:
            raise ValueError(f"Named tuple arity mismatch: {len(tree)} != {arity}; tuple: {tree!r}.")
        values = tree
    else:
        registration, aux = payload
        if kind_type is not registration.type:
            raise ValueError(f"Custom node type mismatch: expected type: {registration.type!r}, value: {tree!r}.")
        values, tree_aux = registration.children_of(tree)
        values = list(values)
        if tree_aux != aux:
            raise ValueError(f"Mismatch custom node data: {aux!r} != {tree_aux!r}; value: {tree!r}.")
        if len(values) != arity:
            raise ValueError(f"Custom type arity mismatch: {len(values)} != {arity}; value: {tree!r}.")
    for child_view, value in zip(children, values):
        _flatten_up_to(child_view, value, out)
