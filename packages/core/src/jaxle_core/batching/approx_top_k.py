"""Batching of ``approx_top_k``: the reduction dimension skips the batch dimension."""

from __future__ import annotations

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.approx_top_k import approx_top_k_p


def _approx_top_k_rule(vals, dims, *, reduction_dimension, **params):
    (x,), (d,) = vals, dims
    # The reduction dimension is recorded nonnegative once batched, as JAX does.
    axis = reduction_dimension % (get_aval(x).ndim - 1)
    outs = approx_top_k_p.bind(x, reduction_dimension=axis + (axis >= d), **params)
    return outs, [d, d]


batching_rules[approx_top_k_p] = _approx_top_k_rule
