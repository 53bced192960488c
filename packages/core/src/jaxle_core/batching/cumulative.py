"""Batching rules of the cumulative reductions: the scanned axis skips the batch dimension."""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.core import Primitive
from jaxle_core.lax.cumulative import cumlogsumexp_p, cummax_p, cummin_p, cumprod_p, cumsum_p


def _cumulative_rule(primitive: Primitive):
    def rule(vals, dims, *, axis, reverse):
        (x,), (d,) = vals, dims
        return primitive.bind(x, axis=axis + 1 if axis >= d else axis, reverse=reverse), d

    return rule


for _p in (cumsum_p, cumprod_p, cummax_p, cummin_p, cumlogsumexp_p):
    batching_rules[_p] = _cumulative_rule(_p)
