"""Batching rules of the reductions: the reduced axes skip the batch dimension (``reduce`` moves it first)."""

from __future__ import annotations

import numpy as np

from jaxle_core.batching.rule_helpers import batch_size
from jaxle_core.batching.trace import at_dim, batching_rules
from jaxle_core.core import Primitive
from jaxle_core.lax.reductions import (
    argmax_p,
    argmin_p,
    reduce_and_p,
    reduce_max_p,
    reduce_min_p,
    reduce_or_p,
    reduce_p,
    reduce_prod_p,
    reduce_sum_p,
    reduce_xor_p,
)


def _shift(axes, bdim: int) -> tuple:
    """Operand axes renumbered for an operand whose batch dimension sits at ``bdim``."""
    return tuple(np.where(np.less(axes, bdim), axes, np.add(axes, 1))) if len(axes) else ()


def _reducer_rule(primitive: Primitive):
    def rule(vals, dims, *, axes, **params):
        (x,), (d,) = vals, dims
        new_axes = _shift(axes, d)
        out_dim = d - sum(1 for a in new_axes if a < d)
        return primitive.bind(x, axes=new_axes, **params), out_dim

    return rule


def _reduce_rule(vals, dims, *, computation, jaxpr, dimensions):
    n = len(vals) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError("reduce batching rule with batched initial values is not implemented")
    size = batch_size(vals, dims)
    ops = [at_dim(v, d, size, 0) for v, d in zip(vals[:n], dims[:n])]
    outs = reduce_p.bind(*ops, *vals[n:], computation=computation, jaxpr=jaxpr,
                         dimensions=tuple(a + 1 for a in dimensions))
    return outs, [0] * n


for _p in (reduce_sum_p, reduce_prod_p, reduce_max_p, reduce_min_p, reduce_and_p, reduce_or_p, reduce_xor_p,
           argmax_p, argmin_p):
    batching_rules[_p] = _reducer_rule(_p)
batching_rules[reduce_p] = _reduce_rule
