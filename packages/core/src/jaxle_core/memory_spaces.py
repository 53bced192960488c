"""Memory spaces in types: an array in a device's host memory (``pinned_host``) has a type that says so.

``jax.memory.Space`` names where a buffer lives. Avals carry it (``memory_space``, ``Device`` by default) and print
a host one as ``f32<host>[8]``. Once the first aval of another space appears, every primitive types its results by
``typed_results``: the operands of rank one or more must share one space, which the results take (as JAX's
``standard_abstract_eval`` does); primitives with inner jaxprs, and the placing ones (``device_put``), type their
results themselves.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import Any

__all__ = ["MemorySpace", "enable", "register_placing", "space_of_kind", "typed_results"]


class MemorySpace(enum.Enum):
    """Where an array's buffer lives: device memory, host memory, or any."""

    Device = enum.auto()
    Host = enum.auto()
    Any = enum.auto()

    def __repr__(self) -> str:
        return f"MemorySpace.{self.name}"

    __str__ = __repr__


def space_of_kind(memory_kind: str | None) -> MemorySpace:
    """The space of a memory kind as types see it: only pinned host memory is ``Host`` (JAX types an array in
    unpinned host memory as in device memory)."""
    return MemorySpace.Host if memory_kind == "pinned_host" else MemorySpace.Device


_placing: set[Any] = set()  # primitives whose abstract evaluation chooses their results' spaces


def register_placing(primitive: Any) -> None:
    """``primitive`` types the memory spaces of its results itself."""
    _placing.add(primitive)


def enable() -> None:
    """Type memory spaces from now on (called when an aval outside device memory first appears; never undone)."""
    from jaxle_core import core  # local: avals, which core builds on, call this

    core.type_memory_spaces = typed_results


def _has_inner_jaxpr(params: dict) -> bool:
    from jaxle_core import core  # local: see enable

    return any(isinstance(v, (core.Jaxpr, core.ClosedJaxpr)) or (
        isinstance(v, tuple) and v and isinstance(v[0], (core.Jaxpr, core.ClosedJaxpr))) for v in params.values())


def typed_results(primitive: Any, avals: Sequence[Any], params: dict, out: Any) -> Any:
    """``out`` (the result aval, or list of them) in the memory space of ``primitive``'s operands."""
    from jaxle_core.avals import ShapedArray  # local: avals builds on this module

    if primitive in _placing or _has_inner_jaxpr(params):
        return out
    typed = [a for a in avals if type(a) is ShapedArray]  # arrays (a reference's own space is its business)
    shaped = [a for a in typed if a.ndim] or typed
    if not shaped:
        return out
    first = shaped[0]
    for other in shaped[1:]:
        if other.memory_space is not first.memory_space:
            raise ValueError(f"memory_space of all inputs passed to `{primitive.name}` must be the same. Got one "
                             f"operand with type: {first.str_short()} and another operand with type: "
                             f"{other.str_short()}")
    space = first.memory_space
    outs = out if primitive.multiple_results else [out]
    outs = [o.update(memory_space=space) if type(o) is ShapedArray and o.memory_space is not space else o
            for o in outs]
    return outs if primitive.multiple_results else outs[0]
