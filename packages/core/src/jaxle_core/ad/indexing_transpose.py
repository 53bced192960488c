"""Transpose rules of the linear structural and indexing primitives: slicing, padding, concatenation, splitting,
stacking, tiling, dynamic slices, gather/scatter and cumulative sums.

A read of some positions transposes to a write of the cotangent into those positions of zeros, and a write
transposes to a read. The equations (and the NumPy integer types in their parameters) match those JAX 0.10.2
emits.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import instantiate
from jaxle_core.ad.rule_helpers import const
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.core import Jaxpr, Primitive, Trace, current_trace
from jaxle_core.lax import cumulative as cu
from jaxle_core.lax import identity as ident
from jaxle_core.lax import reductions as red
from jaxle_core.lax import slicing as sl
from jaxle_core.lax import structural as st


def _zeros(shape: tuple[int, ...], ct: Any) -> Any:
    """Zeros of ``shape`` in ``ct``'s dtype (a literal for a scalar)."""
    zero = const(ct, 0)
    return lax.broadcast_in_dim(zero, shape, ()) if shape else zero


def _aval(x: Any):
    return x.aval if is_undefined(x) else get_aval(x)


# ---------------------------------------------------------------- slice, pad, concatenate


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    shape = x.aval.shape
    if strides is None or all(s == 1 for s in strides):
        config = zip(start_indices, np.subtract(shape, limit_indices), (0,) * len(shape))
    else:
        ct_shape = np.array(get_aval(ct).shape, np.int64)
        reach = np.where(ct_shape == 0, 0, 1 + (ct_shape - 1) * np.array(strides))
        config = zip(start_indices, np.subtract(shape, np.add(start_indices, reach)), np.subtract(strides, 1))
    return [st.pad_p.bind(ct, const(ct, 0), padding_config=tuple(config))]


def _pad_transpose(ct, x, padding_value, *, padding_config):
    """The operand's cotangent is ``ct`` cropped and strided back; the padding value's is what is left over."""
    ndim = len(padding_config)
    low, high, interior = (np.array([c[i] for c in padding_config], np.int64) for i in range(3))
    cropped = st.pad_p.bind(ct, const(ct, 0), padding_config=tuple(zip(-low, -high, np.zeros_like(interior))))
    limits = tuple(int(d) for d in get_aval(cropped).shape)
    t_x = sl.slice_p.bind(cropped, start_indices=tuple(np.zeros_like(low)), limit_indices=limits,
                          strides=tuple(interior + 1))
    t_value = None
    if is_undefined(padding_value):
        everything = tuple(range(ndim))
        t_value = lax.sub(lax.reduce_sum(ct, everything), lax.reduce_sum(t_x, everything))
    return [t_x if is_undefined(x) else None, t_value]


def _concatenate_transpose(ct, *operands, dimension):
    """The cotangent split back into the operands' pieces."""
    pieces = lax.split(ct, [_aval(x).shape[dimension] for x in operands], dimension)
    return [t if is_undefined(x) else None for t, x in zip(pieces, operands)]


def _split_transpose(cts, x, *, sizes, axis):
    """The cotangents joined back together, zeros standing in for symbolic zeros."""
    return [lax.concatenate([instantiate(t) for t in cts], axis)]


def _stack_transpose(ct, *operands, axis):
    """The cotangent unstacked back into the operands."""
    pieces = st.unstack_p.bind(ct, axis=axis)
    return [t if is_undefined(x) else None for t, x in zip(pieces, operands)]


def _unstack_transpose(cts, x, *, axis):
    """The cotangents stacked back together, zeros standing in for symbolic zeros."""
    return [st.stack_p.bind(*[instantiate(t) for t in cts], axis=axis)]


def _tile_transpose(ct, x, *, reps):
    """Each repetition of the cotangent summed: ``(r0, d0, r1, d1, ...)`` reduced over the ``r`` dimensions."""
    shape = x.aval.shape
    interleaved = tuple(s for r, d in zip(reps, shape) for s in (r, d))
    # bound directly: JAX emits both equations even where they change nothing (a scalar)
    parts = st.reshape_p.bind(ct, new_sizes=interleaved, dimensions=None, sharding=None)
    return [red.reduce_sum_p.bind(parts, axes=tuple(range(0, 2 * len(shape), 2)), out_sharding=None)]


transpose_rules[sl.slice_p] = _slice_transpose
transpose_rules[st.pad_p] = _pad_transpose
transpose_rules[st.concatenate_p] = _concatenate_transpose
transpose_rules[st.split_p] = _split_transpose
transpose_rules[st.stack_p] = _stack_transpose
transpose_rules[st.unstack_p] = _unstack_transpose
transpose_rules[st.tile_p] = _tile_transpose

# ---------------------------------------------------------------- dynamic slices


def _dynamic_slice_transpose(ct, x, *indices, slice_sizes):
    return [sl.dynamic_update_slice_p.bind(_zeros(x.aval.shape, ct), ct, *indices)] + [None] * len(indices)


def _dynamic_update_slice_transpose(ct, x, update, *indices):
    update_shape = _aval(update).shape
    zeros = _zeros(update_shape, ct)
    t_x = sl.dynamic_update_slice_p.bind(ct, zeros, *indices) if is_undefined(x) else None
    t_update = sl.dynamic_slice_p.bind(ct, *indices, slice_sizes=update_shape) if is_undefined(update) else None
    return [t_x, t_update] + [None] * len(indices)


transpose_rules[sl.dynamic_slice_p] = _dynamic_slice_transpose
transpose_rules[sl.dynamic_update_slice_p] = _dynamic_update_slice_transpose

# ---------------------------------------------------------------- gather and scatter

# JAX builds a combining scatter's ``update_jaxpr`` once per trace, so the scatters a backward pass emits share
# one jaxpr that is not the one of the forward computation (the printed text shows which are shared).
_update_jaxprs: weakref.WeakKeyDictionary[Trace, dict[tuple[str, np.dtype], Jaxpr]] = weakref.WeakKeyDictionary()


def _combining_scatter(primitive: Primitive, combiner: str, operand, indices, updates, *, dimension_numbers,
                       indices_are_sorted: bool, unique_indices: bool, mode) -> Any:
    """``primitive`` (scatter-add or scatter-mul) bound with this trace's ``update_jaxpr`` for ``combiner``."""
    key = (combiner, get_aval(operand).dtype)
    jaxprs = _update_jaxprs.setdefault(current_trace(), {})
    if key not in jaxprs:
        jaxprs[key] = sl._update_jaxpr.__wrapped__(*key)
    return primitive.bind(operand, indices, updates, update_jaxpr=jaxprs[key], update_consts=(),
                          dimension_numbers=dimension_numbers, indices_are_sorted=indices_are_sorted,
                          unique_indices=unique_indices, mode=mode)


def _gather_transpose(ct, operand, indices, *, dimension_numbers, slice_sizes, unique_indices, indices_are_sorted,
                      mode, fill_value):
    dn = dimension_numbers
    scatter_dn = sl.ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map, operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims)
    zeros = _zeros(operand.aval.shape, ct)
    return [_combining_scatter(sl.scatter_add_p, "add", zeros, indices, ct, dimension_numbers=scatter_dn,
                               indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode), None]


def _read_windows(ct, indices, updates_shape: tuple[int, ...], dn: sl.ScatterDimensionNumbers, mode) -> Any:
    """The windows of ``ct`` that a scatter with ``indices`` and ``dn`` writes to (zero where it drops them)."""
    gather_dn = sl.GatherDimensionNumbers(
        offset_dims=dn.update_window_dims, collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims, operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims)
    sizes = sl.scatter_window_sizes(get_aval(ct).ndim, updates_shape, dn)
    return lax.gather(ct, indices, gather_dn, sizes, mode=mode, fill_value=0)


def _scatter_add_transpose(negate: bool):
    """scatter-add (``negate``: scatter-sub): the operand's cotangent is ``ct``, the updates' the windows of it."""

    def rule(ct, operand, indices, updates, *, dimension_numbers, mode, **params):
        t_updates = None
        if is_undefined(updates):
            t_updates = _read_windows(ct, indices, updates.aval.shape, dimension_numbers, mode)
            t_updates = lax.neg(t_updates) if negate else t_updates
        return [ct if is_undefined(operand) else None, None, t_updates]

    return rule


def _scatter_transpose(ct, operand, indices, updates, *, dimension_numbers, unique_indices, mode, **params):
    """Replacing scatter (unique indices only): the written positions of ``ct`` go to the updates, the rest to
    the operand."""
    if not unique_indices:
        raise NotImplementedError("scatter transpose is only implemented where unique_indices=True")
    updates_shape = _aval(updates).shape
    t_operand = None
    if is_undefined(operand):
        t_operand = sl.scatter_p.bind(ct, indices, _zeros(updates_shape, ct), dimension_numbers=dimension_numbers,
                                      unique_indices=unique_indices, mode=mode, **params)
    t_updates = _read_windows(ct, indices, updates_shape, dimension_numbers, mode) if is_undefined(updates) else None
    return [t_operand, None, t_updates]


def _scatter_mul_transpose(ct, operand, indices, updates, *, update_jaxpr, update_consts, **params):
    """scatter-mul is linear in the operand only, scaling the written positions by the updates."""
    if is_undefined(updates):
        raise NotImplementedError("scatter_mul gradients are only implemented for the operand when the updates "
                                  "are constants")
    return [_combining_scatter(sl.scatter_mul_p, "mul", ct, indices, updates, **params), None, None]


transpose_rules[sl.gather_p] = _gather_transpose
transpose_rules[sl.scatter_add_p] = _scatter_add_transpose(negate=False)
transpose_rules[sl.scatter_sub_p] = _scatter_add_transpose(negate=True)
transpose_rules[sl.scatter_p] = _scatter_transpose
transpose_rules[sl.scatter_mul_p] = _scatter_mul_transpose

# ---------------------------------------------------------------- cumulative sum and copy

transpose_rules[cu.cumsum_p] = lambda ct, x, *, axis, reverse: [cu.cumsum_p.bind(ct, axis=axis, reverse=not reverse)]
transpose_rules[ident.copy_p] = lambda ct, x: [ident.copy_p.bind(ct)]
