"""Lowering of ``schur`` to LAPACK's ``gees`` through jaxlib's kernels, emitted as JAX emits it (the same kernel
on the same operand gives the same bits)."""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.schur import check_schur_supported, schur_p
from jaxle_xla.lapack import char, empty_results, info_aval, lapack_call, nan_where_failed
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(schur_p)
def _schur_lowering(ctx: LoweringContext, x: Value, *, compute_schur_vectors, sort_eig_vals,
                    select_callable) -> list[Value]:
    check_schur_supported(x.aval, sort_eig_vals)
    if x.aval.size == 0:
        return empty_results(ctx, ctx.avals_out)
    batch, n = x.aval.shape[:-2], x.aval.shape[-1]
    status = info_aval(x)
    # the eigenvalues: one complex vector, or the real kernel's real and imaginary parts
    eigenvalues = [ShapedArray(batch + (n,), x.aval.dtype)]
    if not np.issubdtype(x.aval.dtype, np.complexfloating):
        eigenvalues *= 2
    t, z, *_, info = lapack_call(ctx, "gees", [x], [x.aval, x.aval, *eigenvalues, status, status],
                                 attributes={"mode": char("V" if compute_schur_vectors else "N"),
                                             "sort": char("N")}, aliases={0: 0})
    return nan_where_failed(ctx, info, [t, z] if compute_schur_vectors else [t])


# as JAX's, the kernels' results are not constrained
leave_unconstrained(schur_p)
