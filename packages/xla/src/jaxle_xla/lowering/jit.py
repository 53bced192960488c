"""Lowering of the ``jit`` primitive: a private function and a call to it."""

from __future__ import annotations

from jaxle_core.jit import jit_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(jit_p)
def _jit_lowering(ctx: LoweringContext, *args: Value, jaxpr, name: str, **params) -> list[Value]:
    callee = ctx.module.function(jaxpr, name)
    return ctx.op("func.call", args, ctx.avals_out, {"callee": f"@{callee}"})
