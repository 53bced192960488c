"""Lowering of the windowed reductions (reduce_window and its sum/max/min forms) and of the pooling gradients
(select_and_scatter_add, select_and_gather_add)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.windowed import (
    reduce_window_max_p,
    reduce_window_min_p,
    reduce_window_p,
    reduce_window_sum_p,
    select_and_gather_add_p,
    select_and_scatter_add_p,
    select_and_scatter_p,
    window_output_shape,
)
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value, dense_elements, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.reductions import combiner, identity, logical, scalar

Padding = Sequence[tuple[int, int]]


def _window_attributes(window_dimensions: Sequence[int], window_strides: Sequence[int],
                       padding: Padding) -> dict[str, str]:
    pads = np.asarray(padding, np.int64).reshape(len(window_dimensions), 2)
    return {"window_dimensions": i64_array(window_dimensions), "window_strides": i64_array(window_strides),
            "padding": dense_elements(pads, ShapedArray(pads.shape, np.int64))}


def emit_reduce_window(ctx: LoweringContext, operands: Sequence[Value], inits: Sequence[Value],
                       body: Callable[[LoweringContext, list[Value]], Sequence[Value]], *,
                       window_dimensions: Sequence[int], window_strides: Sequence[int], padding: Padding,
                       base_dilation: Sequence[int], window_dilation: Sequence[int]) -> list[Value]:
    """``stablehlo.reduce_window``; ``body`` combines (accumulators..., values...).

    XLA folds only the operand's elements into the initial values, skipping padding and dilation holes; on CPU it
    visits them in row-major order when the window has no padding.
    """
    shape = window_output_shape(operands[0].aval.shape, window_dimensions, window_strides, padding,
                                    base_dilation, window_dilation)
    if not (dimension_forms.is_static(window_dimensions) and all(dimension_forms.is_static(p) for p in padding)):
        return _dynamic_reduce_window(ctx, operands, inits, body, [ShapedArray(shape, o.aval.dtype) for o in operands],
                                      (window_dimensions, window_strides, base_dilation, window_dilation), padding)
    attributes = _window_attributes(window_dimensions, window_strides, padding)
    attributes.update(base_dilations=i64_array(base_dilation), window_dilations=i64_array(window_dilation))
    region = ctx.region([scalar(o.aval) for o in operands] * 2, body)
    return ctx.op("stablehlo.reduce_window", [*operands, *inits],
                  [ShapedArray(shape, o.aval.dtype) for o in operands], attributes, [region])


def _dynamic_reduce_window(ctx: LoweringContext, operands: Sequence[Value], inits: Sequence[Value],
                           body: Callable[[LoweringContext, list[Value]], Sequence[Value]],
                           out_avals: list[ShapedArray], vectors: Sequence[Sequence[int]],
                           padding: Padding) -> list[Value]:
    """A window sized by symbolic dimensions (a cumulative reduction along one): StableHLO's
    ``dynamic_reduce_window`` custom call, its sizes computed when the program runs and made static by shape
    refinement; the reducer is a function of its own."""
    reducer = _reducer_function(ctx, [scalar(o.aval) for o in operands] * 2, body)
    sizes = [dimension_forms.shape_value(ctx, v) for v in vectors]
    flat = dimension_forms.shape_value(ctx, [p for pair in padding for p in pair])
    pads = ctx.op1("stablehlo.reshape", [flat], ShapedArray((len(padding), 2), flat.aval.dtype))
    return ctx.op("stablehlo.custom_call", [*operands, *inits, *sizes, pads], out_avals, {
        "call_target_name": '"stablehlo.dynamic_reduce_window"', "api_version": "2 : i32",
        "called_computations": f"[@{reducer}]"})


def _reducer_function(ctx: LoweringContext, arg_avals: Sequence[ShapedArray],
                      body: Callable[[LoweringContext, list[Value]], Sequence[Value]]) -> str:
    """The name of a new private function computing ``body`` on scalars (a custom call's reducer)."""
    return ctx.module.written_function("reduce_window_reducer", arg_avals, body)


def _monoid_reduce_window(kind: str):
    def rule(ctx: LoweringContext, x: Value, **params) -> Value:
        combine = combiner(kind, x.aval.dtype)
        init = ctx.broadcast_constant(identity(kind, x.aval.dtype), scalar(x.aval))  # JAX's scalar fill
        return emit_reduce_window(ctx, [x], [init], lambda inner, args: [combine(inner, *args)], **params)[0]

    return rule


for _primitive, _kind in [(reduce_window_sum_p, "add"), (reduce_window_max_p, "max"),
                          (reduce_window_min_p, "min")]:
    register_lowering(_primitive)(_monoid_reduce_window(_kind))


@register_lowering(reduce_window_p)
def _reduce_window_lowering(ctx: LoweringContext, *args: Value, jaxpr, consts, **params) -> list[Value]:
    operands, inits = args[:len(args) // 2], args[len(args) // 2:]
    return emit_reduce_window(ctx, operands, inits,
                              lambda inner, block_args: inner.lower_jaxpr(jaxpr, consts, block_args), **params)


# ---------------------------------------------------------------- pooling gradients
#
# XLA's CPU backend visits a window's elements in row-major order only when the window has no padding, so both
# pooling gradients pad their operand explicitly first; each window then selects its first maximum (``ge``) or
# minimum (``le``) in row-major order.


def _pad(ctx: LoweringContext, x: Value, value: Value, padding: Padding, interior: Sequence[int]) -> Value:
    """``x`` with ``value`` on its edges (``padding``) and ``interior`` copies of it between its elements."""
    shape = [lo + hi + n + max(n - 1, 0) * i for n, (lo, hi), i in zip(x.aval.shape, padding, interior)]
    return ctx.op1("stablehlo.pad", [x, value], x.aval.update(shape=shape), {
        "edge_padding_low": i64_array([lo for lo, _ in padding]),
        "edge_padding_high": i64_array([hi for _, hi in padding]), "interior_padding": i64_array(interior)})


def _direction(select_prim: Primitive) -> str:
    """The comparison ``select_prim`` makes: ``ge`` keeps the first maximum, ``le`` the first minimum."""
    return select_prim.name.upper()


@register_lowering(select_and_scatter_add_p)
def _select_and_scatter_add_lowering(ctx: LoweringContext, source: Value, operand: Value, *,
                                     select_prim: Primitive, window_dimensions, window_strides, padding) -> Value:
    # As JAX does: the padding holds the extremum's identity (-inf for a maximum), so it wins only over a NaN
    # before it or an element equal to the identity after it, and what it then receives is dropped.
    direction = _direction(select_prim)
    dtype = operand.aval.dtype
    filler = ctx.constant(identity("max" if direction in ("GE", "GT") else "min", dtype))
    padded = _pad(ctx, operand, filler, padding, [0] * operand.aval.ndim)
    select_region = ctx.region([scalar(operand.aval)] * 2, lambda inner, args: [inner.compare(direction, *args)])
    add = combiner("add", source.aval.dtype)
    scatter_region = ctx.region([scalar(source.aval)] * 2, lambda inner, args: [add(inner, *args)])
    scattered = ctx.op1("stablehlo.select_and_scatter", [padded, source, ctx.constant(0, source.aval.dtype)],
                        padded.aval.update(dtype=source.aval.dtype),
                        _window_attributes(window_dimensions, window_strides, [(0, 0)] * operand.aval.ndim),
                        [select_region, scatter_region])
    starts = [lo for lo, _ in padding]
    return ctx.op1("stablehlo.slice", [scattered], ShapedArray(operand.aval.shape, source.aval.dtype), {
        "start_indices": i64_array(starts),
        "limit_indices": i64_array([lo + n for lo, n in zip(starts, operand.aval.shape)]),
        "strides": i64_array([1] * operand.aval.ndim)})


@register_lowering(select_and_gather_add_p)
def _select_and_gather_add_lowering(ctx: LoweringContext, tangents: Value, operand: Value, *,
                                    select_prim: Primitive, window_dimensions, window_strides, padding,
                                    base_dilation, window_dilation) -> Value:
    # Each window folds (operand value, tangent, is-an-element) triples: the first element is taken, then a later
    # one replaces it unless select_prim(kept, later) holds. Padding and dilation holes are not elements and are
    # never kept, so a window over holes only gives a zero tangent.
    direction = _direction(select_prim)
    holes = [d - 1 for d in base_dilation]
    triples = [_pad(ctx, v, ctx.constant(0, v.aval.dtype), padding, holes) for v in (operand, tangents)]
    triples.append(_pad(ctx, ctx.constant(True, np.bool_, operand.aval.shape), ctx.constant(False), padding, holes))
    inits = [ctx.constant(0, v.aval.dtype) for v in triples]

    def body(inner: LoweringContext, args: list[Value]) -> list[Value]:
        kept_value, kept_tangent, kept_real, value, tangent, is_real = args
        not_real = inner.op1("stablehlo.not", [is_real], is_real.aval)
        keep = logical(inner, "and", kept_real,
                       logical(inner, "or", not_real, inner.compare(direction, kept_value, value)))
        return [inner.select(keep, kept_value, value), inner.select(keep, kept_tangent, tangent),
                inner.select(keep, kept_real, is_real)]

    ones = (1,) * operand.aval.ndim
    return emit_reduce_window(ctx, triples, inits, body, window_dimensions=window_dimensions,
                              window_strides=window_strides, padding=[(0, 0)] * operand.aval.ndim,
                              base_dilation=ones, window_dilation=window_dilation)[1]


@register_lowering(select_and_scatter_p)
def _select_and_scatter_lowering(ctx: LoweringContext, operand: Value, source: Value, init_value: Value, *,
                                 select_jaxpr, select_consts, scatter_jaxpr, scatter_consts, window_dimensions,
                                 window_strides, padding) -> Value:
    select_region = ctx.region([scalar(operand.aval)] * 2,
                               lambda inner, args: inner.lower_jaxpr(select_jaxpr, select_consts, args))
    scatter_region = ctx.region([scalar(source.aval)] * 2,
                                lambda inner, args: inner.lower_jaxpr(scatter_jaxpr, scatter_consts, args))
    return ctx.op1("stablehlo.select_and_scatter", [operand, source, init_value], ctx.avals_out[0],
                   _window_attributes(window_dimensions, window_strides, padding), [select_region, scatter_region])
