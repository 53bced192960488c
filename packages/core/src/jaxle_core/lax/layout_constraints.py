"""``layout_constraint``: a value unchanged, asked to be in a memory layout (``jax.experimental.layout``'s
``with_layout_constraint``); the compiler lays it out so, and a program's result computed by one takes the layout
XLA chooses."""

from __future__ import annotations

from typing import Any

import jaxle_tree as tree
from jaxle_core.core import Primitive
from jaxle_core.layout import Layout, check_layout_rank

__all__ = ["layout_constraint_p", "with_layout_constraint"]

layout_constraint_p = Primitive("layout_constraint")
layout_constraint_p.def_abstract_eval(lambda aval, *, layout: aval)
layout_constraint_p.def_impl(lambda value, *, layout: value)


def with_layout_constraint(x: Any, layouts: Any) -> Any:
    """Each array of the pytree ``x`` constrained to the ``Layout`` its leaf of ``layouts`` (a pytree prefix of
    ``x``) names."""
    given = tree.tree_leaves(layouts, is_leaf=lambda v: v is None)
    if not all(isinstance(layout, Layout) for layout in given):
        raise ValueError("layouts passed to `with_layout_constraint` must be of type `Layout`. Got "
                         f"{[type(layout) for layout in given]}")
    leaves, treedef = tree.tree_flatten(x)
    flat_layouts = treedef.flatten_up_to(tree.tree_broadcast(layouts, x))
    outs = []
    for leaf, layout in zip(leaves, flat_layouts):
        check_layout_rank(layout, getattr(leaf, "shape", ()), "One of with_layout_constraint arguments")
        outs.append(layout_constraint_p.bind(leaf, layout=layout))
    return tree.tree_unflatten(treedef, outs)
