"""Lowering of the identity primitives ``copy`` and ``stop_gradient``: the operand itself.

XLA gives every result its own buffer (unless an input is donated), so ``copy`` needs no op.
"""

from __future__ import annotations

from jaxle_core.lax.identity import copy_p, stop_gradient_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering


@register_lowering(copy_p, stop_gradient_p)
def _identity(ctx: LoweringContext, x: Value) -> Value:
    return x
