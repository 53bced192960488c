"""``jax.interpreters.batching``: vmap rules of primitives.

``primitive_batchers[p]`` is ``rule(batched_args, batch_dims, **params) -> (out, out_dim)`` (lists of each for a
primitive with multiple results; a dim of None means the value does not vary along the batch), jaxle's own table.
``axis_primitive_batchers[p]`` is ``rule(axis_size, axis_name, None, batched_args, batch_dims, **params)`` for
rules that need the mapped axis, called as JAX calls it (the third argument, a trace type in JAX's older API, is
always None; ``axis_name`` is None for an unnamed ``vmap``).
"""

from __future__ import annotations

from typing import Any

from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import elementwise_batcher
from jaxle_core.batching.trace import at_dim, batching_rules, insert_dim, move_dim, traced_batching_rules
from jaxle_core.core import Primitive

__all__ = ["axis_primitive_batchers", "bdim_at_front", "broadcast", "defbroadcasting", "defreducer", "defvectorized",
           "primitive_batchers"]

primitive_batchers = batching_rules


class _AxisRuleTable(dict):
    """Rules given the mapped axis first; setting one installs it in jaxle's table of rules that see the trace."""

    def __setitem__(self, primitive: Primitive, rule: Any) -> None:
        super().__setitem__(primitive, rule)

        def traced_rule(trace, vals, dims, **params):
            return rule(trace.axis_size, trace.axis_name, None, vals, dims, **params)

        traced_batching_rules[primitive] = traced_rule


axis_primitive_batchers: dict[Primitive, Any] = _AxisRuleTable()


def defvectorized(primitive: Primitive) -> None:
    """``primitive`` acts on each element of its one operand: the batch dimension stays where it is."""
    batching_rules[primitive] = elementwise_batcher(primitive)


def defbroadcasting(primitive: Primitive) -> None:
    """``primitive`` is elementwise over operands that broadcast together (rank-0 operands broadcast)."""
    batching_rules[primitive] = elementwise_batcher(primitive)


def defreducer(primitive: Primitive) -> None:
    """``primitive`` reduces its operand over the dimensions of its ``axes`` param: the batch dimension goes first
    and is not reduced."""

    def rule(vals, dims, *, axes, **params):
        (x,), (dim,) = vals, dims
        shifted = tuple(a + 1 for a in axes)
        return primitive.bind(move_dim(x, dim, 0), axes=shifted, **params), 0

    batching_rules[primitive] = rule


def bdim_at_front(x: Any, bdim: int | None, size: int, mesh_axis: Any = None) -> Any:
    """``x`` with its batch dimension first; one of ``size`` is materialised when ``bdim`` is None."""
    return at_dim(x, bdim, size, 0)


def broadcast(x: Any, sz: int, axis: int, mesh_axis: Any = None) -> Any:
    """``x`` repeated ``sz`` times along a new dimension at ``axis``."""
    return insert_dim(x, sz, axis % (get_aval(x).ndim + 1))
