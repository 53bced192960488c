"""Lowering of the ``jit`` primitive: a private function and a call to it (threading the tokens of its ordered
effects through it when it has some). In a partitioned program a nested jit's ``in_shardings`` and
``out_shardings`` constrain its arguments and results inside the function, as sharding constraints do (as JAX
writes them)."""

from __future__ import annotations

from jaxle_core.jaxpr_util import jaxpr_ordered_effects
from jaxle_core.jit import jit_p
from jaxle_core.lax.tokens import abstract_token
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(jit_p)
def _jit_lowering(ctx: LoweringContext, *args: Value, jaxpr, name: str, in_shardings=(), out_shardings=(),
                  **params) -> list[Value]:
    # The callee's ordered effects continue this block's tokens of them and hand them back, first.
    effects = tuple(jaxpr_ordered_effects(jaxpr.jaxpr))
    callee = ctx.module.function(jaxpr, name, keep_name=True, effects=effects, in_shardings=in_shardings,
                                 out_shardings=out_shardings)
    outs = ctx.op("func.call", [*ctx.tokens(effects), *args], [abstract_token] * len(effects) + ctx.avals_out,
                  {"callee": f"@{callee}"})
    return ctx.continue_tokens(effects, outs)
