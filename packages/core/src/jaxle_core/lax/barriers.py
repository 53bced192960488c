"""Primitives that constrain the compiler without computing anything: ``optimization_barrier`` and
``dce_sink``.

``optimization_barrier`` returns its operands unchanged, but XLA may not move computations across it
(it is how rematerialisation keeps recomputed values from being merged with the originals).
``dce_sink`` consumes values and returns nothing; its equations survive dead-code elimination, so the
computations feeding it do too.
"""

from __future__ import annotations

from typing import Any

import jaxle_tree as tree
from jaxle_core.core import Primitive

__all__ = ["dce_sink", "dce_sink_p", "optimization_barrier", "optimization_barrier_p"]

optimization_barrier_p = Primitive("optimization_barrier")
optimization_barrier_p.multiple_results = True
optimization_barrier_p.def_abstract_eval(lambda *avals: list(avals))
optimization_barrier_p.def_impl(lambda *values: list(values))


def optimization_barrier(operand: Any) -> Any:
    """``operand`` (any pytree of arrays) unchanged; XLA keeps computations from moving across it."""
    leaves, treedef = tree.tree_flatten(operand)
    return tree.tree_unflatten(treedef, optimization_barrier_p.bind(*leaves))


dce_sink_p = Primitive("dce_sink")
dce_sink_p.multiple_results = True
dce_sink_p.effectful = True
dce_sink_p.def_abstract_eval(lambda value, *, prevent_mlir_dce: [])
dce_sink_p.def_impl(lambda value, *, prevent_mlir_dce: [])


def dce_sink(val: Any, *, prevent_mlir_dce: bool = False) -> None:
    """Keep the arrays of the pytree ``val`` (and what computes them) alive through dead-code elimination.

    With ``prevent_mlir_dce`` the compiled program consumes them too (a side-effecting custom call).
    """
    for leaf in tree.tree_leaves(val):
        dce_sink_p.bind(leaf, prevent_mlir_dce=prevent_mlir_dce)
