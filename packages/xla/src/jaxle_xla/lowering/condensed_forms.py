"""Lowering of ``hessenberg`` and ``tridiagonal`` to LAPACK's ``gehrd`` and ``sytrd``/``hetrd`` through jaxlib's
kernels, emitted as JAX emits them (the same kernels on the same operands give the same bits)."""

from __future__ import annotations

from jaxle_core.lax.condensed_forms import hessenberg_p, tridiagonal_p
from jaxle_core.lax.linalg_support import check_lapack_dtype
from jaxle_xla.lapack import char, empty_results, info_aval, int32, lapack_call, nan_where_failed
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(hessenberg_p)
def _hessenberg_lowering(ctx: LoweringContext, x: Value) -> list[Value]:
    check_lapack_dtype(x.aval.dtype)
    if x.aval.size == 0:
        return empty_results(ctx, ctx.avals_out)
    n = x.aval.shape[-1]
    # the whole matrix is reduced: rows and columns 1 to n, in LAPACK's one-based counting
    packed, taus, info = lapack_call(ctx, "gehrd", [x], [*ctx.avals_out, info_aval(x)],
                                     attributes={"high": int32(n), "low": int32(1)}, aliases={0: 0})
    return nan_where_failed(ctx, info, [packed, taus])


@register_lowering(tridiagonal_p)
def _tridiagonal_lowering(ctx: LoweringContext, x: Value, *, lower) -> list[Value]:
    check_lapack_dtype(x.aval.dtype)
    if x.aval.size == 0:
        return empty_results(ctx, ctx.avals_out)
    *outs, info = lapack_call(ctx, "sytrd", [x], [*ctx.avals_out, info_aval(x)],
                              attributes={"uplo": char("L" if lower else "U")}, aliases={0: 0})
    return nan_where_failed(ctx, info, outs)


# as JAX's, the kernels' results are not constrained
leave_unconstrained(hessenberg_p, tridiagonal_p)
