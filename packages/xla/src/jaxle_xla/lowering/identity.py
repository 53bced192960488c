"""Lowering of the identity primitives ``copy`` and ``stop_gradient``: the operand itself.

XLA gives every result its own buffer (unless an input is donated), so ``copy`` needs no op. As in JAX, the result
is not constrained again to its type under a mesh of Explicit axes (the operand already is).
"""

from __future__ import annotations

from jaxle_core.lax.identity import copy_p, stop_gradient_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(copy_p, stop_gradient_p)
def _identity(ctx: LoweringContext, x: Value) -> Value:
    return x


leave_unconstrained(copy_p, stop_gradient_p)
