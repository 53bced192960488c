"""Lowering of ``linear_call``: its callee, inlined (the transpose matters only to differentiation)."""

from __future__ import annotations

from jaxle_core.linear_call import linear_call_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(linear_call_p)
def _linear_call_lowering(ctx: LoweringContext, *args: Value, callee, **params) -> list[Value]:
    return ctx.lower_jaxpr(callee.jaxpr, callee.consts, args)
