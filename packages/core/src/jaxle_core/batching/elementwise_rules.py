"""Batching rules of the elementwise primitives: line the batch dimensions up, then apply the primitive once."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import batching_rules, move_dim
from jaxle_core.core import Primitive
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax import structural as st
from jaxle_core.lax.structural import broadcast_in_dim_p


def _expand_to_rank(x: Any, ndim: int) -> Any:
    """An unbatched operand given leading size-1 dimensions, so it broadcasts against batched ones (as JAX)."""
    shape = get_aval(x).shape
    if not shape or len(shape) == ndim:
        return x
    lead = ndim - len(shape)
    dims = tuple(np.int64(i + lead) for i in range(len(shape)))
    return broadcast_in_dim_p.bind(x, shape=(1,) * lead + shape, broadcast_dimensions=dims, sharding=None)


def _batched_to_rank(x: Any, ndim: int) -> Any:
    """A batched operand (batch dimension first) given trailing size-1 dimensions up to ``ndim``."""
    rank = get_aval(x).ndim
    return x if rank == ndim else lax.expand_dims(x, tuple(range(rank, ndim)))


def elementwise_batcher(primitive: Primitive):
    """The rule of an n-ary elementwise primitive (rank-0 operands broadcast)."""

    def rule(vals, dims, **params):
        batched = [(get_aval(v).shape, d) for v, d in zip(vals, dims) if d is not None]
        others_scalar = all(get_aval(v).ndim == 0 for v, d in zip(vals, dims) if d is None)
        if others_scalar and len(set(batched)) == 1:
            return primitive.bind(*vals, **params), batched[0][1]
        ndim = max(get_aval(v).ndim + (d is None) for v, d in zip(vals, dims) if d is not None or get_aval(v).ndim)
        lined = [_batched_to_rank(move_dim(v, d, 0), ndim) if d is not None else _expand_to_rank(v, ndim)
                 for v, d in zip(vals, dims)]
        return primitive.bind(*lined, **params), 0

    return rule


ELEMENTWISE = [p for p in vars(ew).values() if isinstance(p, Primitive)] + [
    st.convert_element_type_p, st.reduce_precision_p, st.select_n_p, st.clamp_p]
for _p in ELEMENTWISE:
    batching_rules[_p] = elementwise_batcher(_p)
