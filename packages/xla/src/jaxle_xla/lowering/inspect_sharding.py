"""Lowering of ``inspect_sharding``: nothing in the program; the module builder keeps the callback (and, in a
partitioned program, the value) for the executable to report the layout XLA chose once compiled."""

from __future__ import annotations

from typing import Any

from jaxle_core.inspect_sharding import inspect_sharding_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(inspect_sharding_p)
def _inspect_sharding(ctx: LoweringContext, x: Value, *, callback: Any) -> list[Value]:
    ctx.module.inspect_sharding(ctx, x, callback)
    return []
