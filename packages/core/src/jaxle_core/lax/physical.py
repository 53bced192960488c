"""Physical rules of the structural primitives, for arrays of extended dtypes (see ``jaxle_core.extended``).

Each element of an extended array is a block of trailing physical dimensions; moving elements around
(reshaping, transposing, slicing, gathering, selecting, joining) is the same operation on the physical array
with those trailing dimensions carried along whole.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.extended import physical_aval, physical_rules
from jaxle_core.lax.elementwise import eq_p, ne_p
from jaxle_core.lax.identity import copy_p
from jaxle_core.lax.placement import reshard_p, sharding_constraint_p
from jaxle_core.lax.reductions import reduce_and_p, reduce_or_p
from jaxle_core.lax.slicing import (
    GatherDimensionNumbers,
    dynamic_slice_p,
    dynamic_update_slice_p,
    gather_p,
    scatter_p,
    slice_p,
)
from jaxle_core.lax.structural import (
    broadcast_in_dim_p,
    concatenate_p,
    reshape_p,
    rev_p,
    select_n_p,
    squeeze_p,
    stack_p,
    transpose_p,
)

__all__: list[str] = []


def _trailing(aval: Any) -> tuple[int, ...]:
    """The physical dimensions each element of ``aval`` adds after its shape."""
    return physical_aval(aval).shape[aval.ndim:]


def _rule(primitive):
    def register(rule):
        physical_rules[primitive] = rule
        return rule

    return register


@_rule(reshape_p)
def _reshape(x, *, avals_in, avals_out, new_sizes, dimensions, sharding):
    extra = _trailing(avals_out[0])
    dims = None if dimensions is None else tuple(dimensions) + tuple(range(len(dimensions),
                                                                          len(dimensions) + len(extra)))
    return [reshape_p.bind(x, new_sizes=tuple(new_sizes) + extra, dimensions=dims, sharding=sharding)]


@_rule(reshard_p)
def _reshard(x, *, avals_in, avals_out, dst_sharding):
    return [reshard_p.bind(x, dst_sharding=dst_sharding)]  # each element's block whole (the spec's trailing Nones)


@_rule(sharding_constraint_p)
def _sharding_constraint(x, *, avals_in, avals_out, **params):
    return [sharding_constraint_p.bind(x, **params)]  # each element's block whole (the spec's trailing Nones)


@_rule(transpose_p)
def _transpose(x, *, avals_in, avals_out, permutation):
    n = len(permutation)
    extra = tuple(range(n, n + len(_trailing(avals_in[0]))))
    return [transpose_p.bind(x, permutation=tuple(permutation) + extra)]


@_rule(broadcast_in_dim_p)
def _broadcast_in_dim(x, *, avals_in, avals_out, shape, broadcast_dimensions, sharding):
    extra = _trailing(avals_out[0])
    n = len(shape)
    return [broadcast_in_dim_p.bind(x, shape=tuple(shape) + extra, sharding=sharding,
                                    broadcast_dimensions=tuple(broadcast_dimensions) + tuple(range(n, n + len(extra))))]


@_rule(squeeze_p)
def _squeeze(x, *, avals_in, avals_out, dimensions):
    return [squeeze_p.bind(x, dimensions=dimensions)]


@_rule(rev_p)
def _rev(x, *, avals_in, avals_out, dimensions):
    return [rev_p.bind(x, dimensions=dimensions)]


@_rule(stack_p)
def _stack(*xs, avals_in, avals_out, axis):
    return [stack_p.bind(*xs, axis=axis)]


@_rule(concatenate_p)
def _concatenate(*xs, avals_in, avals_out, dimension):
    return [concatenate_p.bind(*xs, dimension=dimension)]


@_rule(copy_p)
def _copy(x, *, avals_in, avals_out):
    return [copy_p.bind(x)]


@_rule(slice_p)
def _slice(x, *, avals_in, avals_out, start_indices, limit_indices, strides):
    extra = _trailing(avals_in[0])
    return [slice_p.bind(x, start_indices=tuple(start_indices) + (0,) * len(extra),
                         limit_indices=tuple(limit_indices) + extra,
                         strides=None if strides is None else tuple(strides) + (1,) * len(extra))]


@_rule(dynamic_slice_p)
def _dynamic_slice(x, *indices, avals_in, avals_out, slice_sizes):
    extra = _trailing(avals_in[0])
    zeros = [np.zeros((), avals_in[1].dtype)] * len(extra) if indices else []
    return [dynamic_slice_p.bind(x, *indices, *zeros, slice_sizes=tuple(slice_sizes) + extra)]


@_rule(dynamic_update_slice_p)
def _dynamic_update_slice(x, update, *indices, avals_in, avals_out):
    zeros = [np.zeros((), avals_in[2].dtype)] * len(_trailing(avals_in[0])) if indices else []
    return [dynamic_update_slice_p.bind(x, update, *indices, *zeros)]


@_rule(gather_p)
def _gather(operand, indices, *, avals_in, avals_out, dimension_numbers, slice_sizes, **params):
    extra = _trailing(avals_in[0])
    out_rank = avals_out[0].ndim
    dn = dimension_numbers
    dn = GatherDimensionNumbers(dn.offset_dims + tuple(range(out_rank, out_rank + len(extra))),
                                dn.collapsed_slice_dims, dn.start_index_map, dn.operand_batching_dims,
                                dn.start_indices_batching_dims)
    return [gather_p.bind(operand, indices, dimension_numbers=dn, slice_sizes=tuple(slice_sizes) + extra, **params)]


@_rule(scatter_p)
def _scatter(operand, indices, updates, *, avals_in, avals_out, dimension_numbers, **params):
    # each update's element is a window of trailing dimensions written whole
    extra = _trailing(avals_in[0])
    rank = avals_in[2].ndim
    dn = dimension_numbers._replace(
        update_window_dims=dimension_numbers.update_window_dims + tuple(range(rank, rank + len(extra))))
    return [scatter_p.bind(operand, indices, updates, dimension_numbers=dn, **params)]


@_rule(select_n_p)
def _select_n(which, *cases, avals_in, avals_out):
    # the predicate picks whole elements: broadcast it over their trailing dimensions
    if avals_in[0].ndim:
        shape = physical_aval(avals_out[0]).shape
        which = broadcast_in_dim_p.bind(which, shape=shape, broadcast_dimensions=tuple(range(avals_in[0].ndim)),
                                        sharding=None)
    return [select_n_p.bind(which, *cases)]


# Equality of extended elements (two keys are equal when all their data is): eq and ne accept two operands of
# one extended dtype, as JAX's do.


def _comparison_of_elements(primitive, reduction):
    numeric_aval = primitive.abstract_eval

    def aval(x, y):
        if dtypes.is_extended(x.dtype) or dtypes.is_extended(y.dtype):
            if x.dtype != y.dtype:
                raise TypeError(f"{primitive.name} requires arguments to have the same dtypes, got {x.dtype}, "
                                f"{y.dtype}.")
            shape = x.shape if x.ndim >= y.ndim else y.shape
            return ShapedArray(shape, np.dtype(np.bool_))
        return numeric_aval(x, y)

    primitive.def_abstract_eval(aval)

    @_rule(primitive)
    def _compare(x, y, *, avals_in, avals_out):
        trailing = _trailing(avals_in[0])
        n = avals_out[0].ndim
        shape = avals_out[0].shape + trailing
        x, y = (v if a.shape == avals_out[0].shape else
                broadcast_in_dim_p.bind(v, shape=shape, sharding=None, broadcast_dimensions=tuple(
                    range(n - a.ndim, n + len(trailing)))) for v, a in zip((x, y), avals_in))
        return [reduction.bind(primitive.bind(x, y), axes=tuple(range(n, n + len(trailing))))]


_comparison_of_elements(eq_p, reduce_and_p)
_comparison_of_elements(ne_p, reduce_or_p)
