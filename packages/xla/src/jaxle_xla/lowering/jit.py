"""Lowering of the ``jit`` primitive: a private function and a call to it (threading the token of ordered
effects through it when it has some). In a partitioned program a nested jit's ``in_shardings`` and
``out_shardings`` constrain its arguments and results, as sharding constraints do."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.jaxpr_util import jaxpr_has_ordered_effects
from jaxle_core.jit import jit_p
from jaxle_core.lax.tokens import abstract_token
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.placement import constrain


@register_lowering(jit_p)
def _jit_lowering(ctx: LoweringContext, *args: Value, jaxpr, name: str, in_shardings=(), out_shardings=(),
                  **params) -> list[Value]:
    args = _constrained(ctx, args, in_shardings)
    if not jaxpr_has_ordered_effects(jaxpr.jaxpr):
        callee = ctx.module.function(jaxpr, name)
        outs = ctx.op("func.call", args, ctx.avals_out, {"callee": f"@{callee}"})
        return _constrained(ctx, outs, out_shardings)
    # The callee's ordered effects continue this block's token and hand it back.
    callee = ctx.module.function(jaxpr, name, token=True)
    outs = ctx.op("func.call", [ctx.token(), *args], [abstract_token, *ctx.avals_out], {"callee": f"@{callee}"})
    ctx.ordered_token = outs[0]
    return _constrained(ctx, outs[1:], out_shardings)


def _constrained(ctx: LoweringContext, values: Sequence[Value], shardings: Sequence[Any]) -> list[Value]:
    if not shardings:
        return list(values)
    return [value if sharding is None else constrain(ctx, value, sharding)
            for value, sharding in zip(values, shardings)]
