"""Batching of the debug callbacks: one call per batch element, each given that element's slice, as in JAX."""

from __future__ import annotations

from jaxle_core.batching.callbacks import batch_size
from jaxle_core.batching.trace import batching_rules
from jaxle_core.debugging import debug_callback_p, debug_print_p
from jaxle_core.lax.slicing import index_in_dim


def _per_element(primitive):
    def rule(vals, dims, **params):
        for i in range(batch_size(vals, dims)):
            primitive.bind(*[v if d is None else index_in_dim(v, i, d, keepdims=False) for v, d in zip(vals, dims)],
                           **params)
        return [], []

    return rule


batching_rules[debug_callback_p] = _per_element(debug_callback_p)
batching_rules[debug_print_p] = _per_element(debug_print_p)
