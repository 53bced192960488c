"""Lowering of ``scan``: a ``stablehlo.while`` loop over a step counter.

The loop state is the counter, the consts, the carry, the xs and one buffer
per y. Each step reads slice ``i`` of every x (``length - 1 - i`` when
``reverse``), applies the body and writes the ys into their buffers there.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr
from jaxle_core.jaxpr_util import jaxpr_has_ordered_effects
from jaxle_core.lax.control_flow.scan import scan_p, split_scan_args, stacked_aval
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value, i64_array
from jaxle_xla.lowering.module import register_lowering

_INDEX = ShapedArray((), np.int32)


def _zeros(ctx: LoweringContext, n: int) -> list[Value]:
    """``n`` copies of the index 0 (the start of the dimensions after the scanned one)."""
    return [ctx.constant(0, np.int32)] * n if n else []


def _read_slice(ctx: LoweringContext, x: Value, index: Value) -> Value:
    """Slice ``index`` of ``x`` along its leading axis."""
    shape = x.aval.shape
    piece = ctx.op1("stablehlo.dynamic_slice", [x, index] + _zeros(ctx, len(shape) - 1), x.aval.update(
        shape=(1,) + shape[1:]), {"slice_sizes": i64_array((1,) + shape[1:])})
    return ctx.op1("stablehlo.reshape", [piece], x.aval.update(shape=shape[1:]))


def _write_slice(ctx: LoweringContext, buffer: Value, y: Value, index: Value) -> Value:
    """``buffer`` with ``y`` written at ``index`` along its leading axis."""
    piece = ctx.op1("stablehlo.reshape", [y], y.aval.update(shape=(1,) + y.aval.shape))
    return ctx.op1("stablehlo.dynamic_update_slice", [buffer, piece, index] + _zeros(ctx, y.aval.ndim), buffer.aval)


@register_lowering(scan_p)
def _scan_lowering(ctx: LoweringContext, *args: Value, reverse: bool, length: int, jaxpr: ClosedJaxpr,
                   num_consts: int, num_carry: int, unroll: int) -> list[Value]:
    y_avals = [stacked_aval(a, length) for a in jaxpr.out_avals[num_carry:]]
    buffers = [ctx.broadcast_to(ctx.constant(0, a.dtype), a.shape) for a in y_avals]
    if length == 0:  # no step runs (and a slice of an empty x would not type-check)
        return split_scan_args(args, num_consts, num_carry)[1] + buffers
    state = [ctx.constant(0, np.int32), *args, *buffers]
    n_args = len(args)

    def cond(inner: LoweringContext, values: list[Value]) -> list[Value]:
        return [inner.compare("LT", values[0], dimension_forms.index_value(inner, length))]

    def body(inner: LoweringContext, values: list[Value]) -> list[Value]:
        counter, rest = values[0], values[1:]
        consts, carry, xs = split_scan_args(rest[:n_args], num_consts, num_carry)
        ys = rest[n_args:]
        index = counter
        if reverse:
            index = inner.op1("stablehlo.subtract", [dimension_forms.index_value(inner, length - 1), counter], _INDEX)
        slices = [_read_slice(inner, x, index) for x in xs]
        outs = inner.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, [*consts, *carry, *slices])
        new_ys = [_write_slice(inner, b, y, index) for b, y in zip(ys, outs[num_carry:])]
        step = inner.op1("stablehlo.add", [counter, inner.constant(1, np.int32)], _INDEX)
        return [step, *consts, *outs[:num_carry], *xs, *new_ys]

    outs = ctx.while_loop(state, cond, body, jaxpr_has_ordered_effects(jaxpr.jaxpr))
    return outs[1 + num_consts:1 + num_consts + num_carry] + outs[1 + n_args:]
