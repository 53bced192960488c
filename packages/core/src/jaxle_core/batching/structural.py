"""Batching rules of the structural primitives (shapes, concatenation, padding, selection, conversions).

Each rule renames the axes its primitive acts on so that they skip the batch dimension (moving the batch
dimension to the front where the primitive's parameters describe the whole result shape), then binds once.
``select_n`` and ``clamp`` bring their operands to one shape; the conversions are elementwise. ``iota`` takes no
operands, so it is never batched and needs no rule.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.batching.rule_helpers import batch_size, register_elementwise
from jaxle_core.batching.trace import (
    batching_rules,
    broadcast_to_batch,
    move_dim,
    per_example_errors,
    vmapped_sharding,
)
from jaxle_core.lax.structural import (
    bitcast_convert_type_p,
    broadcast_in_dim_p,
    clamp_p,
    concatenate_p,
    convert_element_type_p,
    pad_p,
    reduce_precision_p,
    reshape_p,
    rev_p,
    select_n_p,
    split_p,
    squeeze_p,
    stack_p,
    tile_p,
    transpose_p,
    unstack_p,
)


def _at_front(x: Any, dim: int | None, size: int) -> Any:
    """``x`` with its batch dimension first; an unbatched ``x`` is broadcast (Python-int dimensions, as JAX)."""
    if dim is not None:
        return move_dim(x, dim, 0)
    shape = get_aval(x).shape
    return broadcast_to_batch(x, (size,) + shape, tuple(range(1, len(shape) + 1)), 0)


# ---------------------------------------------------------------- shapes


def _broadcast_in_dim_rule(vals, dims, *, shape, broadcast_dimensions, sharding):
    (x,), (d,) = vals, dims
    x = move_dim(x, d, 0)
    size = get_aval(x).shape[0]
    new_dims = (0,) + tuple(np.add(1, broadcast_dimensions))
    return broadcast_in_dim_p.bind(x, shape=(size,) + tuple(shape), broadcast_dimensions=new_dims,
                                      sharding=vmapped_sharding(sharding, 0)), 0


def _reshape_rule(vals, dims, *, new_sizes, dimensions, sharding):
    (x,), (d,) = vals, dims
    x = move_dim(x, d, 0)
    size = get_aval(x).shape[0]
    if dimensions is not None:
        dimensions = (0,) + tuple(int(i) + 1 for i in dimensions)
    elif get_aval(x).shape == (size,) + tuple(new_sizes):  # a 0-d operand's reshape to (): nothing to do per row
        return x, 0
    return reshape_p.bind(x, new_sizes=(size,) + tuple(new_sizes), dimensions=dimensions,
                          sharding=vmapped_sharding(sharding, 0)), 0


def _squeeze_rule(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    x = move_dim(x, d, 0)
    return squeeze_p.bind(x, dimensions=tuple(int(i) + 1 for i in dimensions)), 0


def _transpose_rule(vals, dims, *, permutation):
    (x,), (d,) = vals, dims
    perm = (d,) + tuple(p if p < d else p + 1 for p in permutation)
    return transpose_p.bind(x, permutation=perm), 0


def _rev_rule(vals, dims, *, dimensions):
    (x,), (d,) = vals, dims
    return rev_p.bind(x, dimensions=tuple(i + 1 if i >= d else i for i in dimensions)), d


def _pad_rule(vals, dims, *, padding_config):
    (x, value), (d, vd) = vals, dims
    if vd is None:
        config = list(padding_config)
        config.insert(d, (0, 0, 0))
        return pad_p.bind(x, value, padding_config=tuple(config)), d
    # A batched padding value: pad with zeros, then select each example's value where the padding lies.
    if d is None:
        x, d = _at_front(x, None, get_aval(value).shape[vd]), 0
    config = list(padding_config)
    config.insert(d, (0, 0, 0))
    config = tuple(config)
    aval = get_aval(x)
    padded = pad_p.bind(x, np.zeros((), aval.dtype), padding_config=config)
    shape = get_aval(padded).shape
    inside = broadcast_in_dim_p.bind(np.bool_(True), shape=aval.shape, broadcast_dimensions=(), sharding=None)
    mask = pad_p.bind(inside, np.bool_(False), padding_config=config)
    fill = broadcast_in_dim_p.bind(value, shape=shape, broadcast_dimensions=(d,), sharding=None)
    return move_dim(select_n_p.bind(mask, fill, padded), d, 0), 0


def _concatenate_rule(vals, dims, *, dimension):
    size = batch_size(vals, dims)
    ops = [_at_front(v, d, size) for v, d in zip(vals, dims)]
    return concatenate_p.bind(*ops, dimension=dimension + 1), 0


def _split_rule(vals, dims, *, sizes, axis):
    (x,), (d,) = vals, dims
    return split_p.bind(x, sizes=sizes, axis=axis + 1 if axis >= d else axis), [d] * len(sizes)


def _stack_rule(vals, dims, *, axis):
    if all(d is not None for d in dims) and len(set(dims)) == 1:
        d = dims[0]  # one shared batch dimension: the new axis goes in around it
        return stack_p.bind(*vals, axis=axis if axis <= d else axis + 1), d + 1 if axis <= d else d
    size = batch_size(vals, dims)
    return stack_p.bind(*[_at_front(v, d, size) for v, d in zip(vals, dims)], axis=axis + 1), 0


def _unstack_rule(vals, dims, *, axis):
    (x,), (d,) = vals, dims
    outs = unstack_p.bind(x, axis=axis if axis < d else axis + 1)
    return outs, [d - 1 if axis < d else d] * len(outs)


def _tile_rule(vals, dims, *, reps):
    (x,), (d,) = vals, dims
    return tile_p.bind(x, reps=reps[:d] + (1,) + reps[d:]), d


def _bitcast_rule(vals, dims, *, new_dtype):
    (x,), (d,) = vals, dims
    aval = get_aval(x)
    if np.dtype(new_dtype).itemsize > aval.dtype.itemsize and d == aval.ndim - 1:
        x, d = move_dim(x, d, 0), 0  # the widening conversion consumes the trailing dimension
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), d


# ---------------------------------------------------------------- select_n and clamp: operands of one shape


def _materialise(x: Any, size: int, shape: tuple[int, ...]) -> Any:
    """An unbatched operand broadcast to ``(size, *shape)`` (its dimensions trailing, NumPy-computed as JAX's)."""
    lead = 1 + len(shape) - get_aval(x).ndim
    dims = tuple(np.int64(i + lead) for i in range(get_aval(x).ndim))
    return broadcast_to_batch(x, (size, *shape), dims, 0)


def _per_example(vals, dims) -> tuple[int, tuple[int, ...]]:
    """The batch size and the largest per-example shape among the operands."""
    size = batch_size(vals, dims)
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
    if which_dim is not None and all(d == which_dim for d in case_dims):
        # everything batched along the same dimension: no transposes (a batched scalar predicate is broadcast)
        case_shape = get_aval(cases[0]).shape
        if get_aval(which).shape != case_shape:
            which = broadcast_in_dim_p.bind(which, shape=case_shape, broadcast_dimensions=(which_dim,),
                                            sharding=None)
        return select_n_p.bind(which, *cases), which_dim
    if which_dim is None and not get_aval(which).ndim and len(set(case_dims)) == 1 and \
            len({get_aval(c).shape for c in cases}) == 1:
        return select_n_p.bind(which, *cases), case_dims[0]
    size, shape = _per_example(vals, dims)
    # in JAX's order: the predicate lined up first (a batched scalar one broadcast only after the cases)
    if which_dim is not None:
        which = move_dim(which, which_dim, 0)
    elif get_aval(which).ndim:
        which = _materialise(which, size, shape)
    cases = [_at_full_shape(c, d, size, shape) for c, d in zip(cases, case_dims)]
    if which_dim is not None:
        which = _at_full_shape(which, 0, size, shape)
    return select_n_p.bind(which, *cases), 0


def _clamp_rule(vals, dims):
    # clamp's bounds are scalars or of the operand's shape: unbatched scalar bounds of a batched operand stay
    # scalars, otherwise every operand is brought to the full shape (as JAX's rule does).
    (lower, x, upper), (lower_dim, x_dim, upper_dim) = vals, dims
    if lower_dim is None and upper_dim is None and not get_aval(lower).ndim and not get_aval(upper).ndim:
        return clamp_p.bind(lower, x, upper), x_dim
    size, shape = _per_example(vals, dims)
    # in JAX's order: the operand, the upper bound, the lower bound
    x, upper, lower = (_at_full_shape(vals[i], dims[i], size, shape) for i in (1, 2, 0))
    return clamp_p.bind(lower, x, upper), 0


def _convert_element_type_rule(vals, dims, *, new_dtype, weak_type, sharding):
    """Elementwise, a given ``sharding`` gaining the batch dimension where the operand has it."""
    (x,), (d,) = vals, dims
    return convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=weak_type,
                                       sharding=None if sharding is None else vmapped_sharding(sharding, d)), d


batching_rules.update({
    broadcast_in_dim_p: _broadcast_in_dim_rule, reshape_p: _reshape_rule, squeeze_p: _squeeze_rule,
    transpose_p: _transpose_rule, rev_p: _rev_rule, pad_p: _pad_rule, concatenate_p: _concatenate_rule,
    split_p: _split_rule, bitcast_convert_type_p: _bitcast_rule, stack_p: _stack_rule, unstack_p: _unstack_rule,
    tile_p: _tile_rule, select_n_p: _select_n_rule, clamp_p: _clamp_rule,
    convert_element_type_p: _convert_element_type_rule,
})
register_elementwise([reduce_precision_p])
per_example_errors.update({select_n_p, pad_p, convert_element_type_p})
