"""Batching rules of the named-axis collectives (``lax/parallel.py``).

A rule receives the ``BatchTrace``: the part of a collective naming the trace's
own axis becomes array operations over the batch dimension (a reduction over it,
a transpose moving it, an ``iota`` for ``axis_index``); the rest is bound again,
with batched operands, for the enclosing traces (``ragged_all_to_all`` is not batched, as in
JAX, and ``pbroadcast`` only batches NumPy operands, as JAX's rule does). Positional axes in ``psum``'s
``axes`` are per-example dimensions, shifted here past the batch dimension.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import core
from jaxle_core.avals import get_aval
from jaxle_core.batching.trace import (
    BatchTrace,
    BatchTracer,
    DeviceTrace,
    at_dim,
    batching_rules,
    collective_rules,
    move_dim,
)
from jaxle_core.core import Primitive
from jaxle_core.jit import jit
from jaxle_core.lax import parallel as lax_parallel
from jaxle_core.lax.elementwise import add, lt, mul
from jaxle_core.lax.reductions import reduce_sum
from jaxle_core.lax.slicing import (
    GatherDimensionNumbers,
    GatherScatterMode,
    dynamic_index_in_dim,
    dynamic_slice_in_dim,
    gather,
)
from jaxle_core.lax.structural import broadcast_in_dim, concatenate, iota, reshape, select_n, transpose
from jaxle_core.mesh import get_abstract_mesh

# JAX's words for axis_index_groups under vmap: the reductions', the gathers' and scatters', all_to_all's.
_GROUPS_IN_VMAP = "axis_index_groups not supported in vmap collectives. Please open a feature request!"
_GATHER_GROUPS_IN_VMAP = "axis_index_groups not supported in vmap"
_EXCHANGE_GROUPS_IN_VMAP = "Please open a feature request!"


def _no_groups(axis_index_groups: Any, message: str = _GROUPS_IN_VMAP) -> None:
    if axis_index_groups is not None:
        raise NotImplementedError(message)


def _over_own_axis(trace: BatchTrace, names: tuple[Any, ...], axis_index_groups: Any,
                   groups_message: str = _GROUPS_IN_VMAP) -> bool:
    """Whether the collective over ``names`` involves ``trace``'s axis (the rules see several names only through
    ``_over_several_axes``)."""
    if trace.axis_name is None or trace.axis_name not in names:
        return False
    _no_groups(axis_index_groups, groups_message)
    return True


def _over_several_axes(trace: BatchTrace, names: tuple[Any, ...], axis_index_groups: Any,
                       groups_message: str = _GROUPS_IN_VMAP) -> bool:
    """Whether the collective names ``trace``'s axis among others, or, on devices, within groups of members
    (either is written as collectives over one name each: ``_at_trace``)."""
    if trace.axis_name is None or trace.axis_name not in names:
        return False
    if axis_index_groups is not None:
        _no_groups(None if isinstance(trace, DeviceTrace) else axis_index_groups, groups_message)
        return True
    return len(names) > 1


def _unsupported_in_vmap(trace: BatchTrace, axis_size: int) -> Exception:
    """JAX's refusal, under ``vmap``, of a gather or scatter over several names including the mapped axis: the
    sizes differ unless the other axes have size 1, and then the combination is not implemented."""
    if axis_size != trace.axis_size:
        return AssertionError("axis size doesn't match")
    return NotImplementedError("Please open a feature request!")


def _at_trace(trace: BatchTrace, vals, dims, compute) -> tuple[Any, Any]:
    """``compute(*operands)`` evaluated at ``trace`` itself (the operands its tracers), as a rule's result: a
    collective over several names written as collectives over one name each, which this trace and the enclosing
    ones handle (on devices, members are numbered row-major over the names, in their order)."""
    tracers = [BatchTracer(trace, v, d) for v, d in zip(vals, dims)]
    with core.set_current_trace(trace):
        out = compute(*tracers)
    return trace.to_val_dim(out)


def _in_mesh_order(names: tuple[Any, ...]) -> tuple[Any, ...]:
    """``names`` in the order of the context mesh's axes (as given when they are not all its axes)."""
    order = get_abstract_mesh().axis_names
    return tuple(sorted(names, key=order.index)) if all(n in order for n in names) else tuple(names)


def _gathered(x: Any, names: tuple[Any, ...], dim: int) -> Any:
    """Every member's ``x`` stacked along one new dimension ``dim``, row-major over ``names``."""
    shape = get_aval(x).shape
    for name in reversed(names):
        x = lax_parallel.all_gather(x, name, axis=dim)
    return reshape(x, shape[:dim] + (lax_parallel.axis_size(names),) + shape[dim:]) if len(names) > 1 else x


def _group_members(x: Any, names: tuple[Any, ...], groups: tuple[tuple[int, ...], ...]) -> tuple[Any, Any]:
    """The ``x`` of every member of this member's group, stacked along a new dimension 0 in the group's order, and
    this member's position in its group (members numbered row-major over ``names``, as XLA numbers devices)."""
    group_of = np.zeros(lax_parallel.axis_size(names), np.int32)
    position_of = np.zeros_like(group_of)
    for index, group in enumerate(groups):
        group_of[list(group)] = index
        position_of[list(group)] = np.arange(len(group), dtype=np.int32)
    member = lax_parallel.axis_index(names)
    group = dynamic_index_in_dim(np.array(groups, np.int32), dynamic_index_in_dim(group_of, member, 0, False), 0,
                                 False)
    return _take(_gathered(x, names, 0), group), dynamic_index_in_dim(position_of, member, 0, False)


def _grouped_reduction(primitive: Primitive, x: Any, names: tuple[Any, ...],
                       groups: tuple[tuple[int, ...], ...]) -> Any:
    """Each member's reduction over the members of its group."""
    members, _ = _group_members(x, names, groups)
    return primitive.bind(members, axes=(0,), axis_index_groups=None)


def _gather_over_several(x, *, all_gather_dimension, axis_name, tiled, axis_index_groups=None, **params):
    if axis_index_groups is None:
        gathered = _gathered(x, axis_name, all_gather_dimension)
    else:
        gathered = move_dim(_group_members(x, axis_name, axis_index_groups)[0], 0, all_gather_dimension)
    if not tiled:
        return gathered
    shape = get_aval(gathered).shape
    merged = shape[all_gather_dimension] * shape[all_gather_dimension + 1]
    return reshape(gathered, shape[:all_gather_dimension] + (merged,) + shape[all_gather_dimension + 2:])


def _scatter_over_several(x, *, axis_name, scatter_dimension, tiled, axis_index_groups=None, **params):
    if axis_index_groups is None:
        total, member, size = lax_parallel.psum(x, axis_name), lax_parallel.axis_index(axis_name), \
            lax_parallel.axis_size(axis_name)
    else:
        members, member = _group_members(x, axis_name, axis_index_groups)
        total, size = reduce_sum(members, (0,)), len(axis_index_groups[0])
    if not tiled:
        return dynamic_index_in_dim(total, member, scatter_dimension, keepdims=False)
    chunk = get_aval(total).shape[scatter_dimension] // size
    return dynamic_slice_in_dim(total, mul(member, np.int32(chunk)), chunk, scatter_dimension)


def _exchange_over_several(x, *, split_axis, concat_axis, axis_name, axis_index_groups=None, **params):
    # Member r (of its group) takes chunk r of every member's split axis, in member order along its concat axis.
    names = lax_parallel.axis_names(axis_name)
    if axis_index_groups is None:
        gathered, member, size = _gathered(x, names, 0), lax_parallel.axis_index(names), lax_parallel.axis_size(names)
    else:
        (gathered, member), size = _group_members(x, names, axis_index_groups), len(axis_index_groups[0])
    chunk = get_aval(x).shape[split_axis] // size
    chunks = dynamic_slice_in_dim(gathered, mul(member, np.int32(chunk)), chunk, split_axis + 1)
    moved = move_dim(chunks, 0, concat_axis)
    shape = get_aval(moved).shape
    return reshape(moved, shape[:concat_axis] + (shape[concat_axis] * shape[concat_axis + 1],)
                   + shape[concat_axis + 2:])


def _permute_over_several(x, *, axis_name, perm):
    # Every member's value, with zeros after them for the members no pair sends to, indexed by the sender. As in
    # JAX (whose lowering pairs devices so), the members are numbered in mesh order, whatever the names' order.
    axis_name = _in_mesh_order(axis_name)
    gathered = _gathered(x, axis_name, 0)
    size = get_aval(gathered).shape[0]
    senders = np.full(size, size, np.int32)
    for source, destination in perm:
        senders[destination] = source
    aval = get_aval(x)
    padded = concatenate([gathered, broadcast_in_dim(np.zeros((), aval.dtype), (1, *aval.shape), ())], 0)
    sender = dynamic_index_in_dim(senders, lax_parallel.axis_index(axis_name), 0, keepdims=False)
    return dynamic_index_in_dim(padded, sender, 0, keepdims=False)


def _to_front(x: Any, dim: int | None) -> Any:
    return x if dim is None else move_dim(x, dim, 0)


# ---------------------------------------------------------------- psum, pmax, pmin


def _reduction_rule(primitive: Primitive):

    def rule(trace: BatchTrace, vals, dims, *, axes, axis_index_groups=None):
        (x,), (dim,) = vals, dims
        own = trace.axis_name is not None and trace.axis_name in axes
        if own and axis_index_groups is not None and isinstance(trace, DeviceTrace):
            names = lax_parallel.split_axes(axes)[0]
            return _at_trace(trace, vals, dims, lambda v: _grouped_reduction(primitive, v, names, axis_index_groups))
        if own:
            _no_groups(axis_index_groups)
        new_axes = []
        for axis in axes:
            if own and axis == trace.axis_name:
                if dim is not None:
                    new_axes.append(dim)
            elif isinstance(axis, (int, np.integer)) and dim is not None:
                new_axes.append(int(axis) + (axis >= dim))
            else:
                new_axes.append(axis)
        if own and dim is None and primitive in (lax_parallel.psum_p, lax_parallel.psum_invariant_p):
            x = mul(np.array(trace.axis_size, get_aval(x).dtype), x)
        if new_axes or not own:
            x = _bind_reduction(primitive, x, tuple(new_axes), axis_index_groups)
        if dim is None or own:
            return x, None
        return x, dim - sum(1 for a in new_axes if isinstance(a, int) and a < dim)

    return rule


def _bind_reduction(primitive: Primitive, x: Any, axes: tuple, axis_index_groups: Any) -> Any:
    # psum_invariant names manual axes only: a sum over positional ones (a mapped axis) is a psum.
    if primitive is lax_parallel.psum_invariant_p:
        if not any(isinstance(a, int) for a in axes):
            return primitive.bind(x, axes=axes)
        primitive = lax_parallel.psum_p
    return primitive.bind(x, axes=axes, axis_index_groups=axis_index_groups)


for _primitive in (lax_parallel.psum_p, lax_parallel.pmax_p, lax_parallel.pmin_p, lax_parallel.psum_invariant_p):
    collective_rules[_primitive] = _reduction_rule(_primitive)


def _pvary_rule(trace: BatchTrace, vals, dims, *, axes):
    # Varying is a type: over the trace's own axis the values stay as they are.
    (x,), (dim,) = vals, dims
    others = tuple(a for a in axes if a != trace.axis_name)
    return (lax_parallel.pvary_p.bind(x, axes=others) if others else x), dim


collective_rules[lax_parallel.pvary_p] = _pvary_rule


# ---------------------------------------------------------------- all_gather and reduce_scatter


def _all_gather_rule(trace: BatchTrace, vals, dims, *, all_gather_dimension, axis_name, axis_index_groups,
                     axis_size, tiled):
    (x,), (dim,) = vals, dims
    params = dict(axis_name=axis_name, axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled)
    if _over_several_axes(trace, axis_name, axis_index_groups, _GATHER_GROUPS_IN_VMAP):
        if not isinstance(trace, DeviceTrace):
            raise _unsupported_in_vmap(trace, axis_size)
        return _at_trace(trace, vals, dims, lambda v: _gather_over_several(
            v, all_gather_dimension=all_gather_dimension, **params))
    if not _over_own_axis(trace, axis_name, axis_index_groups, _GATHER_GROUPS_IN_VMAP):
        gather_dim = all_gather_dimension + (dim is not None)
        return lax_parallel.all_gather_p.bind(_to_front(x, dim), all_gather_dimension=gather_dim, **params), \
            (None if dim is None else 0)
    if dim is None:
        shape = get_aval(x).shape
        out_shape = shape[:all_gather_dimension] + (trace.axis_size,) + shape[all_gather_dimension:]
        kept = tuple(i for i in range(len(out_shape)) if i != all_gather_dimension)
        out = broadcast_in_dim(x, out_shape, kept)
    else:
        out = move_dim(x, dim, all_gather_dimension)
    if tiled:
        shape = get_aval(out).shape
        merged = shape[all_gather_dimension] * shape[all_gather_dimension + 1]
        out = reshape(out, shape[:all_gather_dimension] + (merged,) + shape[all_gather_dimension + 2:])
    return out, None


def _reduce_scatter_rule(trace: BatchTrace, vals, dims, *, axis_name, scatter_dimension, axis_index_groups,
                         axis_size, tiled):
    (x,), (dim,) = vals, dims
    if _over_several_axes(trace, axis_name, axis_index_groups, _GATHER_GROUPS_IN_VMAP):
        if not isinstance(trace, DeviceTrace):
            raise _unsupported_in_vmap(trace, axis_size)
        return _at_trace(trace, vals, dims, lambda v: _scatter_over_several(
            v, axis_name=axis_name, scatter_dimension=scatter_dimension, tiled=tiled,
            axis_index_groups=axis_index_groups))
    if not _over_own_axis(trace, axis_name, axis_index_groups, _GATHER_GROUPS_IN_VMAP):
        return lax_parallel.reduce_scatter_p.bind(_to_front(x, dim), axis_name=axis_name,
                                         scatter_dimension=scatter_dimension + (dim is not None),
                                         axis_index_groups=axis_index_groups, axis_size=axis_size, tiled=tiled), \
            (None if dim is None else 0)
    size = trace.axis_size
    # Member j receives the sum over members of their chunk j: that of an unbatched value is size times its own.
    summed = mul(x, np.array(size, get_aval(x).dtype)) if dim is None else reduce_sum(x, (dim,))
    shape = get_aval(summed).shape
    extent = shape[scatter_dimension]
    if not tiled:
        if extent != size:
            raise ValueError(f"reduce_scatter operand scatter dimension size {extent} must match shard count {size}")
        return summed, scatter_dimension
    if extent % size:
        raise ValueError(f"tiled reduce_scatter operand scatter dimension size {extent} must be divisible by "
                         f"shard_count {size}")
    split = shape[:scatter_dimension] + (size, extent // size) + shape[scatter_dimension + 1:]
    return reshape(summed, split), scatter_dimension


collective_rules[lax_parallel.all_gather_p] = _all_gather_rule


def _all_gather_invariant_rule(trace: BatchTrace, vals, dims, *, all_gather_dimension, axis_name, axis_size, tiled):
    # Over the trace's own axis a gather is the same whatever its type; only a device's trace has manual axes
    # (under vmap, JAX's type check fails as pcast's does).
    if trace.axis_name in axis_name and not isinstance(trace, DeviceTrace):
        raise AssertionError(f"ManualAxisType(varying={frozenset(axis_name)}, unreduced=frozenset(), "
                             "reduced=frozenset())")
    if _over_own_axis(trace, axis_name, None):
        return _all_gather_rule(trace, vals, dims, all_gather_dimension=all_gather_dimension, axis_name=axis_name,
                                axis_index_groups=None, axis_size=axis_size, tiled=tiled)
    (x,), (dim,) = vals, dims
    return lax_parallel.all_gather_invariant_p.bind(
        _to_front(x, dim), all_gather_dimension=all_gather_dimension + (dim is not None), axis_name=axis_name,
        axis_size=axis_size, tiled=tiled), (None if dim is None else 0)


collective_rules[lax_parallel.all_gather_invariant_p] = _all_gather_invariant_rule
collective_rules[lax_parallel.reduce_scatter_p] = _reduce_scatter_rule


# ---------------------------------------------------------------- all_to_all


def _all_to_all_rule(trace: BatchTrace, vals, dims, *, split_axis, concat_axis, axis_name, axis_index_groups,
                     tiled):
    (x,), (dim,) = vals, dims
    if _over_several_axes(trace, lax_parallel.axis_names(axis_name), axis_index_groups, _EXCHANGE_GROUPS_IN_VMAP):
        return _at_trace(trace, vals, dims, lambda v: _exchange_over_several(
            v, split_axis=split_axis, concat_axis=concat_axis, axis_name=axis_name,
            axis_index_groups=axis_index_groups))
    if not _over_own_axis(trace, lax_parallel.axis_names(axis_name), axis_index_groups, _EXCHANGE_GROUPS_IN_VMAP):
        shift = dim is not None
        return lax_parallel.all_to_all_p.bind(_to_front(x, dim), split_axis=split_axis + shift,
                                     concat_axis=concat_axis + shift, axis_name=axis_name,
                                     axis_index_groups=axis_index_groups, tiled=tiled), (0 if shift else None)
    size = trace.axis_size
    if dim is None:
        x, dim = at_dim(x, None, size, 0), 0
    shape = get_aval(x).shape
    ndim = len(shape) - 1
    split, concat = split_axis % ndim, concat_axis % ndim  # pswapaxes passes negative axes through
    # Member j receives chunk j of every member k's split axis, concatenated in order along its concat axis. As
    # JAX's rule (whose jaxprs these are): with one axis for both, the batch dimension is swapped with the chunk
    # index of the split axis; otherwise the batch dimension joins the concat axis and the chunk index of the split
    # axis becomes the batch dimension.
    if split == concat:
        at = split + (split >= dim)
        parts = reshape(x, shape[:at] + (size, shape[at] // size) + shape[at + 1:])
        batch = dim + (dim > at)
        perm = list(range(ndim + 2))
        perm[batch], perm[at] = at, batch
        return reshape(transpose(parts, tuple(perm)), shape), dim
    per_example = [i for i in range(ndim + 1) if i != dim]
    order = tuple(per_example[:concat] + [dim] + per_example[concat:])
    moved = x if order == tuple(range(ndim + 1)) else transpose(x, order)
    merged = [shape[i] for i in per_example]
    merged[concat] *= size
    merged = reshape(moved, tuple(merged))
    merged_shape = get_aval(merged).shape
    parts = reshape(merged, merged_shape[:split] + (size, merged_shape[split] // size) + merged_shape[split + 1:])
    return move_dim(parts, split, 0), 0


collective_rules[lax_parallel.all_to_all_p] = _all_to_all_rule


# ---------------------------------------------------------------- ppermute and axis_index


def _where(condition, if_true, if_false):
    return select_n(condition, if_false, if_true)


def _take(x, indices):
    """Rows ``indices`` of ``x`` (negative ones counted from the end), as JAX batches ``ppermute``."""
    size = get_aval(x).shape[0]
    wrapped = jit(_where)(lt(indices, 0), add(indices, size), indices)
    numbers = GatherDimensionNumbers(offset_dims=tuple(range(1, get_aval(x).ndim)), collapsed_slice_dims=(0,),
                                     start_index_map=(0,))
    count = get_aval(indices).shape[0]
    return gather(x, broadcast_in_dim(wrapped, (count, 1), (0,)), numbers, (1,) + get_aval(x).shape[1:],
                      mode=GatherScatterMode.FILL_OR_DROP)


def _ppermute_rule(trace: BatchTrace, vals, dims, *, axis_name, perm):
    (x,), (dim,) = vals, dims
    if _over_several_axes(trace, axis_name, None):
        if isinstance(trace, DeviceTrace):
            return _at_trace(trace, vals, dims, lambda v: _permute_over_several(v, axis_name=axis_name, perm=perm))
        # As JAX's vmap: the mapped axis is dropped from the names, the permutation applies to the others.
        others = tuple(n for n in axis_name if n != trace.axis_name)
        return lax_parallel.ppermute_p.bind(x, axis_name=others, perm=perm), dim
    if not _over_own_axis(trace, axis_name, None):
        return lax_parallel.ppermute_p.bind(x, axis_name=axis_name, perm=perm), dim
    size = trace.axis_size
    if len(perm) != size and not isinstance(trace, DeviceTrace):
        raise AssertionError("Permutation doesn't match the axis size!")
    sources = np.arange(size, dtype=np.int32)  # as JAX's: a member no pair sends to keeps its own value
    for source, destination in perm:
        sources[destination] = source
    received = jit(_take)(at_dim(x, dim, size, 0), sources)
    unsent = np.ones(size, bool)
    unsent[[destination for _, destination in perm]] = False
    if isinstance(trace, DeviceTrace) and unsent.any():  # on devices, a member no pair sends to receives zeros
        aval = get_aval(received)
        mask = broadcast_in_dim(unsent, aval.shape, (0,))
        received = select_n(mask, received, broadcast_in_dim(np.zeros((), aval.dtype), aval.shape, ()))
    return received, 0


def _pbroadcast_rule(trace: BatchTrace, vals, dims, *, axis_name, source):
    (x,), (dim,) = vals, dims
    if not _over_own_axis(trace, lax_parallel.axis_names(axis_name), None):
        return lax_parallel.pbroadcast_p.bind(x, axis_name=axis_name, source=source), dim
    if not 0 <= source < trace.axis_size:
        raise AssertionError("collective broadcast doesn't fit in the axis size!")
    if dim is None:
        return x, None
    # JAX 0.10.2's rule indexes the batch dimension with a Python list, which only NumPy arrays accept: a vmapped
    # NumPy argument works, anything computed (an Array, a tracer) raises jnp.take's TypeError. Kept, as JAX's.
    if not isinstance(x, np.ndarray):
        raise TypeError("take requires ndarray or scalar arguments, got <class 'list'> at position 1.")
    return np.take(x, [source] * trace.axis_size, axis=dim), dim


def _psend_rule(trace: BatchTrace, vals, dims, *, axis_name, perm):
    # As JAX's: over the trace's own axis a send is batched as the ppermute it pairs with (its value, no token).
    if not _over_own_axis(trace, axis_name, None):
        return lax_parallel.psend_p.bind(*vals, axis_name=axis_name, perm=perm), None
    return _ppermute_rule(trace, vals, dims, axis_name=axis_name, perm=perm)


def _precv_rule(trace: BatchTrace, vals, dims, *, axis_name, out_shape, perm):
    # JAX 0.10.2 hands a receive inside a named vmap to its ppermute rule, which has no out_shape parameter.
    raise TypeError("_ppermute_batcher() got an unexpected keyword argument 'out_shape'")


def _ragged_all_to_all_rule(trace: BatchTrace, vals, dims, *, axis_name, axis_index_groups):
    # JAX batches no ragged_all_to_all: over the trace's own axis it asks for a feature request, batched operands
    # over another axis fail its assertion, and unbatched ones go to the enclosing trace.
    if trace.axis_name in axis_name:
        raise NotImplementedError("Please open a feature request!")
    if any(d is not None for d in dims):
        raise AssertionError()
    return lax_parallel.ragged_all_to_all(*vals, axis_name=axis_name, axis_index_groups=axis_index_groups), None


def _axis_index_rule(trace: BatchTrace, vals, dims, *, axis_name):
    if axis_name != trace.axis_name:
        return lax_parallel.axis_index_p.bind(axis_name=axis_name), None
    return iota(np.int32, trace.axis_size), 0


collective_rules.update({
    lax_parallel.ppermute_p: _ppermute_rule, lax_parallel.axis_index_p: _axis_index_rule,
    lax_parallel.pbroadcast_p: _pbroadcast_rule, lax_parallel.ragged_all_to_all_p: _ragged_all_to_all_rule,
    lax_parallel.psend_p: _psend_rule, lax_parallel.precv_p: _precv_rule,
})


# ---------------------------------------------------------------- unreduced and reduced values

def _unbatched(message: str):
    """JAX 0.10.2's refusal to batch a collective of unreduced or reduced values (its ``NotImplementedError``)."""

    def rule(vals, dims, **params):
        raise NotImplementedError(message)

    return rule


for _primitive in (lax_parallel.preduced_p, lax_parallel.reduced_vary_cast_p, lax_parallel.vary_unreduced_cast_p,
                   lax_parallel.unreduced_psum_p, lax_parallel.unreduced_reduce_scatter_p):
    batching_rules[_primitive] = _unbatched("")
batching_rules[lax_parallel.all_gather_reduced_p] = _unbatched("Please file an issue at https://github.com/jax-ml/jax/issues")
