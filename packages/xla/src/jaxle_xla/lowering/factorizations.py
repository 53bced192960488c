"""Lowering of the Cholesky and LU factorizations: LAPACK's ``potrf`` and ``getrf`` through jaxlib's kernels (as
JAX emits them, for the same bits), the pivots' permutation as a loop of swaps, ``cholesky_update`` as its sweep of
Givens rotations."""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.lax.control_flow.while_loops import fori_loop
from jaxle_core.lax.factorizations import (
    cholesky_p,
    cholesky_update_p,
    cholesky_update_sweep,
    lu_p,
    lu_pivots_to_permutation_p,
)
from jaxle_core.lax.linalg_support import check_lapack_dtype
from jaxle_xla.lapack import char, filled, info_aval, lapack_call, nan_where_failed
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(cholesky_p)
def _cholesky_lowering(ctx: LoweringContext, x: Value) -> Value:
    check_lapack_dtype(x.aval.dtype)
    if x.aval.size == 0:  # LAPACK fails on no elements; there is nothing to factor
        return x
    factor, info = lapack_call(ctx, "potrf", [x], [x.aval, info_aval(x)],
                               attributes={"uplo": char("L")}, aliases={0: 0})
    return nan_where_failed(ctx, info, [factor])[0]


@register_lowering(cholesky_update_p)
def _cholesky_update_lowering(ctx: LoweringContext, r: Value, w: Value) -> Value:
    return ctx.lower_fun(cholesky_update_sweep, r, w)[0]


def _permutation_of_pivots(pivots, size: int):
    """Swap entry ``i`` of ``range(size)`` with entry ``pivots[..., i]``, for each ``i`` in turn (a loop, as on
    CPU JAX's). One matrix's pivots swap two entries in place per step; a batch's steps are elementwise over the
    batch (each matrix swaps different entries, which a dynamic slice cannot address)."""
    batch, count = pivots.shape[:-1], pivots.shape[-1]
    shape = (*batch, size)
    positions = lax.broadcasted_iota(np.int32, shape, len(shape) - 1)
    wrapped = lax.select_n(lax.lt(pivots, np.int32(0)), pivots, lax.add(pivots, np.int32(size)))

    def swap_in_place(i, permutation):
        # Two one-element reads and writes per step: the batched form below reads and writes all ``size``
        # entries every step, which costs a 512-row solve a quarter of JAX's whole permutation time again.
        i = lax.convert_element_type(i, np.int32)  # the loop counter is 64-bit with x64
        target = lax.squeeze(lax.dynamic_slice(wrapped, (i,), (1,)), (0,))
        value_i = lax.dynamic_slice(permutation, (i,), (1,))
        value_target = lax.dynamic_slice(permutation, (target,), (1,), allow_negative_indices=False)
        permutation = lax.dynamic_update_slice(permutation, value_target, (i,))
        # A pivot out of range reads the nearest entry (the slice clamps) and writes nothing, as JAX's gather and
        # scatter do: the clamped write puts back the value that is there.
        in_range = lax.eq(lax.clamp(np.int32(0), target, np.int32(size - 1)), target)
        kept = lax.dynamic_slice(permutation, (target,), (1,), allow_negative_indices=False)
        return lax.dynamic_update_slice(permutation, lax.select_n(in_range, kept, value_i), (target,),
                                        allow_negative_indices=False)

    def swap(i, permutation):
        i = lax.convert_element_type(i, np.int32)  # the loop counter is 64-bit with x64
        target = lax.dynamic_slice_in_dim(wrapped, i, 1, len(batch))
        at_i, at_target = lax.eq(positions, i), lax.eq(positions, target)
        # A pivot out of range reads the nearest entry and writes nothing (no position equals it), as JAX's does.
        read_at_target = lax.eq(positions, lax.clamp(np.int32(0), target, np.int32(size - 1)))
        value_i = lax.reduce_sum(lax.select_n(at_i, lax.full_like(permutation, 0), permutation), (len(batch),))
        value_target = lax.reduce_sum(lax.select_n(read_at_target, lax.full_like(permutation, 0), permutation),
                                      (len(batch),))
        dims = tuple(range(len(batch)))
        value_i = lax.broadcast_in_dim(value_i, shape, dims)
        value_target = lax.broadcast_in_dim(value_target, shape, dims)
        return lax.select_n(at_i, lax.select_n(at_target, permutation, value_i), value_target)

    return fori_loop(np.int32(0), np.int32(count), swap if batch else swap_in_place, positions)


@register_lowering(lu_pivots_to_permutation_p)
def _lu_pivots_to_permutation_lowering(ctx: LoweringContext, pivots: Value, *, permutation_size: int) -> Value:
    return ctx.lower_fun(lambda p: _permutation_of_pivots(p, permutation_size), pivots)[0]


@register_lowering(lu_p)
def _lu_lowering(ctx: LoweringContext, x: Value) -> list[Value]:
    check_lapack_dtype(x.aval.dtype)
    lu_aval, pivots_aval, permutation_aval = ctx.avals_out
    if x.aval.size == 0:  # no rows or no columns: nothing to eliminate, no row swapped
        pivots = ctx.full_like(0, pivots_aval)
        permutation = ctx.op1("stablehlo.iota", [], permutation_aval,
                              {"iota_dimension": f"{permutation_aval.ndim - 1} : i64"})
        return [x, pivots, permutation]
    factors, pivots, info = lapack_call(ctx, "getrf", [x], [lu_aval, pivots_aval, info_aval(x)],
                                        aliases={0: 0})
    pivots = ctx.op1("stablehlo.subtract", [pivots, filled(ctx, 1, pivots_aval)], pivots_aval)  # from 1-based
    factors, = nan_where_failed(ctx, info, [factors], accept_positive=True)  # info > 0: singular, still factored
    permutation = ctx.lower_fun(lambda p: _permutation_of_pivots(p, x.aval.shape[-2]), pivots)[0]
    return [factors, pivots, permutation]


# as JAX's, the kernels' results are not constrained
leave_unconstrained(cholesky_p, lu_p)
