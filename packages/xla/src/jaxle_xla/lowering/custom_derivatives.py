"""Lowering of functions with custom derivatives: the primal function's jaxpr (or, for ``remat_opt``, the forward
function's), emitted inline.

``custom_lin`` only exists to be transposed; meeting it in a program being lowered means a
``custom_vjp`` function was differentiated in forward mode, which is JAX's error.
"""

from __future__ import annotations

from jaxle_core.core import ClosedJaxpr
from jaxle_core.custom_derivatives import (
    FORWARD_MODE_ERROR,
    custom_jvp_call_p,
    custom_lin_p,
    custom_vjp_call_p,
    remat_opt_p,
)
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained


@register_lowering(custom_jvp_call_p, custom_vjp_call_p)
def _custom_call_lowering(ctx: LoweringContext, *args: Value, call_jaxpr: ClosedJaxpr, **params) -> list[Value]:
    return ctx.lower_call(call_jaxpr.jaxpr, call_jaxpr.consts, args)


# emitted inline: the function's own operations constrain its results
leave_unconstrained(custom_jvp_call_p, custom_vjp_call_p, remat_opt_p)


@register_lowering(remat_opt_p)
def _remat_opt_lowering(ctx: LoweringContext, *args: Value, fwd_jaxpr: ClosedJaxpr, **params) -> list[Value]:
    return ctx.lower_call(fwd_jaxpr.jaxpr, fwd_jaxpr.consts, args)


@register_lowering(custom_lin_p)
def _custom_lin_lowering(ctx: LoweringContext, *args: Value, **params) -> list[Value]:
    raise TypeError(FORWARD_MODE_ERROR)
