"""Lowering of ``scan``: a ``stablehlo.while`` loop over a step counter.

The loop state is the counter, the consts, the carry, the xs and one buffer
per y. Each step reads slice ``i`` of every x (``length - 1 - i`` when
``reverse``), applies the body and writes the ys into their buffers there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import jaxpr_has_ordered_effects
from jaxle_core.lax.control_flow.scan import scan_p, split_scan_args
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_type, constrains_types

_INDEX = ShapedArray((), np.int32)


def _zeros(ctx: LoweringContext, n: int) -> list[Value]:
    """``n`` copies of the index 0 (the start of the dimensions after the scanned one)."""
    return [ctx.constant(0, np.int32)] * n if n else []


def _read_slice(ctx: LoweringContext, x: Value, index: Value, layout: _Layout, typed: Any) -> Value:
    """Slice ``index`` of ``x`` (of type ``typed``) along its leading axis."""
    shape = x.aval.shape
    piece = layout.of(ctx, ctx.op1("stablehlo.dynamic_slice", [x, index] + _zeros(ctx, len(shape) - 1), x.aval.update(
        shape=(1,) + shape[1:]), {"slice_sizes": i64_array((1,) + shape[1:])}), typed)
    return ctx.op1("stablehlo.reshape", [piece], x.aval.update(shape=shape[1:]))


def _write_slice(ctx: LoweringContext, buffer: Value, y: Value, index: Value, layout: _Layout, typed: Any) -> Value:
    """``buffer`` (of type ``typed``) with ``y`` written at ``index`` along its leading axis."""
    piece = layout.of(ctx, ctx.op1("stablehlo.broadcast_in_dim", [y], y.aval.update(shape=(1,) + y.aval.shape),
                                   {"broadcast_dimensions": i64_array(range(1, y.aval.ndim + 1))}), typed)
    return layout.of(ctx, ctx.op1("stablehlo.dynamic_update_slice", [buffer, piece, index]
                                  + _zeros(ctx, y.aval.ndim), buffer.aval), typed)


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


@register_lowering(scan_p)
def _scan_lowering(ctx: LoweringContext, *args: Value, reverse: bool, length: int, jaxpr: ClosedJaxpr,
                   num_consts: int, num_carry: int, unroll: int) -> list[Value]:
    layout = _Layout(ctx)
    y_avals = ctx.avals_out[num_carry:]
    buffers = [layout.of(ctx, ctx.broadcast_to(ctx.constant(0, a.dtype), a.shape), a) for a in y_avals]
    if length == 0:  # no step runs (and a slice of an empty x would not type-check)
        return split_scan_args(args, num_consts, num_carry)[1] + buffers
    state = [ctx.constant(0, np.int32), *args, *buffers]
    n_args = len(args)
    x_avals = ctx.avals_in[num_consts + num_carry:]

    def cond(inner: LoweringContext, values: list[Value]) -> list[Value]:
        limit = dimension_forms.index_value(inner, length)
        return [inner.compare("LT", layout.replicated(inner, values[0]), layout.replicated(inner, limit))]

    def body(inner: LoweringContext, values: list[Value]) -> list[Value]:
        counter, rest = values[0], values[1:]
        consts, carry, xs = split_scan_args(rest[:n_args], num_consts, num_carry)
        ys = rest[n_args:]
        index = counter
        if reverse:
            index = inner.op1("stablehlo.subtract", [dimension_forms.index_value(inner, length - 1), counter], _INDEX)
        slices = [layout.of(inner, _read_slice(inner, x, index, layout, typed), aval)
                  for x, typed, aval in zip(xs, x_avals, jaxpr.in_avals[num_consts + num_carry:])]
        outs = inner.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, [*consts, *carry, *slices])
        new_ys = [_write_slice(inner, b, y, index, layout, a) for b, y, a in zip(ys, outs[num_carry:], y_avals)]
        count = layout.replicated(inner, counter)
        one = layout.replicated(inner, inner.constant(1, np.int32))
        step = layout.replicated(inner, inner.op1("stablehlo.add", [count, one], _INDEX))
        return [step, *consts, *outs[:num_carry], *xs, *new_ys]

    outs = ctx.while_loop(state, cond, body, jaxpr_has_ordered_effects(jaxpr.jaxpr))
    layout.replicated(ctx, outs[0])  # the final count, unused (the scan's own results are constrained as typed)
    return outs[1 + num_consts:1 + num_consts + num_carry] + outs[1 + n_args:]
