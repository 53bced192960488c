"""Lowering of the ``jit`` primitive: a private function and a call to it (threading the token of ordered
effects through it when it has some). In a partitioned program a nested jit's ``in_shardings`` and
``out_shardings`` constrain its arguments and results inside the function, as sharding constraints do (as JAX
writes them)."""

from __future__ import annotations

from jaxle_core.jaxpr_util import jaxpr_has_ordered_effects
from jaxle_core.jit import jit_p
from jaxle_core.lax.tokens import abstract_token
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(jit_p)
def _jit_lowering(ctx: LoweringContext, *args: Value, jaxpr, name: str, in_shardings=(), out_shardings=(),
                  **params) -> list[Value]:
    shardings = {"in_shardings": in_shardings, "out_shardings": out_shardings}
    if not jaxpr_has_ordered_effects(jaxpr.jaxpr):
        callee = ctx.module.function(jaxpr, name, keep_name=True, **shardings)
        return ctx.op("func.call", args, ctx.avals_out, {"callee": f"@{callee}"})
    # The callee's ordered effects continue this block's token and hand it back.
    callee = ctx.module.function(jaxpr, name, keep_name=True, token=True, **shardings)
    outs = ctx.op("func.call", [ctx.token(), *args], [abstract_token, *ctx.avals_out], {"callee": f"@{callee}"})
    ctx.ordered_token = outs[0]
    return outs[1:]
