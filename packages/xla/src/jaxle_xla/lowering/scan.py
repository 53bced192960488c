"""Lowering of ``scan``: a ``stablehlo.while`` loop over a step counter, as JAX writes it.

The loop state is the xs and the consts (unchanged by the loop), the counter,
the carry and one buffer per y. Each step reads slice ``i`` of every x
(``length - i - 1`` when ``reverse``) with a call of ``@dynamic_index_in_dim``,
calls the body as a private function (``@closed_call``) and writes the ys into
their buffers there with calls of ``@dynamic_update_index_in_dim`` (jitted
helpers, so each is one function per operand types). ``unroll`` is ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import jaxpr_has_ordered_effects
from jaxle_core.lax.control_flow.scan import scan_p, split_scan_args
from jaxle_core.lax.slicing import dynamic_index_in_dim, dynamic_update_index_in_dim
from jaxle_core.lax.tokens import abstract_token
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_type, constrains_types

_INDEX = ShapedArray((), np.int32)


def _read_slice(x: Any, index: Any) -> Any:
    return dynamic_index_in_dim(x, index, keepdims=False, allow_negative_indices=False)


def _write_slice(buffer: Any, y: Any, index: Any) -> Any:
    return dynamic_update_index_in_dim(buffer, y, index, 0, allow_negative_indices=False)


class _Layout:
    """The constraints a scan over values typed with layouts (over Explicit mesh axes) puts on the values of its
    loop, as JAX's lowering does: the slices and stacked outputs laid out as their types, the step counter
    replicated. Elsewhere it constrains nothing."""

    def __init__(self, ctx: LoweringContext):
        typed = [a.explicit_sharding for a in (*ctx.avals_in, *ctx.avals_out)
                 if getattr(a, "explicit_sharding", None) is not None]
        self.mesh = typed[0].mesh if typed and constrains_types(ctx) else None

    def of(self, ctx: LoweringContext, value: Value, aval: Any) -> Value:
        """``value`` constrained to the layout of ``aval``'s type (if any)."""
        sharding = getattr(aval, "explicit_sharding", None)
        if self.mesh is None or sharding is None:
            return value
        return constrain_to_type(ctx, value, sharding)

    def replicated(self, ctx: LoweringContext, value: Value) -> Value:
        if self.mesh is None:
            return value
        return constrain_to_type(ctx, value, NamedSharding(self.mesh, PartitionSpec()))

    def helper(self, ctx: LoweringContext, fun: Callable[..., Any], *args: Value) -> Value:
        """The result of the jitted helper ``fun`` called on ``args``: traced as typed under the mesh where one of
        them is typed over it (values typed over no mesh stay so, as JAX's), and as in device memory (an offloaded y
        is written into its buffer as the loop's other values are)."""
        args = tuple(Value(a.name, a.aval.update(memory_space=MemorySpace.Device), a.type)
                     if getattr(a.aval, "memory_space", None) not in (None, MemorySpace.Device) else a for a in args)
        if self.mesh is None or all(getattr(a.aval, "explicit_sharding", None) is None for a in args):
            return ctx.lower_fun(fun, *args)[0]
        return ctx.lower_typed_fun(fun, self.mesh, *args)[0]


def _call_body(ctx: LoweringContext, jaxpr: ClosedJaxpr, args: list[Value], ordered_effects: bool) -> list[Value]:
    """A call of the private function computing the body (threading this block's token through it when it has
    ordered effects)."""
    callee = ctx.module.function(jaxpr, "closed_call", token=ordered_effects)
    if not ordered_effects:
        return ctx.op("func.call", args, jaxpr.out_avals, {"callee": f"@{callee}"})
    outs = ctx.op("func.call", [ctx.token(), *args], [abstract_token, *jaxpr.out_avals], {"callee": f"@{callee}"})
    ctx.ordered_token = outs[0]
    return outs[1:]


@register_lowering(scan_p)
def _scan_lowering(ctx: LoweringContext, *args: Value, reverse: bool, length: int, jaxpr: ClosedJaxpr,
                   num_consts: int, num_carry: int, unroll: int) -> list[Value]:
    layout = _Layout(ctx)
    y_avals = ctx.avals_out[num_carry:]
    # the buffers typed as the stacked ys (the helpers writing into them are traced on those types)
    buffers = [layout.of(ctx, ctx.broadcast_to(ctx.constant(0, a.dtype), a.shape), a) for a in y_avals]
    buffers = [Value(b.name, a, b.type) for b, a in zip(buffers, y_avals)]
    consts, carry, xs = split_scan_args(args, num_consts, num_carry)
    if length == 0:  # no step runs (and a slice of an empty x would not type-check)
        return carry + buffers
    n_xs, n_fixed = len(xs), len(xs) + num_consts  # the loop's values it does not change, before its counter
    state = [*xs, *consts, ctx.constant(0, np.int32), *carry, *buffers]
    ordered_effects = jaxpr_has_ordered_effects(jaxpr.jaxpr)

    def cond(inner: LoweringContext, values: list[Value]) -> list[Value]:
        limit = dimension_forms.index_value(inner, length)
        return [inner.compare("LT", layout.replicated(inner, values[n_fixed]), layout.replicated(inner, limit))]

    def body(inner: LoweringContext, values: list[Value]) -> list[Value]:
        counter = values[n_fixed]
        carry, ys = values[n_fixed + 1:n_fixed + 1 + num_carry], values[n_fixed + 1 + num_carry:]
        index = counter
        if reverse:
            last = inner.op1("stablehlo.subtract", [dimension_forms.index_value(inner, length), counter], _INDEX)
            index = inner.op1("stablehlo.subtract", [last, inner.constant(1, np.int32)], _INDEX)
        slices = [layout.helper(inner, _read_slice, x, index) for x in values[:n_xs]]
        outs = _call_body(inner, jaxpr, [*values[n_xs:n_fixed], *carry, *slices], ordered_effects)
        new_ys = [layout.helper(inner, _write_slice, b, y, index) for b, y in zip(ys, outs[num_carry:])]
        one = inner.constant(1, np.int32)
        count, one = layout.replicated(inner, counter), layout.replicated(inner, one)
        step = layout.replicated(inner, inner.op1("stablehlo.add", [count, one], _INDEX))
        return [*values[:n_fixed], step, *outs[:num_carry], *new_ys]

    outs = ctx.while_loop(state, cond, body, ordered_effects)
    layout.replicated(ctx, outs[n_fixed])  # the final count, unused (the scan's own results are constrained as typed)
    return outs[n_fixed + 1:]
