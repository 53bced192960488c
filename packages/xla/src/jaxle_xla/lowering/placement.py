"""Lowering of ``stage``, ``device_put`` and ``sharding_constraint``: on one device each is the operand itself
(JAX writes a Shardy ``sdy.sharding_constraint`` over an empty mesh there, which changes nothing)."""

from __future__ import annotations

from jaxle_core.lax.placement import device_put_p, sharding_constraint_p, stage_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(stage_p, sharding_constraint_p)
def _identity(ctx: LoweringContext, x: Value, **params) -> Value:
    return x


@register_lowering(device_put_p)
def _device_put(ctx: LoweringContext, *args: Value, devices, srcs, copy_semantics) -> list[Value]:
    return list(args)
