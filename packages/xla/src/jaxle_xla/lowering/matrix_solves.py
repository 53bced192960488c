"""Lowering of ``triangular_solve`` (BLAS ``trsm`` through jaxlib's kernels for the types LAPACK takes,
``stablehlo.triangular_solve`` for the others, as JAX emits them) and ``tridiagonal_solve`` (LAPACK ``gtsv``, or
jaxlib's perturbing kernel)."""

from __future__ import annotations

import numpy as np

from jaxle_core import lax
from jaxle_core.lax.linalg_support import LAPACK_DTYPES, check_lapack_dtype
from jaxle_core.lax.matrix_solves import triangular_solve_p, tridiagonal_solve_p
from jaxle_xla.lapack import char, info_aval, lapack_call, nan_where_failed
from jaxle_xla.lowering.context import LoweringContext, Value, boolean
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


def _transpose_code(transpose_a: bool, conjugate_a: bool) -> str:
    return ("C" if conjugate_a else "T") if transpose_a else "N"


@register_lowering(triangular_solve_p)
def _triangular_solve_lowering(ctx: LoweringContext, a: Value, b: Value, *, left_side: bool, lower: bool,
                               transpose_a: bool, conjugate_a: bool, unit_diagonal: bool) -> Value:
    if b.aval.size == 0:
        return b
    if conjugate_a and not transpose_a and np.iscomplexobj(np.zeros((), a.aval.dtype)):
        # both kernels conjugate only along with a transpose
        a = ctx.lower_fun(lax.conj, a)[0]
    if b.aval.dtype not in LAPACK_DTYPES:
        names = {"N": "NO_TRANSPOSE", "T": "TRANSPOSE", "C": "ADJOINT"}
        return ctx.op1("stablehlo.triangular_solve", [a, b], b.aval, {
            "left_side": boolean(left_side), "lower": boolean(lower), "unit_diagonal": boolean(unit_diagonal),
            "transpose_a": f"#stablehlo<transpose {names[_transpose_code(transpose_a, conjugate_a)]}>"})
    return lapack_call(ctx, "trsm", [a, b], [b.aval], aliases={0: 1}, attributes={
        "side": char("L" if left_side else "R"), "uplo": char("L" if lower else "U"),
        "trans_x": char(_transpose_code(transpose_a, conjugate_a)), "diag": char("U" if unit_diagonal else "N")})[0]


@register_lowering(tridiagonal_solve_p)
def _tridiagonal_solve_lowering(ctx: LoweringContext, dl: Value, d: Value, du: Value, b: Value, *,
                                perturb_singular: bool) -> Value:
    check_lapack_dtype(b.aval.dtype)
    if b.aval.size == 0:
        return b
    operands = [dl, d, du, b]
    if perturb_singular:
        return lapack_call(ctx, "tridiagonal_solve_perturbed", operands, [b.aval])[0]
    *_, x, info = lapack_call(ctx, "gtsv", operands, [v.aval for v in operands] + [info_aval(b)],
                              aliases={i: i for i in range(4)})
    return nan_where_failed(ctx, info, [x])[0]


# as JAX's, the kernels' results are not constrained
leave_unconstrained(triangular_solve_p, tridiagonal_solve_p)
