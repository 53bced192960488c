"""Lowering of ``stage`` and ``device_put``: on one device both are the operand itself."""

from __future__ import annotations

from jaxle_core.lax.placement import device_put_p, stage_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(stage_p)
def _stage(ctx: LoweringContext, x: Value) -> Value:
    return x


@register_lowering(device_put_p)
def _device_put(ctx: LoweringContext, *args: Value, devices, srcs, copy_semantics) -> list[Value]:
    return list(args)
