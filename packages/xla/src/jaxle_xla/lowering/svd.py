"""Lowering of ``svd`` to LAPACK's ``gesdd`` (``gesvd`` for ``SvdAlgorithm.QR``) through jaxlib's kernels, emitted
as JAX emits it (the same kernel on the same operand gives the same bits)."""

from __future__ import annotations

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.svd import SvdAlgorithm, check_svd_supported, svd_p
from jaxle_xla.lapack import char, empty_results, identity_matrices, info_aval, lapack_call, nan_where_failed
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


def _empty_svd(ctx: LoweringContext, full_matrices: bool, compute_uv: bool) -> list[Value]:
    """No singular values; the full factors of a matrix with no elements are identities, as JAX's."""
    outs = empty_results(ctx, ctx.avals_out[:1])
    if compute_uv:
        outs += [identity_matrices(ctx, aval) if full_matrices else empty_results(ctx, [aval])[0]
                 for aval in ctx.avals_out[1:]]
    return outs


@register_lowering(svd_p)
def _svd_lowering(ctx: LoweringContext, x: Value, *, full_matrices, compute_uv, subset_by_index,
                  algorithm) -> list[Value]:
    check_svd_supported(x.aval, subset_by_index, algorithm)
    if x.aval.size == 0:
        return _empty_svd(ctx, full_matrices, compute_uv)
    batch, (m, n) = x.aval.shape[:-2], x.aval.shape[-2:]
    s_aval = ctx.avals_out[0]
    # without vectors the kernel still takes buffers for them, as large as the vectors asked for would be
    u_columns, vt_rows = (m, n) if full_matrices else (min(m, n), min(m, n))
    mode = ("A" if full_matrices else "S") if compute_uv else "N"
    u_aval = ShapedArray(batch + (m, u_columns), x.aval.dtype)
    vt_aval = ShapedArray(batch + (vt_rows, n), x.aval.dtype)
    routine = "gesvd" if algorithm == SvdAlgorithm.QR else "gesdd"
    _, s, u, vt, info = lapack_call(ctx, routine, [x], [x.aval, s_aval, u_aval, vt_aval, info_aval(x)],
                                    attributes={"mode": char(mode)}, aliases={0: 0})
    return nan_where_failed(ctx, info, [s, u, vt] if compute_uv else [s])


# as JAX's, the kernels' results are not constrained
leave_unconstrained(svd_p)
