"""Batching rules of ``sort`` (every operand batched along the first batched one's dimension) and ``top_k``
(the sorted axis skips the batch dimension)."""

from __future__ import annotations

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules, broadcast_to_batch, move_dim
from jaxle_core.lax.sorting import sort_p, top_k_p


def _sort_rule(vals, dims, *, dimension, is_stable, num_keys):
    proto, bdim = next((v, d) for v, d in zip(vals, dims) if d is not None)
    shape = get_aval(proto).shape
    ops = []
    for v, d in zip(vals, dims):
        if d is None:
            kept = tuple(i for i in range(len(shape)) if i != bdim)
            ops.append(broadcast_to_batch(v, shape, kept, bdim))
        else:
            ops.append(move_dim(v, d, bdim))
    new_dim = dimension + (bdim <= dimension)
    outs = sort_p.bind(*ops, dimension=new_dim, is_stable=is_stable, num_keys=num_keys)
    return outs, [bdim] * len(ops)


def _top_k_rule(vals, dims, *, k, axis):
    (x,), (d,) = vals, dims
    outs = top_k_p.bind(x, k=k, axis=axis + 1 if axis >= d else axis)
    return outs, [d, d]


batching_rules[sort_p] = _sort_rule
batching_rules[top_k_p] = _top_k_rule
