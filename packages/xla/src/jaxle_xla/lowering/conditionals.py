"""Lowering of ``cond`` (``stablehlo.case`` with one region per branch) and of its ``empty2`` placeholder."""

from __future__ import annotations

from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.control_flow.conditionals import cond_p, empty2_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(cond_p)
def _cond_lowering(ctx: LoweringContext, index: Value, *args: Value,
                   branches: tuple[ClosedJaxpr, ...]) -> list[Value]:
    def region(branch: ClosedJaxpr) -> str:
        return ctx.region([], lambda inner, _: inner.lower_jaxpr(branch.jaxpr, branch.consts, args))

    return ctx.op("stablehlo.case", [index], ctx.avals_out, regions=[region(b) for b in branches])


@register_lowering(empty2_p)
def _empty2_lowering(ctx: LoweringContext, *, dtype, memory_space) -> Value:
    return ctx.full_like(0, ctx.avals_out[0])
