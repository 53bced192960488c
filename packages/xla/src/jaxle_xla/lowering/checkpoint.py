"""Lowering of ``checkpoint`` (``remat2``), inlined, and of ``name``, the identity.

A differentiated checkpoint with ``prevent_cse`` first passes its operands
through an optimization barrier, so that XLA cannot merge the recomputation
with the forward pass's copy of the same values.
"""

from __future__ import annotations

from jaxle_core.checkpoint import checkpoint_p, name_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(checkpoint_p)
def _checkpoint_lowering(ctx: LoweringContext, *args: Value, jaxpr, prevent_cse, differentiated: bool,
                         policy) -> list[Value]:
    if differentiated and prevent_cse and args:
        args = tuple(ctx.op("stablehlo.optimization_barrier", args, [a.aval for a in args]))
    return ctx.lower_call(jaxpr, (), args, "checkpoint")


@register_lowering(name_p)
def _name_lowering(ctx: LoweringContext, x: Value, *, name) -> Value:
    return x
