"""JVP rules of the indexing and ordering primitives: gather, scatter, cumulative scans, sort, top_k.

Tangents move the way the primal values move: gathered with the same indices,
scattered into the same positions, permuted by the order the keys sort into.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import const, deflinear, full_like
from jaxle_core.avals import get_aval
from jaxle_core.jit import jit
from jaxle_core.lax import cumulative as cu
from jaxle_core.lax import slicing as sl
from jaxle_core.lax import sorting as so
from jaxle_core.lax.approx_top_k import approx_top_k_p

# ---------------------------------------------------------------- gather


def _gather_jvp(primals, tangents, *, fill_value, mode, **params):
    (operand, indices), (t, _) = primals, tangents
    ans = sl.gather_p.bind(operand, indices, fill_value=fill_value, mode=mode, **params)
    # Out-of-bounds rows are filled with a constant, whose derivative is zero.
    tangent_fill = 0 if mode == sl.GatherScatterMode.FILL_OR_DROP else fill_value
    return ans, sl.gather_p.bind(instantiate(t), indices, fill_value=tangent_fill, mode=mode, **params)


jvp_rules[sl.gather_p] = _gather_jvp

# ---------------------------------------------------------------- scatter


def _scatter_linear_jvp(primitive):
    """scatter-add/sub: linear in the operand and the updates jointly."""

    def rule(primals, tangents, **params):
        operand, indices, updates = primals
        t_operand, _, t_updates = tangents
        ans = primitive.bind(operand, indices, updates, **params)
        return ans, primitive.bind(instantiate(t_operand), indices, instantiate(t_updates), **params)

    return rule


jvp_rules[sl.scatter_add_p] = _scatter_linear_jvp(sl.scatter_add_p)
jvp_rules[sl.scatter_sub_p] = _scatter_linear_jvp(sl.scatter_sub_p)


def _scatter_options(params: dict) -> dict:
    return {"indices_are_sorted": params["indices_are_sorted"], "unique_indices": params["unique_indices"],
            "mode": params["mode"]}


def _gather_windows(x, indices, updates_shape: tuple[int, ...], dn: sl.ScatterDimensionNumbers):
    """The windows of ``x`` that a scatter with ``indices`` and ``dn`` writes, shaped like its updates."""
    gather_dn = sl.GatherDimensionNumbers(
        offset_dims=tuple(dn.update_window_dims), collapsed_slice_dims=tuple(dn.inserted_window_dims),
        start_index_map=tuple(dn.scatter_dims_to_operand_dims), operand_batching_dims=tuple(dn.operand_batching_dims),
        start_indices_batching_dims=tuple(dn.scatter_indices_batching_dims))
    slice_sizes = sl.scatter_window_sizes(get_aval(x).ndim, updates_shape, dn)
    return lax.gather(x, indices, gather_dn, slice_sizes, indices_are_sorted=False, unique_indices=False,
                      mode=sl.GatherScatterMode.PROMISE_IN_BOUNDS)


def _scatter_jvp(primals, tangents, **params):
    """Replacing scatter. With unique indices it is linear; otherwise each position keeps the value of the one
    update that won it, found by scattering update ids and reading them back."""
    if params["update_jaxpr"] is not None:
        # scatter_apply's: JAX has no derivative for a function applied in place.
        raise NotImplementedError("scatter_apply JVP not implemented")
    operand, indices, updates = primals
    t_operand, t_updates = instantiate(tangents[0]), instantiate(tangents[2])
    if params["unique_indices"]:
        return (sl.scatter_p.bind(operand, indices, updates, **params),
                sl.scatter_p.bind(t_operand, indices, t_updates, **params))
    dn = params["dimension_numbers"]
    operand_aval, updates_aval = get_aval(operand), get_aval(updates)
    # Ids 1, 2, ... name the update windows; 0 marks operand positions no window is written to.
    id_shape = tuple(1 if d in dn.update_window_dims else n for d, n in enumerate(updates_aval.shape))
    ids = lax.iota(np.uint32, int(np.prod(id_shape, dtype=np.int64)))
    if id_shape != get_aval(ids).shape:
        ids = lax.reshape(ids, id_shape)
    ids = lax.add(ids, lax.broadcast_in_dim(np.uint32(1), updates_aval.shape, ()))
    no_id = lax.broadcast_in_dim(np.uint32(0), operand_aval.shape, ())
    scattered_ids = sl.scatter_p.bind(no_id, indices, ids, **params)
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


jvp_rules[sl.scatter_p] = _scatter_jvp


def _scatter_mul_jvp(primals, tangents, **params):
    """scatter-mul with unique indices: d(x * u) = dx * u + x * du at the written positions."""
    if not params["unique_indices"]:
        raise NotImplementedError("scatter_mul gradients are only implemented if `unique_indices=True`")
    operand, indices, updates = primals
    t_operand, _, t_updates = tangents
    dn = params["dimension_numbers"]
    ans = sl.scatter_mul_p.bind(operand, indices, updates, **params)
    total = Zero(tangent_aval(get_aval(ans)))
    if type(t_operand) is not Zero:
        total = sl.scatter_mul_p.bind(t_operand, indices, updates, **params)
    if type(t_updates) is not Zero:
        spread = lax.scatter_add(full_like(operand, 0.0), indices, t_updates, dn, **_scatter_options(params))
        total = add_tangents(total, lax.mul(operand, spread))
    return ans, total


jvp_rules[sl.scatter_mul_p] = _scatter_mul_jvp


def _where(condition, if_true, if_false):
    return lax.select_n(condition, if_false, if_true)


def _scatter_extremum_jvp(primitive):
    """scatter-min/max: at each written position the tangent is the mean of the tangents of the values that
    attain the result (the operand's own value and every update equal to it)."""

    def rule(primals, tangents, **params):
        operand, indices, updates = primals
        t_operand, t_updates = instantiate(tangents[0]), instantiate(tangents[2])
        dn, options = params["dimension_numbers"], _scatter_options(params)
        shape = get_aval(updates).shape
        ans = primitive.bind(operand, indices, updates, **params)

        def per_window(x):
            return _gather_windows(x, indices, shape, dn)

        def count(flags: Callable[[], Any]):
            zeros = full_like(operand, 0.0)
            return per_window(lax.scatter_add(zeros, indices, flags(), dn, **options))

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


jvp_rules[sl.scatter_min_p] = _scatter_extremum_jvp(sl.scatter_min_p)
jvp_rules[sl.scatter_max_p] = _scatter_extremum_jvp(sl.scatter_max_p)

# ---------------------------------------------------------------- cumulative scans

deflinear(cu.cumsum_p)


def _logaddexp_jvp(a, b, ta, tb):
    """``log(exp(a) + exp(b))`` and its tangent ``ta e^(a-out) + tb e^(b-out)`` (+inf arguments taken as 0)."""
    larger = lax.max(a, b)
    delta = lax.sub(a, b)
    is_nan = lax.ne(delta, delta)
    plain = lax.add(a, b)  # inf - inf and NaN: the plain sum gives the right inf or NaN
    out = lax.select_n(is_nan, lax.add(larger, lax.log1p(lax.exp(lax.neg(lax.abs(delta))))), plain)

    def finite(x):
        return lax.select_n(lax.eq(x, const(x, np.inf)), x, full_like(x, 0.0))

    term_a = lax.mul(ta, lax.exp(lax.sub(finite(a), finite(out))))
    term_b = lax.mul(tb, lax.exp(lax.sub(finite(b), finite(out))))
    return [out, lax.add(term_a, term_b)]


def _binary_jvp(fn: Callable) -> Callable:
    def combine(a, b, ta, tb):
        return list(jvp(fn, (a, b), (ta, tb)))

    return combine


_SCAN_COMBINE: dict[Any, Callable] = {
    cu.cumprod_p: _binary_jvp(lax.mul),
    cu.cummax_p: _binary_jvp(lax.max),
    cu.cummin_p: _binary_jvp(lax.min),
    cu.cumlogsumexp_p: _logaddexp_jvp,
}


def _prefix_scan(combine: Callable, pair: list, axis: int) -> list:
    """Inclusive scan of ``pair`` (value and tangent) along ``axis``: combine neighbours, scan the half-length
    result recursively, fill in the even positions from it, and interleave the two halves."""
    n = get_aval(pair[0]).shape[axis]
    if n < 2:
        return pair

    def cut(arrays, start, stop, stride):
        return [lax.slice_in_dim(x, start, stop, stride, axis) for x in arrays]

    def spread(x, low, high):
        config = [(0, 0, 0)] * get_aval(x).ndim
        config[axis] = (low, high, 1)
        return lax.pad(x, const(x, 0.0), config)

    earlier, later = cut(pair, 0, n - 1, 2), cut(pair, 1, n, 2)
    odd = _prefix_scan(combine, combine(earlier[0], later[0], earlier[1], later[1]), axis)
    if n % 2 == 0:
        odd_head = cut(odd, 0, n // 2 - 1, 1)
    else:
        odd_head = odd
    rest = cut(pair, 2, n, 2)
    even_tail = combine(odd_head[0], rest[0], odd_head[1], rest[1])
    first = cut(pair, 0, 1, 1)
    even = [lax.concatenate([f, e], axis) for f, e in zip(first, even_tail)]
    even = [spread(x, 0, 1 - n % 2) for x in even]
    odd = [spread(x, 1, n % 2) for x in odd]
    return [lax.add(e, o) for e, o in zip(even, odd)]


def _cumulative_jvp(combine: Callable) -> Callable:
    """A running reduction differentiated through a parallel prefix scan built from lax operations."""

    def rule(primals, tangents, *, axis, reverse):
        pair = [primals[0], instantiate(tangents[0])]
        if reverse:
            pair = [lax.rev(x, (axis,)) for x in pair]
        pair = _prefix_scan(combine, pair, axis)
        if reverse:
            pair = [lax.rev(x, (axis,)) for x in pair]
        return pair[0], pair[1]

    return rule


for _p, _combine in _SCAN_COMBINE.items():
    jvp_rules[_p] = _cumulative_jvp(_combine)

# ---------------------------------------------------------------- sort and top_k


def _take_along(t, positions, axis: int, dim_type: type = int):
    """``t`` read along ``axis`` at ``positions`` (with a trailing unit dimension; the other dimensions are
    matched one to one). ``dim_type`` is the type of the recorded batching dimensions, which shows when printed."""
    ndim = get_aval(t).ndim
    others = tuple(dim_type(d) for d in range(ndim) if d != axis)
    dn = sl.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                   operand_batching_dims=others, start_indices_batching_dims=others)
    return sl.gather_p.bind(t, positions, dimension_numbers=dn, slice_sizes=(1,) * ndim, unique_indices=False,
                            indices_are_sorted=False, mode=sl.GatherScatterMode.PROMISE_IN_BOUNDS, fill_value=None)


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    shape = get_aval(primals[0]).shape
    positions = lax.broadcasted_iota(np.uint32, shape, dimension) if len(shape) > 1 \
        else lax.iota(np.uint32, shape[0])
    *ans, order = so.sort_p.bind(*primals, positions, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    order = lax.broadcast_in_dim(order, (*shape, 1), tuple(range(len(shape))))
    # JAX's sort rule records its batching dimensions as np.int64.
    return ans, [t if type(t) is Zero else _take_along(t, order, dimension, np.int64) for t in tangents]


jvp_rules[so.sort_p] = _sort_jvp


def _top_k_jvp(primals, tangents, *, k, axis):
    (operand,), (t,) = primals, tangents
    values, positions = so.top_k_p.bind(operand, k=k, axis=axis)
    shape = get_aval(positions).shape
    index_tangent = Zero(tangent_aval(get_aval(positions)))
    return [values, positions], [_take_along(t, lax.reshape(positions, (*shape, 1)), axis), index_tangent]


jvp_rules[so.top_k_p] = _top_k_jvp


def take_along_axis(arr, indices, axis: int):
    """``arr`` read at ``indices`` along ``axis`` (negative indices wrap, out-of-range ones read NaN), written as
    ``jnp.take_along_axis`` is, which JAX's approx_top_k rule calls under ``jit``."""
    size, index_type = get_aval(arr).shape[axis], get_aval(indices).dtype
    wrapped = lax.select_n(lax.lt(indices, index_type.type(0)), indices, lax.add(indices, index_type.type(size)))
    shape = get_aval(indices).shape
    others = tuple(d for d in range(len(shape)) if d != axis)
    dn = sl.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                   operand_batching_dims=others, start_indices_batching_dims=others)
    return sl.gather(arr, lax.reshape(wrapped, (*shape, 1)), dn, (1,) * len(shape), mode="fill")


_take_along_axis_jit = jit(take_along_axis, static_argnames="axis")


def _approx_top_k_jvp(primals, tangents, **params):
    (operand,), (t,) = primals, tangents
    values, indices = approx_top_k_p.bind(operand, **params)
    axis = params["reduction_dimension"] % get_aval(operand).ndim
    index_tangent = Zero(tangent_aval(get_aval(indices)))
    if type(t) is Zero:
        return [values, indices], [Zero(tangent_aval(get_aval(values))), index_tangent]
    return [values, indices], [_take_along_axis_jit(t, indices, axis=axis), index_tangent]


jvp_rules[approx_top_k_p] = _approx_top_k_jvp
