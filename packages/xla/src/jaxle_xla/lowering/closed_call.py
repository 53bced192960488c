"""Lowering of ``closed_call``: a private function (``closed_call``, or the call's ``name``) computing its jaxpr and
a call to it, as JAX writes it (a call with ordered effects is emitted inline, threading this block's tokens). In a
program constraining values to their types, its results are constrained inside the function only, as JAX's."""

from __future__ import annotations

from jaxle_core.closed_call import closed_call_p
from jaxle_core.jaxpr_util import jaxpr_has_ordered_effects
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(closed_call_p)
def _closed_call_lowering(ctx: LoweringContext, *args: Value, call_jaxpr, name: str = "closed_call") -> list[Value]:
    if jaxpr_has_ordered_effects(call_jaxpr.jaxpr):
        return ctx.lower_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, args)
    callee = ctx.module.function(call_jaxpr, name)
    return ctx.op("func.call", args, ctx.avals_out, {"callee": f"@{callee}"})


leave_unconstrained(closed_call_p)
