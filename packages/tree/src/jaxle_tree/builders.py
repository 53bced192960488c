"""Compiled unflatteners: for a structure seen repeatedly, one generated expression rebuilds the tree.

Rebuilding through the generic stack machine in ``PyTreeDef.unflatten`` costs a few
dispatches per node; jit-style callers rebuild the same structure on every call, so
after a structure has been seen twice we generate ``lambda L, N: [L[0], {'a': L[1]}]``
once and reuse it. Payloads that are not plain strings (aux data, non-str dict keys)
are read from the caller's own node records ``N``, so equal-but-distinct aux data is
never substituted.
"""

from __future__ import annotations

from collections.abc import Callable

from .registry import DICT, LEAF, LIST, NAMEDTUPLE, NONE, TUPLE

_MAX_NODES = 256
_MAX_CACHED = 1024
_builders: dict[tuple, Callable] = {}
_sightings: dict[tuple, int] = {}


def _source(nodes: tuple) -> str:
    stack: list[str] = []
    leaf = 0
    for index, (kind, arity, payload) in enumerate(nodes):
        if kind == LEAF:
            stack.append(f"L[{leaf}]")
            leaf += 1
            continue
        parts = stack[len(stack) - arity :] if arity else []
        del stack[len(stack) - arity :]
        if kind == LIST:
            stack.append("[" + ", ".join(parts) + "]")
        elif kind == TUPLE:
            stack.append("(" + "".join(p + ", " for p in parts) + ")")
        elif kind == NONE:
            stack.append("None")
        elif kind == DICT:
            if all(type(key) is str for key in payload):
                stack.append("{" + ", ".join(f"{key!r}: {p}" for key, p in zip(payload, parts)) + "}")
            else:
                stack.append(f"dict(zip(N[{index}][2], (" + "".join(p + ", " for p in parts) + ")))")
        elif kind == NAMEDTUPLE:
            stack.append(f"N[{index}][2](" + ", ".join(parts) + ")")
        else:
            stack.append(f"N[{index}][2][0].unflatten(N[{index}][2][1], (" + "".join(p + ", " for p in parts) + "))")
    return "lambda L, N: " + stack[0]


def _depth(nodes: tuple) -> int:
    """Nesting depth of the tree (the generated expression nests as deeply)."""
    depths: list[int] = []
    for _, arity, _ in nodes:
        below = max(depths[len(depths) - arity :], default=0) if arity else 0
        del depths[len(depths) - arity :]
        depths.append(below + 1)
    return depths[0]


def builder_for(nodes: tuple) -> Callable | bool:
    """The compiled rebuilder for ``nodes`` (compiled on the second sighting).

    Returns False when this structure will never get one, True when it may on a later sighting.
    """
    if len(nodes) > _MAX_NODES:
        return False
    try:
        found = _builders.get(nodes)
        if found is not None:
            return found
        seen = _sightings.get(nodes, 0) + 1
        if len(_sightings) > _MAX_CACHED:
            _sightings.clear()
        _sightings[nodes] = seen
    except Exception:  # unhashable or incomparable aux data
        return False
    if seen < 2:
        return True
    if _depth(nodes) > 64:
        return False
    built = eval(_source(nodes), {})
    if len(_builders) > _MAX_CACHED:
        _builders.clear()
    _builders[nodes] = built
    return built
