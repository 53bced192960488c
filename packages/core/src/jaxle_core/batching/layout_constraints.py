"""Batching of ``layout_constraint``: the batch dimension stays where it is, the slowest-varying in memory, and
the example's dimensions keep their order after it."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.layout_constraints import layout_constraint_p
from jaxle_core.layout import Layout


def _layout_constraint_batched(vals, dims, *, layout: Layout):
    (x,), (dim,) = vals, dims
    order = (dim, *(d if d < dim else d + 1 for d in layout.major_to_minor))
    return layout_constraint_p.bind(x, layout=layout.update(major_to_minor=order)), dim


batching_rules[layout_constraint_p] = _layout_constraint_batched
