"""Batching rules of the structural, reduction, cumulative and sorting primitives.

Each rule renames the axes its primitive acts on so that they skip the batch dimension (moving the batch
dimension to the front where the primitive's parameters describe the whole result shape), then binds once.
``iota`` takes no operands, so it is never batched and needs no rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import at_dim, batching_rules, move_dim
from jaxle_core.lax import cumulative as cu
from jaxle_core.lax import identity as ident
from jaxle_core.lax import reductions as rd
from jaxle_core.lax import sorting as so
from jaxle_core.lax import structural as st
from jaxle_core.lax.approx_top_k import approx_top_k_p


def _size(vals, dims) -> int:
    """The batch size, read off the first batched operand."""
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def _at_front(x: Any, dim: int | None, size: int) -> Any:
    """``x`` with its batch dimension first; an unbatched ``x`` is broadcast (Python-int dimensions, as JAX)."""
    if dim is not None:
        return move_dim(x, dim, 0)
    shape = get_aval(x).shape
    return st.broadcast_in_dim_p.bind(x, shape=(size,) + shape, broadcast_dimensions=tuple(range(1, len(shape) + 1)),
                                      sharding=None)


def _shift(axes, bdim: int) -> tuple:
    """Operand axes renumbered for an operand whose batch dimension sits at ``bdim``."""
    return tuple(np.where(np.less(axes, bdim), axes, np.add(axes, 1))) if len(axes) else ()


# ---------------------------------------------------------------- shapes


def _broadcast_in_dim_rule(vals, dims, *, shape, broadcast_dimensions, sharding):
    (x,), (d,) = vals, dims
    x = move_dim(x, d, 0)
    size = get_aval(x).shape[0]
    new_dims = (0,) + tuple(np.add(1, broadcast_dimensions))
    return st.broadcast_in_dim_p.bind(x, shape=(size,) + tuple(shape), broadcast_dimensions=new_dims,
                                      sharding=sharding), 0


def _reshape_rule(vals, dims, *, new_sizes, dimensions, sharding):
    (x,), (d,) = vals, dims
    x = move_dim(x, d, 0)
    size = get_aval(x).shape[0]
    if dimensions is not None:
        dimensions = (0,) + tuple(int(i) + 1 for i in dimensions)
    return st.reshape_p.bind(x, new_sizes=(size,) + tuple(new_sizes), dimensions=dimensions, sharding=sharding), 0


def _squeeze_rule(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    x = move_dim(x, d, 0)
    return st.squeeze_p.bind(x, dimensions=tuple(int(i) + 1 for i in dimensions)), 0


def _transpose_rule(vals, dims, *, permutation):
    (x,), (d,) = vals, dims
    perm = (d,) + tuple(p if p < d else p + 1 for p in permutation)
    return st.transpose_p.bind(x, permutation=perm), 0


def _rev_rule(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    return st.rev_p.bind(x, dimensions=tuple(i + 1 if i >= d else i for i in dimensions)), d


def _pad_rule(vals, dims, *, padding_config):
    (x, value), (d, vd) = vals, dims
    if vd is None:
        config = list(padding_config)
        config.insert(d, (0, 0, 0))
        return st.pad_p.bind(x, value, padding_config=tuple(config)), d
    # A batched padding value: pad with zeros, then select each example's value where the padding lies.
    if d is None:
        x, d = _at_front(x, None, get_aval(value).shape[vd]), 0
    config = list(padding_config)
    config.insert(d, (0, 0, 0))
    config = tuple(config)
    aval = get_aval(x)
    padded = st.pad_p.bind(x, np.zeros((), aval.dtype), padding_config=config)
    shape = get_aval(padded).shape
    inside = st.broadcast_in_dim_p.bind(np.bool_(True), shape=aval.shape, broadcast_dimensions=(), sharding=None)
    mask = st.pad_p.bind(inside, np.bool_(False), padding_config=config)
    fill = st.broadcast_in_dim_p.bind(value, shape=shape, broadcast_dimensions=(d,), sharding=None)
    return move_dim(st.select_n_p.bind(mask, fill, padded), d, 0), 0


def _concatenate_rule(vals, dims, *, dimension):
    size = _size(vals, dims)
    ops = [_at_front(v, d, size) for v, d in zip(vals, dims)]
    return st.concatenate_p.bind(*ops, dimension=dimension + 1), 0


def _split_rule(vals, dims, *, sizes, axis):
    (x,), (d,) = vals, dims
    return st.split_p.bind(x, sizes=sizes, axis=axis + 1 if axis >= d else axis), [d] * len(sizes)


def _stack_rule(vals, dims, *, axis):
    if all(d is not None for d in dims) and len(set(dims)) == 1:
        d = dims[0]  # one shared batch dimension: the new axis goes in around it
        return st.stack_p.bind(*vals, axis=axis if axis <= d else axis + 1), d + 1 if axis <= d else d
    size = _size(vals, dims)
    return st.stack_p.bind(*[_at_front(v, d, size) for v, d in zip(vals, dims)], axis=axis + 1), 0


def _unstack_rule(vals, dims, *, axis):
    (x,), (d,) = vals, dims
    outs = st.unstack_p.bind(x, axis=axis if axis < d else axis + 1)
    return outs, [d - 1 if axis < d else d] * len(outs)


def _tile_rule(vals, dims, *, reps):
    (x,), (d,) = vals, dims
    return st.tile_p.bind(x, reps=reps[:d] + (1,) + reps[d:]), d


def _bitcast_rule(vals, dims, *, new_dtype):
    (x,), (d,) = vals, dims
    aval = get_aval(x)
    if np.dtype(new_dtype).itemsize > aval.dtype.itemsize and d == aval.ndim - 1:
        x, d = move_dim(x, d, 0), 0  # the widening conversion consumes the trailing dimension
    return st.bitcast_convert_type_p.bind(x, new_dtype=new_dtype), d


def _identity_rule(primitive):
    def rule(vals, dims, **params):
        return primitive.bind(vals[0], **params), dims[0]

    return rule


# ---------------------------------------------------------------- reductions


def _reducer_rule(primitive):
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
    size = _size(vals, dims)
    ops = [at_dim(v, d, size, 0) for v, d in zip(vals[:n], dims[:n])]
    outs = rd.reduce_p.bind(*ops, *vals[n:], computation=computation, jaxpr=jaxpr,
                            dimensions=tuple(a + 1 for a in dimensions))
    return outs, [0] * n


# ---------------------------------------------------------------- cumulative and sorting


def _cumulative_rule(primitive):
    def rule(vals, dims, *, axis, reverse):
        (x,), (d,) = vals, dims
        return primitive.bind(x, axis=axis + 1 if axis >= d else axis, reverse=reverse), d

    return rule


def _sort_rule(vals, dims, *, dimension, is_stable, num_keys):
    proto, bdim = next((v, d) for v, d in zip(vals, dims) if d is not None)
    shape = get_aval(proto).shape
    ops = []
    for v, d in zip(vals, dims):
        if d is None:
            kept = tuple(i for i in range(len(shape)) if i != bdim)
            ops.append(st.broadcast_in_dim_p.bind(v, shape=shape, broadcast_dimensions=kept, sharding=None))
        else:
            ops.append(move_dim(v, d, bdim))
    new_dim = dimension + (bdim <= dimension)
    outs = so.sort_p.bind(*ops, dimension=new_dim, is_stable=is_stable, num_keys=num_keys)
    return outs, [bdim] * len(ops)


def _approx_top_k_rule(vals, dims, *, reduction_dimension, **params):
    (x,), (d,) = vals, dims
    # The reduction dimension is recorded nonnegative once batched, as JAX does.
    axis = reduction_dimension % (get_aval(x).ndim - 1)
    outs = approx_top_k_p.bind(x, reduction_dimension=axis + (axis >= d), **params)
    return outs, [d, d]


def _top_k_rule(vals, dims, *, k, axis):
    (x,), (d,) = vals, dims
    outs = so.top_k_p.bind(x, k=k, axis=axis + 1 if axis >= d else axis)
    return outs, [d, d]


def _register() -> None:
    rules: dict[Any, Any] = {
        st.broadcast_in_dim_p: _broadcast_in_dim_rule, st.reshape_p: _reshape_rule, st.squeeze_p: _squeeze_rule,
        st.transpose_p: _transpose_rule, st.rev_p: _rev_rule, st.pad_p: _pad_rule,
        st.concatenate_p: _concatenate_rule, st.split_p: _split_rule, st.bitcast_convert_type_p: _bitcast_rule,
        st.stack_p: _stack_rule, st.unstack_p: _unstack_rule, st.tile_p: _tile_rule,
        ident.copy_p: _identity_rule(ident.copy_p), ident.stop_gradient_p: _identity_rule(ident.stop_gradient_p),
        rd.reduce_p: _reduce_rule, so.sort_p: _sort_rule, so.top_k_p: _top_k_rule,
        approx_top_k_p: _approx_top_k_rule,
    }
    for p in (rd.reduce_sum_p, rd.reduce_prod_p, rd.reduce_max_p, rd.reduce_min_p, rd.reduce_and_p, rd.reduce_or_p,
              rd.reduce_xor_p, rd.argmax_p, rd.argmin_p):
        rules[p] = _reducer_rule(p)
    for p in (cu.cumsum_p, cu.cumprod_p, cu.cummax_p, cu.cummin_p, cu.cumlogsumexp_p):
        rules[p] = _cumulative_rule(p)
    batching_rules.update(rules)


_register()
