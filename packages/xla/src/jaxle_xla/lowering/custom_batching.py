"""Lowering of ``custom_vmap_call``: the function's jaxpr, emitted inline (its rule only matters under vmap)."""

from __future__ import annotations

from jaxle_core.core import ClosedJaxpr
from jaxle_core.custom_batching import custom_vmap_call_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(custom_vmap_call_p)
def _custom_vmap_call_lowering(ctx: LoweringContext, *args: Value, call: ClosedJaxpr, **params) -> list[Value]:
    return ctx.lower_jaxpr(call.jaxpr, call.consts, args)
