"""Lowering of ``optimization_barrier`` (StableHLO's own op) and ``dce_sink`` (nothing, or a side-effecting
custom call that consumes the values when ``prevent_mlir_dce``, as JAX emits)."""

from __future__ import annotations

from jaxle_core.lax.barriers import dce_sink_p, optimization_barrier_p
from jaxle_xla.lowering.context import LoweringContext, Value, default_layout
from jaxle_xla.lowering.module import register_lowering


@register_lowering(optimization_barrier_p)
def _optimization_barrier(ctx: LoweringContext, *args: Value) -> list[Value]:
    return ctx.op("stablehlo.optimization_barrier", args, ctx.avals_out) if args else []


@register_lowering(dce_sink_p)
def _dce_sink(ctx: LoweringContext, x: Value, *, prevent_mlir_dce: bool) -> list[Value]:
    if prevent_mlir_dce:
        layout = default_layout(x.aval.ndim)
        ctx.op("stablehlo.custom_call", [x], [], {
            "call_target_name": '"dce_sink"', "has_side_effect": "true", "backend_config": '""',
            "operand_layouts": f"[{layout}]", "result_layouts": "[]", "mhlo.backend_config": "{}"})
    return []
