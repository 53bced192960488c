"""Lowering of ``empty``: zeros of its type, as JAX emits it (a scalar constant broadcast)."""

from __future__ import annotations

from jaxle_core.lax.creation import empty_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(empty_p)
def _empty(ctx: LoweringContext, *, shape, dtype, out_sharding) -> Value:
    out = ctx.avals_out[0]
    return ctx.broadcast_to(ctx.constant(0, out.dtype), out.shape)
