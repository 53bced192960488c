"""Derivative rules of the slicing and indexing primitives (``lax/slicing.py``): slices, dynamic slices, gather
and scatter.

Tangents move the way the primal values move: gathered with the same indices, scattered into the same
positions. A read of some positions transposes to a write of the cotangent into those positions of zeros,
and a write transposes to a read. The equations (and the NumPy integer types in their parameters) match
those JAX 0.10.2 emits.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import const, deflinear, deflinear_first, full_like, operand_aval
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Jaxpr, Primitive, Trace, current_trace
from jaxle_core.lax import slicing as lax_slicing
from jaxle_core.lax.slicing import (
    dynamic_slice_p,
    dynamic_update_slice_p,
    gather_p,
    scatter_add_p,
    scatter_max_p,
    scatter_min_p,
    scatter_mul_p,
    scatter_p,
    scatter_sub_p,
    slice_p,
)
from jaxle_core.lax.structural import pad_p

deflinear(slice_p)
deflinear_first(dynamic_update_slice_p, 2)


def _dynamic_slice_jvp(primals, tangents, *, slice_sizes):
    # The tangent's slice first, as JAX stages them.
    operand, *indices = primals
    tangent = tangents[0]
    if type(tangent) is not Zero:
        tangent = dynamic_slice_p.bind(tangent, *indices, slice_sizes=slice_sizes)
    return dynamic_slice_p.bind(operand, *indices, slice_sizes=slice_sizes), tangent


jvp_rules[dynamic_slice_p] = _dynamic_slice_jvp


# ---------------------------------------------------------------- gather


def _gather_jvp(primals, tangents, *, fill_value, mode, **params):
    (operand, indices), (t, _) = primals, tangents
    ans = gather_p.bind(operand, indices, fill_value=fill_value, mode=mode, **params)
    # Out-of-bounds rows are filled with a constant, whose derivative is zero.
    tangent_fill = 0 if mode == lax_slicing.GatherScatterMode.FILL_OR_DROP else fill_value
    return ans, gather_p.bind(instantiate(t), indices, fill_value=tangent_fill, mode=mode, **params)


jvp_rules[gather_p] = _gather_jvp

# ---------------------------------------------------------------- scatter


def _scatter_linear_jvp(primitive):
    """scatter-add/sub: linear in the operand and the updates jointly."""

    def rule(primals, tangents, **params):
        operand, indices, updates = primals
        t_operand, _, t_updates = tangents
        ans = primitive.bind(operand, indices, updates, **params)
        return ans, primitive.bind(instantiate(t_operand), indices, instantiate(t_updates), **params)

    return rule


jvp_rules[scatter_add_p] = _scatter_linear_jvp(scatter_add_p)
jvp_rules[scatter_sub_p] = _scatter_linear_jvp(scatter_sub_p)


def _scatter_options(params: dict) -> dict:
    return {"indices_are_sorted": params["indices_are_sorted"], "unique_indices": params["unique_indices"],
            "mode": params["mode"]}


def _gather_windows(x, indices, updates_shape: tuple[int, ...], dn: lax_slicing.ScatterDimensionNumbers):
    """The windows of ``x`` that a scatter with ``indices`` and ``dn`` writes, shaped like its updates."""
    gather_dn = lax_slicing.GatherDimensionNumbers(
        offset_dims=tuple(dn.update_window_dims), collapsed_slice_dims=tuple(dn.inserted_window_dims),
        start_index_map=tuple(dn.scatter_dims_to_operand_dims), operand_batching_dims=tuple(dn.operand_batching_dims),
        start_indices_batching_dims=tuple(dn.scatter_indices_batching_dims))
    slice_sizes = lax_slicing.scatter_window_sizes(get_aval(x).ndim, updates_shape, dn)
    return lax.gather(x, indices, gather_dn, slice_sizes, indices_are_sorted=False, unique_indices=False,
                      mode=lax_slicing.GatherScatterMode.PROMISE_IN_BOUNDS)


def _scatter_jvp(primals, tangents, **params):
    """Replacing scatter. With unique indices it is linear; otherwise each position keeps the value of the one
    update that won it, found by scattering update ids and reading them back."""
    if params["update_jaxpr"] is not None:
        # scatter_apply's: JAX has no derivative for a function applied in place.
        raise NotImplementedError("scatter_apply JVP not implemented")
    operand, indices, updates = primals
    t_operand, t_updates = instantiate(tangents[0]), instantiate(tangents[2])
    if params["unique_indices"]:
        return (scatter_p.bind(operand, indices, updates, **params),
                scatter_p.bind(t_operand, indices, t_updates, **params))
    dn = params["dimension_numbers"]
    operand_aval, updates_aval = get_aval(operand), get_aval(updates)
    # Ids 1, 2, ... name the update windows; 0 marks operand positions no window is written to.
    id_shape = tuple(1 if d in dn.update_window_dims else n for d, n in enumerate(updates_aval.shape))
    ids = lax.iota(np.uint32, int(np.prod(id_shape, dtype=np.int64)))
    if id_shape != get_aval(ids).shape:
        ids = lax.reshape(ids, id_shape)
    ids = lax.add(ids, lax.broadcast_in_dim(np.uint32(1), updates_aval.shape, ()))
    no_id = lax.broadcast_in_dim(np.uint32(0), operand_aval.shape, ())
    scattered_ids = scatter_p.bind(no_id, indices, ids, **params)
    winning_ids = _gather_windows(scattered_ids, indices, updates_aval.shape, dn)

    def masked(operand, updates):
        kept_operand = lax.select_n(lax.eq(scattered_ids, full_like(scattered_ids, 0)), full_like(operand, 0.0),
                                    operand)
        kept_updates = lax.select_n(lax.eq(ids, winning_ids), full_like(updates, 0.0), updates)
        return kept_operand, kept_updates

    (kept_operand, kept_updates), (kept_t_operand, kept_t_updates) = masked(operand, updates), masked(t_operand,
                                                                                                      t_updates)
    options = _scatter_options(params)
    return (lax.scatter_add(kept_operand, indices, kept_updates, dn, **options),
            lax.scatter_add(kept_t_operand, indices, kept_t_updates, dn, **options))


jvp_rules[scatter_p] = _scatter_jvp


def _scatter_mul_jvp(primals, tangents, **params):
    """scatter-mul with unique indices: d(x * u) = dx * u + x * du at the written positions."""
    if not params["unique_indices"]:
        raise NotImplementedError("scatter_mul gradients are only implemented if `unique_indices=True`")
    operand, indices, updates = primals
    t_operand, _, t_updates = tangents
    dn = params["dimension_numbers"]
    ans = scatter_mul_p.bind(operand, indices, updates, **params)
    total = Zero(tangent_aval(get_aval(ans)))
    if type(t_operand) is not Zero:
        total = scatter_mul_p.bind(t_operand, indices, updates, **params)
    if type(t_updates) is not Zero:
        spread = lax.scatter_add(full_like(operand, 0.0), indices, t_updates, dn, **_scatter_options(params))
        total = add_tangents(total, lax.mul(operand, spread))
    return ans, total


jvp_rules[scatter_mul_p] = _scatter_mul_jvp


def _where(condition, if_true, if_false):
    return lax.select_n(condition, if_false, if_true)


def _scatter_extremum_jvp(primitive):
    """scatter-min/max: at each written position the tangent is the mean of the tangents of the values that
    attain the result (the operand's own value and every update equal to it)."""

    def rule(primals, tangents, **params):
        operand, indices, updates = primals
        dn, options = params["dimension_numbers"], _scatter_options(params)
        # JAX's counting scatters drop the sortedness and uniqueness promises (keeping the mode)
        count_options = dict(options, indices_are_sorted=False, unique_indices=False)
        shape = get_aval(updates).shape
        ans = primitive.bind(operand, indices, updates, **params)
        t_operand, t_updates = instantiate(tangents[0]), instantiate(tangents[2])  # after the primal, as JAX's

        def per_window(x):
            return _gather_windows(x, indices, shape, dn)

        def count(flags: Callable[[], Any]):
            zeros = full_like(operand, 0.0)
            return per_window(lax.scatter_add(zeros, indices, flags(), dn, **count_options))

        def share_with_operand(n):
            return lax.div(const(n, 1.0), lax.add(n, const(n, 1.0)))

        initial, result = per_window(operand), per_window(ans)
        update_wins, operand_wins = lax.eq(updates, result), lax.eq(initial, result)
        winning_updates = count(lambda: _where(update_wins, full_like(updates, 1.0), full_like(updates, 0.0)))
        references = count(lambda: full_like(updates, 1.0))
        with_operand = share_with_operand(winning_updates)
        update_share = _where(operand_wins, with_operand, lax.div(const(winning_updates, 1.0), winning_updates))
        update_weight = _where(update_wins, update_share, full_like(updates, 0.0))
        with_operand = share_with_operand(winning_updates)
        operand_share = _where(operand_wins, with_operand, full_like(updates, 0.0))
        # The operand's tangent is added back whole below; each reference takes away its lost part.
        operand_weight = lax.div(lax.add(const(operand_share, -1.0), operand_share), references)
        window_tangents = lax.add(lax.mul(per_window(t_operand), operand_weight), lax.mul(t_updates, update_weight))
        return ans, lax.scatter_add(t_operand, indices, window_tangents, dn, **options)

    return rule


jvp_rules[scatter_min_p] = _scatter_extremum_jvp(scatter_min_p)
jvp_rules[scatter_max_p] = _scatter_extremum_jvp(scatter_max_p)


# ---------------------------------------------------------------- transposes: slice


def _zeros(like: ShapedArray, ct: Any) -> Any:
    """Zeros of ``like``'s shape and layout in ``ct``'s dtype (a literal for a scalar)."""
    zero = const(ct, 0)
    return lax.broadcast_in_dim(zero, like.shape, (), out_sharding=like.explicit_sharding) if like.shape else zero


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    shape = x.aval.shape
    if strides is None or all(s == 1 for s in strides):
        config = zip(start_indices, np.subtract(shape, limit_indices), (0,) * len(shape))
    else:
        ct_shape = np.array(get_aval(ct).shape, np.int64)
        reach = np.where(ct_shape == 0, 0, 1 + (ct_shape - 1) * np.array(strides))
        config = zip(start_indices, np.subtract(shape, np.add(start_indices, reach)), np.subtract(strides, 1))
    return [pad_p.bind(ct, const(ct, 0), padding_config=tuple(config))]


transpose_rules[slice_p] = _slice_transpose


# ---------------------------------------------------------------- transposes: dynamic slices


def _dynamic_slice_transpose(ct, x, *indices, slice_sizes):
    return [dynamic_update_slice_p.bind(_zeros(x.aval, ct), ct, *indices)] + [None] * len(indices)


def _dynamic_update_slice_transpose(ct, x, update, *indices):
    update_shape = operand_aval(update).shape
    zeros = _zeros(operand_aval(update), ct)
    t_x = dynamic_update_slice_p.bind(ct, zeros, *indices) if is_undefined(x) else None
    t_update = dynamic_slice_p.bind(ct, *indices, slice_sizes=update_shape) if is_undefined(update) else None
    return [t_x, t_update] + [None] * len(indices)


transpose_rules[dynamic_slice_p] = _dynamic_slice_transpose
transpose_rules[dynamic_update_slice_p] = _dynamic_update_slice_transpose

# ---------------------------------------------------------------- transposes: gather and scatter

# JAX builds a combining scatter's ``update_jaxpr`` once per trace, so the scatters a backward pass emits share
# one jaxpr that is not the one of the forward computation (the printed text shows which are shared).
_update_jaxprs: weakref.WeakKeyDictionary[Trace, dict[tuple[str, np.dtype], Jaxpr]] = weakref.WeakKeyDictionary()


def _combining_scatter(primitive: Primitive, combiner: str, operand, indices, updates, *, dimension_numbers,
                       indices_are_sorted: bool, unique_indices: bool, mode) -> Any:
    """``primitive`` (scatter-add or scatter-mul) bound with this trace's ``update_jaxpr`` for ``combiner``."""
    key = (combiner, get_aval(operand).dtype)
    jaxprs = _update_jaxprs.setdefault(current_trace(), {})
    if key not in jaxprs:
        jaxprs[key] = lax_slicing._update_jaxpr.__wrapped__(*key)
    return primitive.bind(operand, indices, updates, update_jaxpr=jaxprs[key], update_consts=(),
                          dimension_numbers=dimension_numbers, indices_are_sorted=indices_are_sorted,
                          unique_indices=unique_indices, mode=mode)


def _gather_transpose(ct, operand, indices, *, dimension_numbers, slice_sizes, unique_indices, indices_are_sorted,
                      mode, fill_value):
    dn = dimension_numbers
    scatter_dn = lax_slicing.ScatterDimensionNumbers(
        update_window_dims=dn.offset_dims, inserted_window_dims=dn.collapsed_slice_dims,
        scatter_dims_to_operand_dims=dn.start_index_map, operand_batching_dims=dn.operand_batching_dims,
        scatter_indices_batching_dims=dn.start_indices_batching_dims)
    zeros = _zeros(operand.aval, ct)
    return [_combining_scatter(scatter_add_p, "add", zeros, indices, ct, dimension_numbers=scatter_dn,
                               indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode), None]


def _read_windows(ct, indices, updates_shape: tuple[int, ...], dn: lax_slicing.ScatterDimensionNumbers, mode) -> Any:
    """The windows of ``ct`` that a scatter with ``indices`` and ``dn`` writes to (zero where it drops them)."""
    gather_dn = lax_slicing.GatherDimensionNumbers(
        offset_dims=dn.update_window_dims, collapsed_slice_dims=dn.inserted_window_dims,
        start_index_map=dn.scatter_dims_to_operand_dims, operand_batching_dims=dn.operand_batching_dims,
        start_indices_batching_dims=dn.scatter_indices_batching_dims)
    sizes = lax_slicing.scatter_window_sizes(get_aval(ct).ndim, updates_shape, dn)
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
    updates_shape = operand_aval(updates).shape
    t_operand = None
    if is_undefined(operand):
        t_operand = scatter_p.bind(ct, indices, _zeros(operand_aval(updates), ct), dimension_numbers=dimension_numbers,
                                   unique_indices=unique_indices, mode=mode, **params)
    t_updates = _read_windows(ct, indices, updates_shape, dimension_numbers, mode) if is_undefined(updates) else None
    return [t_operand, None, t_updates]


def _scatter_mul_transpose(ct, operand, indices, updates, *, update_jaxpr, update_consts, **params):
    """scatter-mul is linear in the operand only, scaling the written positions by the updates."""
    if is_undefined(updates):
        raise NotImplementedError("scatter_mul gradients are only implemented for the operand when the updates "
                                  "are constants")
    return [_combining_scatter(scatter_mul_p, "mul", ct, indices, updates, **params), None, None]


transpose_rules[gather_p] = _gather_transpose
transpose_rules[scatter_add_p] = _scatter_add_transpose(negate=False)
transpose_rules[scatter_sub_p] = _scatter_add_transpose(negate=True)
transpose_rules[scatter_p] = _scatter_transpose
transpose_rules[scatter_mul_p] = _scatter_mul_transpose
