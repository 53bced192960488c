"""Varying manual axes: the types of values inside a ``shard_map`` that checks them (``check_vma=True``).

Inside such a body every aval names the manual mesh axes over which devices may hold different values (its
``vma``; the value is the same on every device along the other axes). Staging an operation consults the rule of
its primitive: the axes each operand must vary over (an operand varying over fewer is first cast with ``pvary``,
as JAX stages it) and the axes each result varies over. Most primitives follow the standard rule (operands cast
to the union of their axes, results varying over it); collectives register their own in ``lax/parallel.py``;
primitives holding jaxprs (``jit``, control flow, custom derivatives) take their results' types from them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from jaxle_core.avals import NO_VMA, ShapedArray, vma_order
from jaxle_core.core import ClosedJaxpr, Jaxpr, Primitive

__all__ = ["checked_axes", "checking_vma", "join", "operand_and_result_vmas", "ordered", "vma_rules"]


class _State(threading.local):
    def __init__(self):
        self.axes: frozenset = NO_VMA


_state = _State()


def checked_axes() -> frozenset:
    """The manual mesh axes whose types are checked where values are staged now (empty outside such a body)."""
    return _state.axes


@contextmanager
def checking_vma(axes: Sequence) -> Iterator[None]:
    """Stage values with varying-manual-axes types over ``axes`` (empty: without them) for the block."""
    previous = _state.axes
    _state.axes = frozenset(axes)
    try:
        yield
    finally:
        _state.axes = previous


def join(vmas: Sequence[frozenset]) -> frozenset:
    """The axes any of ``vmas`` varies over."""
    return frozenset().union(*vmas) if vmas else NO_VMA


def ordered(axes: frozenset) -> tuple:
    """``axes`` in mesh order, as JAX lists the axes of a ``pvary`` it inserts."""
    return tuple(vma_order(axes))


# A rule maps the operands' avals and the params to (the axes each operand must vary over, the axes every result
# varies over); None for the results keeps the types the abstract evaluation gave.
VmaRule = Callable[[Sequence[ShapedArray], dict], tuple[Sequence[frozenset], frozenset | None]]
vma_rules: dict[Primitive, VmaRule] = {}


def _holds_jaxprs(params: dict) -> bool:
    return any(isinstance(v, (Jaxpr, ClosedJaxpr)) or (type(v) is tuple and v and isinstance(v[0], (Jaxpr,
                                                                                                    ClosedJaxpr)))
               for v in params.values())


def operand_and_result_vmas(primitive: Primitive, avals: Sequence[ShapedArray], params: dict):
    """What ``primitive`` needs of its operands' axes and gives its results (see ``VmaRule``)."""
    rule = vma_rules.get(primitive)
    if rule is not None:
        return rule(avals, params)
    if _holds_jaxprs(params):
        return [a.vma for a in avals], None
    axes = join([a.vma for a in avals])
    return [axes] * len(avals), axes
