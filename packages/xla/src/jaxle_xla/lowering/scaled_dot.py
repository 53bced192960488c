"""Lowering of scaled_dot as JAX lowers it: a ``stablehlo.composite "xla.scaled_dot"`` whose decomposition (which
XLA's CPU backend runs) scales both operands in bfloat16 and contracts them with ``dot_general`` into the preferred
type."""

from __future__ import annotations

from jaxle_core.lax.dot import dot_general
from jaxle_core.lax.elementwise import mul
from jaxle_core.lax.scaled_dot import SCALING_DTYPE, expanded_scale, scaled_dot_p
from jaxle_core.lax.structural import broadcast_in_dim, convert_element_type, reshape
from jaxle_core.staging import trace_to_jaxpr
from jaxle_xla.lowering.context import LoweringContext, Value, element_type
from jaxle_xla.lowering.module import register_lowering


def _decomposition(lhs, rhs, lhs_scale, rhs_scale, *, dimension_numbers, preferred_element_type):
    (lhs_contract, rhs_contract), _ = dimension_numbers

    def scaled(x, scale, contracting):
        full = expanded_scale(scale, x.shape, contracting, broadcast_in_dim, reshape)
        return mul(convert_element_type(x, SCALING_DTYPE), convert_element_type(full, SCALING_DTYPE))

    return [dot_general(scaled(lhs, lhs_scale, lhs_contract), scaled(rhs, rhs_scale, rhs_contract),
                        dimension_numbers, preferred_element_type=preferred_element_type)]


def _nested(numbers) -> str:
    return "[" + ", ".join(_nested(n) if isinstance(n, tuple) else str(n) for n in numbers) + "]"


@register_lowering(scaled_dot_p)
def _scaled_dot_lowering(ctx: LoweringContext, *operands: Value, dimension_numbers, preferred_element_type) -> Value:
    params = dict(dimension_numbers=dimension_numbers, preferred_element_type=preferred_element_type)
    closed = trace_to_jaxpr(lambda *xs: _decomposition(*xs, **params), [v.aval for v in operands], None)
    attributes = {"composite_attributes": f"{{dimension_numbers = {_nested(dimension_numbers)}, "
                                          f"preferred_element_type = {element_type(preferred_element_type)}}}",
                  "decomposition": f"@{ctx.module.function(closed, 'xla.scaled_dot', keep_name=True)}",
                  "name": '"xla.scaled_dot"'}
    return ctx.op1("stablehlo.composite", list(operands), ctx.avals_out[0], attributes)
