"""Lowering of ``layout_constraint``: XLA's ``LayoutConstraint`` custom call, its operand and result in the
layout asked for (minor to major, as custom calls state layouts; the tiles are left to XLA)."""

from __future__ import annotations

from jaxle_core.lax.layout_constraints import layout_constraint_p
from jaxle_core.layout import Layout
from jaxle_xla.lowering.context import LoweringContext, Value, layout_attribute
from jaxle_xla.lowering.module import register_lowering


@register_lowering(layout_constraint_p)
def _layout_constraint(ctx: LoweringContext, x: Value, *, layout: Layout) -> Value:
    order = layout_attribute(reversed(layout.major_to_minor))
    return ctx.op1("stablehlo.custom_call", [x], x.aval, {
        "call_target_name": '"LayoutConstraint"', "backend_config": '""',
        "operand_layouts": f"[{order}]", "result_layouts": f"[{order}]"})
