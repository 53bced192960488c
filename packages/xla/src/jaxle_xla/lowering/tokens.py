"""Lowering of the token primitives to StableHLO's ``create_token`` and ``after_all``."""

from __future__ import annotations

from jaxle_core.lax.tokens import after_all_p, create_token_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(create_token_p)
def _create_token(ctx: LoweringContext) -> Value:
    return ctx.op1("stablehlo.create_token", [], ctx.avals_out[0])


@register_lowering(after_all_p)
def _after_all(ctx: LoweringContext, *tokens: Value) -> Value:
    return ctx.op1("stablehlo.after_all", tokens, ctx.avals_out[0])
