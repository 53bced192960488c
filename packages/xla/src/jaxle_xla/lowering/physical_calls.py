"""Lowering of ``physical_call``: a physical rule's operations and the constants they make, emitted inline with the
constants first (where JAX writes those of a key operation's rule)."""

from __future__ import annotations

from jaxle_core.core import ClosedJaxpr
from jaxle_core.extended import physical_call_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(physical_call_p)
def _physical_call_lowering(ctx: LoweringContext, *args: Value, jaxpr: ClosedJaxpr) -> list[Value]:
    return ctx.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, args)


# emitted inline: the rule's own operations constrain their results
leave_unconstrained(physical_call_p)
