"""Lowering of the Cholesky and LU factorizations: LAPACK's ``potrf`` and ``getrf`` through jaxlib's kernels (as
JAX emits them, for the same bits), the pivots' permutation as a loop of swaps, ``cholesky_update`` as its sweep of
Givens rotations."""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.batching import vmap
from jaxle_core.lax.control_flow.while_loops import fori_loop
from jaxle_core.lax.factorizations import (
    cholesky_p,
    cholesky_update_p,
    cholesky_update_sweep,
    lu_p,
    lu_pivots_to_permutation_p,
)
from jaxle_core.lax.linalg_support import check_lapack_dtype
from jaxle_core.lax.structural import convert_keeping_weak_type
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


def _literal(value: int, like):
    """``value`` typed as ``like`` is, weak type included."""
    aval = get_aval(like)
    return convert_keeping_weak_type(np.asarray(value, aval.dtype), aval.dtype, aval.weak_type)


def _wrapped_index(index, size: int, convert_first: bool):
    """``index`` counted from the end when negative, as ``jnp`` wraps a scalar index: to read (``convert_first``:
    the index made strongly typed before the sum) or to write at (converted to int32 after the selection)."""
    negative = lax.lt(index, _literal(0, index))
    start = lax.convert_element_type(index, get_aval(index).dtype) if convert_first else index
    wrapped = lax.select_n(negative, index, lax.add(start, _literal(size, index)))
    return wrapped if convert_first else lax.convert_element_type(wrapped, np.int32)


def _read(vector, index, size: int):
    """``vector[index]`` as ``jnp`` reads it: a one-element dynamic slice."""
    window = lax.dynamic_slice(vector, (_wrapped_index(index, size, True),), (1,), allow_negative_indices=False)
    return lax.squeeze(window, (0,))


_ONE_ELEMENT = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                           scatter_dims_to_operand_dims=(0,))


def _write(vector, index, value, size: int):
    """``vector.at[index].set(value)`` as ``jnp`` writes it: a scatter of one element, dropped out of range."""
    position = lax.broadcast_in_dim(_wrapped_index(index, size, False), (1,), ())
    return lax.scatter(vector, position, value, _ONE_ELEMENT, indices_are_sorted=True, unique_indices=True,
                       mode=lax.GatherScatterMode.FILL_OR_DROP)


def _swap(i, permutation, pivots):
    """One matrix's step: entries ``i`` and ``pivots[i]`` of ``permutation`` swapped."""
    size, count = permutation.shape[-1], pivots.shape[-1]
    target = _read(pivots, i, count)
    at_i, at_target = _read(permutation, i, size), _read(permutation, target, size)
    return _write(_write(permutation, i, at_target, size), target, at_i, size)


def _permutation_of_pivots(pivots, size: int):
    """Swap entry ``i`` of ``range(size)`` with entry ``pivots[..., i]``, for each ``i`` in turn: JAX's loop (on
    CPU), reading and writing single entries, each matrix of a batch through ``vmap``; a pivot out of range reads
    the nearest entry and writes nothing."""
    batch, count = pivots.shape[:-1], pivots.shape[-1]
    positions = lax.broadcasted_iota(np.int32, (*batch, size), len(batch))
    if size == 0 or count == 0:
        return positions
    swap = _swap
    for _ in batch:
        swap = vmap(swap, in_axes=(None, 0, 0))

    def step(i, carried):
        permutation, swaps = carried
        return swap(i, permutation, swaps), swaps

    return fori_loop(np.int32(0), np.int32(count), step, (positions, pivots))[0]


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
