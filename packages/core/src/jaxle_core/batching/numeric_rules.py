"""Batching rules of the contractions, convolutions, windowed reductions and special functions.

The batch dimension becomes a batch dimension of ``dot_general``, is folded into the batch or feature
dimensions of a convolution, and gets a window of size one in the windowed reductions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.batching.elementwise_rules import elementwise_batcher
from jaxle_core.batching.trace import at_dim, batching_rules
from jaxle_core.core import Primitive
from jaxle_core.lax import special
from jaxle_core.lax import windowed as win
from jaxle_core.lax.convolution import conv_general_dilated_p
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.ragged_dot import RaggedDotDimensionNumbers, ragged_dot_general, ragged_dot_general_p
from jaxle_core.lax.scaled_dot import scaled_dot_p
from jaxle_core.lax.structural import merge_axis, split_axis

# ---------------------------------------------------------------- dot_general


def _shift_past(dims: tuple[int, ...], inserted: int) -> tuple[int, ...]:
    """Dimension indices after a new dimension is inserted at ``inserted``."""
    return tuple(d + (d >= inserted) for d in dims)


def _dot_general_batch_numbers(ndims: tuple[int, int], bdims: tuple[int | None, int | None], dimension_numbers):
    """The dimension numbers of the batched contraction and the result's batch dimension."""
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    lbd, rbd = bdims
    if lbd is not None and rbd is not None:
        numbers = ((_shift_past(lhs_contract, lbd), _shift_past(rhs_contract, rbd)),
                   ((lbd, *_shift_past(lhs_batch, lbd)), (rbd, *_shift_past(rhs_batch, rbd))))
        return numbers, 0
    if lbd is not None:
        free = [d for d in range(ndims[0]) if d not in lhs_batch and d not in lhs_contract and d < lbd]
        numbers = ((_shift_past(lhs_contract, lbd), rhs_contract), (_shift_past(lhs_batch, lbd), rhs_batch))
        return numbers, len(lhs_batch) + len(free)
    free = [d for d in range(ndims[1]) if d not in rhs_batch and d not in rhs_contract and d < rbd]
    numbers = ((lhs_contract, _shift_past(rhs_contract, rbd)), (lhs_batch, _shift_past(rhs_batch, rbd)))
    return numbers, ndims[0] - len(lhs_contract) + len(free)


def _dot_general_rule(vals, dims, *, dimension_numbers, precision, preferred_element_type, out_sharding):
    lhs, rhs = vals
    ndims = (get_aval(lhs).ndim, get_aval(rhs).ndim)
    numbers, out_dim = _dot_general_batch_numbers(ndims, tuple(dims), dimension_numbers)
    out = lax.dot_general(lhs, rhs, numbers, precision=precision, preferred_element_type=preferred_element_type,
                          out_sharding=out_sharding)
    return out, out_dim


batching_rules[dot_general_p] = _dot_general_rule


def _ragged_dot_general_rule(vals, dims, *, ragged_dot_dimension_numbers, **params):
    """As JAX, only all three operands batched along their first dimension, which becomes a batch dimension of
    the contraction (and of the group sizes)."""
    if tuple(dims) != (0, 0, 0):
        raise NotImplementedError("ragged_dot vmap over any dim but 0 - NYI")
    numbers = ragged_dot_dimension_numbers
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = numbers.dot_dimension_numbers
    # JAX shifts the dimensions with NumPy arithmetic; its jaxprs print them as np.int64.
    shift = lambda ds: tuple(np.int64(d) + 1 for d in ds)  # noqa: E731
    shifted = RaggedDotDimensionNumbers(
        ((shift(lhs_contract), shift(rhs_contract)), ((0, *shift(lhs_batch)), (0, *shift(rhs_batch)))),
        shift(numbers.lhs_ragged_dimensions), shift(numbers.rhs_group_dimensions))
    return ragged_dot_general(*vals, shifted, **params), 0


batching_rules[ragged_dot_general_p] = _ragged_dot_general_rule


def _scaled_dot_rule(vals, dims, *, dimension_numbers, preferred_element_type):
    """Every operand (unbatched ones broadcast) batched along a new leading batch dimension of the contraction."""
    size = next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)
    operands = [at_dim(v, d, size) for v, d in zip(vals, dims)]
    (lhs_contract, rhs_contract), (lhs_batch, rhs_batch) = dimension_numbers
    shift = lambda ds: tuple(d + 1 for d in ds)  # noqa: E731
    numbers = ((shift(lhs_contract), shift(rhs_contract)), ((0, *shift(lhs_batch)), (0, *shift(rhs_batch))))
    return scaled_dot_p.bind(*operands, dimension_numbers=numbers, preferred_element_type=preferred_element_type), 0


batching_rules[scaled_dot_p] = _scaled_dot_rule

# ---------------------------------------------------------------- conv_general_dilated


def _regroup(x: Any, bdim: int, dim: int, groups: int) -> Any:
    """Fold batch dimension ``bdim`` into ``dim`` inside each of its ``groups`` leading groups."""
    x = split_axis(x, dim + int(bdim <= dim), groups)
    x = merge_axis(x, bdim + int(dim < bdim), dim + 1)
    return merge_axis(x, dim, dim)


def _conv_rule(vals, dims, **params):
    lhs, rhs = vals
    lhs_bdim, rhs_bdim = dims
    lhs_spec, rhs_spec, out_spec = params["dimension_numbers"]
    feature_groups, batch_groups = params["feature_group_count"], params["batch_group_count"]
    bind = conv_general_dilated_p.bind
    if lhs_bdim is not None and rhs_bdim is not None:
        size = get_aval(lhs).shape[lhs_bdim]
        if batch_groups > 1:
            new_lhs = merge_axis(lhs, lhs_bdim, lhs_spec[0])
            params = dict(params, batch_group_count=batch_groups * size)
        else:
            new_lhs = merge_axis(lhs, lhs_bdim, lhs_spec[1])
            params = dict(params, feature_group_count=feature_groups * size)
        out = bind(new_lhs, merge_axis(rhs, rhs_bdim, rhs_spec[0]), **params)
        return split_axis(out, out_spec[1], size), out_spec[1]
    if lhs_bdim is not None:
        size = get_aval(lhs).shape[lhs_bdim]
        if batch_groups == 1:
            new_lhs = merge_axis(lhs, lhs_bdim, lhs_spec[0])
        else:
            new_lhs = _regroup(lhs, lhs_bdim, lhs_spec[0], batch_groups)
        return split_axis(bind(new_lhs, rhs, **params), out_spec[0], size), out_spec[0]
    size = get_aval(rhs).shape[rhs_bdim]
    if feature_groups == 1 and batch_groups == 1:
        out = bind(lhs, merge_axis(rhs, rhs_bdim, rhs_spec[0]), **params)
        return split_axis(out, out_spec[1], size), out_spec[1]
    groups = feature_groups if feature_groups > 1 else batch_groups
    out = bind(lhs, _regroup(rhs, rhs_bdim, rhs_spec[0], groups), **params)
    out = split_axis(out, out_spec[1], groups)
    out = split_axis(out, out_spec[1] + 1, size)
    return merge_axis(out, out_spec[1], out_spec[1] + 1), out_spec[1]


batching_rules[conv_general_dilated_p] = _conv_rule

# ---------------------------------------------------------------- windowed reductions


def _with_unit_window(at: int, *, window_dimensions, window_strides, padding, **dilations) -> dict:
    """Window params with a size-one, stride-one, unpadded, undilated window dimension inserted at ``at``."""
    def ins(t, v):
        return tuple(t[:at]) + (v,) + tuple(t[at:])
    out = dict(window_dimensions=ins(window_dimensions, 1), window_strides=ins(window_strides, 1),
               padding=ins(padding, (0, 0)))
    out.update({name: ins(value, 1) for name, value in dilations.items()})
    return out


def _monoid_window_batcher(primitive: Primitive):
    """The rule of reduce_window_sum/max/min: a unit window along the batch dimension, which stays in place."""

    def rule(vals, dims, **params):
        (x,), (bdim,) = vals, dims
        return primitive.bind(x, **_with_unit_window(bdim, **params)), bdim

    return rule


for _p in (win.reduce_window_sum_p, win.reduce_window_max_p, win.reduce_window_min_p):
    batching_rules[_p] = _monoid_window_batcher(_p)


def _batch_size(vals, dims) -> int:
    return next(get_aval(v).shape[d] for v, d in zip(vals, dims) if d is not None)


def _reduce_window_rule(vals, dims, *, jaxpr, consts, **params):
    count = len(vals) // 2
    if any(d is not None for d in dims[count:]):
        raise NotImplementedError("reduce_window batching is not implemented for initial values")
    size = _batch_size(vals, dims)
    operands = [at_dim(v, d, size) for v, d in zip(vals[:count], dims[:count])]
    outs = win.reduce_window_p.bind(*operands, *vals[count:], jaxpr=jaxpr, consts=consts,
                                    **_with_unit_window(0, **params))
    return outs, [0] * count


batching_rules[win.reduce_window_p] = _reduce_window_rule


def _select_and_gather_add_rule(vals, dims, *, select_prim, **params):
    size = _batch_size(vals, dims)
    tangents, operand = (at_dim(v, d, size) for v, d in zip(vals, dims))
    out = win.select_and_gather_add_p.bind(tangents, operand, select_prim=select_prim,
                                           **_with_unit_window(0, **params))
    return out, 0


def _select_and_scatter_add_rule(vals, dims, *, select_prim, **params):
    size = _batch_size(vals, dims)
    source, operand = (at_dim(v, d, size) for v, d in zip(vals, dims))
    out = win.select_and_scatter_add_p.bind(source, operand, select_prim=select_prim,
                                            **_with_unit_window(0, **params))
    return out, 0


batching_rules[win.select_and_gather_add_p] = _select_and_gather_add_rule
batching_rules[win.select_and_scatter_add_p] = _select_and_scatter_add_rule

# ---------------------------------------------------------------- special functions

for _p in vars(special).values():
    if isinstance(_p, Primitive) and _p not in batching_rules:
        batching_rules[_p] = elementwise_batcher(_p)
