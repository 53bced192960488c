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
    st.convert_element_type_p, st.reduce_precision_p]
for _p in ELEMENTWISE:
    batching_rules[_p] = elementwise_batcher(_p)


# ---------------------------------------------------------------- select_n and clamp: operands of one shape


def _materialise(x: Any, size: int, shape: tuple[int, ...]) -> Any:
    """An unbatched operand broadcast to ``(size, *shape)`` (its dimensions trailing, NumPy-computed as JAX's)."""
    lead = 1 + len(shape) - get_aval(x).ndim
    dims = tuple(np.int64(i + lead) for i in range(get_aval(x).ndim))
    return broadcast_in_dim_p.bind(x, shape=(size, *shape), broadcast_dimensions=dims, sharding=None)


def _per_example(vals, dims) -> tuple[int, tuple[int, ...]]:
    """The batch size and the largest per-example shape among the operands."""
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    shapes = [get_aval(v).shape[:d] + get_aval(v).shape[d + 1:] if d is not None else get_aval(v).shape
              for v, d in zip(vals, dims)]
    return size, max(shapes, key=len)


def _at_full_shape(x: Any, dim: int | None, size: int, shape: tuple[int, ...]) -> Any:
    """An operand as ``(size, *shape)``: unbatched ones materialised, batched scalars broadcast along ``shape``."""
    if dim is None:
        return _materialise(x, size, shape)
    x = move_dim(x, dim, 0)
    if get_aval(x).ndim < 1 + len(shape):
        x = broadcast_in_dim_p.bind(x, shape=(size, *shape), broadcast_dimensions=(0,), sharding=None)
    return x


def _select_n_rule(vals, dims):
    # The cases must share one shape (an unbatched one is materialised); the predicate may stay an unbatched
    # scalar, a batched one is broadcast along the cases' dimensions.
    (which, *cases), (which_dim, *case_dims) = vals, dims
    if which_dim is None and not get_aval(which).ndim and len(set(case_dims)) == 1 and \
            len({get_aval(c).shape for c in cases}) == 1:
        return st.select_n_p.bind(which, *cases), case_dims[0]
    size, shape = _per_example(vals, dims)
    # in JAX's order: the predicate lined up first (a batched scalar one broadcast only after the cases)
    if which_dim is not None:
        which = move_dim(which, which_dim, 0)
    elif get_aval(which).ndim:
        which = _materialise(which, size, shape)
    cases = [_at_full_shape(c, d, size, shape) for c, d in zip(cases, case_dims)]
    if which_dim is not None:
        which = _at_full_shape(which, 0, size, shape)
    return st.select_n_p.bind(which, *cases), 0


def _clamp_rule(vals, dims):
    # clamp's bounds are scalars or of the operand's shape: unbatched scalar bounds of a batched operand stay
    # scalars, otherwise every operand is brought to the full shape (as JAX's rule does).
    (lower, x, upper), (lower_dim, x_dim, upper_dim) = vals, dims
    if lower_dim is None and upper_dim is None and not get_aval(lower).ndim and not get_aval(upper).ndim:
        return st.clamp_p.bind(lower, x, upper), x_dim
    size, shape = _per_example(vals, dims)
    # in JAX's order: the operand, the upper bound, the lower bound
    x, upper, lower = (_at_full_shape(vals[i], dims[i], size, shape) for i in (1, 2, 0))
    return st.clamp_p.bind(lower, x, upper), 0


batching_rules[st.select_n_p] = _select_n_rule
batching_rules[st.clamp_p] = _clamp_rule
