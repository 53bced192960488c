"""Lowering of ``custom_linear_solve``: its ``solve`` jaxpr, emitted inline (the other functions only matter to
differentiation and batching)."""

from __future__ import annotations

from jaxle_core.lax.control_flow.solves import linear_solve_p, split_linear_solve_args
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(linear_solve_p)
def _linear_solve_lowering(ctx: LoweringContext, *args: Value, const_lengths, jaxprs) -> list[Value]:
    consts, b = split_linear_solve_args(args, const_lengths)
    return ctx.lower_jaxpr(jaxprs.solve.jaxpr, jaxprs.solve.consts, [*consts.solve, *b])
