"""Lowering of ``eigh`` and ``eig`` to LAPACK's ``syevd``/``heevd`` and ``geev`` through jaxlib's kernels, emitted
as JAX emits them (the same kernels on the same operands give the same bits)."""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.eigen import check_eig_supported, check_eigh_supported, eig_p, eigh_p
from jaxle_xla.lapack import char, empty_results, info_aval, lapack_call, nan_where_failed
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(eigh_p)
def _eigh_lowering(ctx: LoweringContext, x: Value, *, lower, sort_eigenvalues, subset_by_index,
                   algorithm) -> list[Value]:
    check_eigh_supported(x.aval, subset_by_index, algorithm)
    v_aval, w_aval = ctx.avals_out
    if x.aval.size == 0:
        return empty_results(ctx, [v_aval, w_aval])
    v, w, info = lapack_call(ctx, "syevd", [x], [v_aval, w_aval, info_aval(x)], aliases={0: 0},
                             attributes={"mode": char("V"), "uplo": char("L" if lower else "U")})
    return nan_where_failed(ctx, info, [v, w])


@register_lowering(eig_p)
def _eig_lowering(ctx: LoweringContext, x: Value, *, compute_left_eigenvectors, compute_right_eigenvectors,
                  enable_eigvec_derivs, implementation) -> list[Value]:
    check_eig_supported(x.aval, implementation)
    if x.aval.size == 0:
        return empty_results(ctx, ctx.avals_out)
    w_aval = ctx.avals_out[0]
    vectors = ShapedArray(x.aval.shape, w_aval.dtype)  # geev writes both buffers, asked for or not
    attributes = {"compute_left": char("V" if compute_left_eigenvectors else "N"),
                  "compute_right": char("V" if compute_right_eigenvectors else "N")}
    if np.issubdtype(x.aval.dtype, np.complexfloating):
        w, vl, vr, info = lapack_call(ctx, "geev", [x], [w_aval, vectors, vectors, info_aval(x)],
                                      attributes=attributes)
    else:  # the real kernel returns the real and imaginary parts of the eigenvalues apart
        parts = ShapedArray(w_aval.shape, x.aval.dtype)
        real, imag, vl, vr, info = lapack_call(ctx, "geev", [x], [parts, parts, vectors, vectors, info_aval(x)],
                                               attributes=attributes)
        w = ctx.op1("stablehlo.complex", [real, imag], w_aval)
    kept = [w] + [vl] * compute_left_eigenvectors + [vr] * compute_right_eigenvectors
    return nan_where_failed(ctx, info, kept)


# as JAX's, the kernels' results are not constrained
leave_unconstrained(eigh_p, eig_p)
