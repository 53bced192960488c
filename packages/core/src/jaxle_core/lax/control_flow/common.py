"""What every control-flow primitive shares: tracing a user function into a jaxpr whose
constants are leading inputs, and checking that branch/loop types agree.

Control-flow primitives carry closed jaxprs with no constants: every value a traced
function closes over (a tracer of an outer trace, or an array constant) becomes a
leading input of the jaxpr and a leading operand of the equation, as in JAX.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jaxle_tree as tree
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import ClosedJaxpr
from jaxle_core.staging import DebugInfo, trace_to_jaxpr


class TracedFunction:
    """A user function traced for a control-flow primitive.

    ``jaxpr`` takes ``consts`` first, then the flattened arguments; ``out_tree``
    is the tree structure of what the function returned.
    """

    __slots__ = ("jaxpr", "consts", "out_tree")

    def __init__(self, jaxpr: ClosedJaxpr, consts: list[Any], out_tree: Any):
        self.jaxpr = jaxpr
        self.consts = consts
        self.out_tree = out_tree

    @property
    def out_avals(self) -> list[ShapedArray]:
        return self.jaxpr.out_avals


def trace_function(fun: Callable, in_tree: Any, in_avals: Sequence[ShapedArray], traced_for: str,
                   arg_names: Sequence[str] = ()) -> TracedFunction:
    """Trace ``fun`` on arguments of tree ``in_tree`` with leaves of ``in_avals``; constants become inputs."""
    out_trees = []

    def flat_fun(*leaves):
        args = tree.tree_unflatten(in_tree, leaves)
        outs, out_tree = tree.tree_flatten(fun(*args))
        out_trees.append(out_tree)
        return outs

    closed = trace_to_jaxpr(flat_fun, in_avals, DebugInfo(traced_for, fun, arg_names))
    jaxpr = closed.jaxpr
    hoisted = jaxpr.replace(constvars=[], invars=jaxpr.constvars + jaxpr.invars)
    return TracedFunction(ClosedJaxpr(hoisted, []), list(closed.consts), out_trees[0])


def flatten_avals(values: Any) -> tuple[list[Any], Any, list[ShapedArray]]:
    """Leaves, tree and abstract values of a pytree of arrays."""
    leaves, treedef = tree.tree_flatten(values)
    return leaves, treedef, [get_aval(x) for x in leaves]


def same_type(a: ShapedArray, b: ShapedArray) -> bool:
    """Whether two avals agree in shape and dtype (weak types may differ)."""
    return a.shape == b.shape and a.dtype == b.dtype
