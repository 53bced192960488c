"""Lowering of the slicing primitives: static slices, dynamic slices and updates, gather and scatter."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import ShapedArray
from jaxle_core.lax.slicing import (
    GatherScatterMode,
    ScatterDimensionNumbers,
    dynamic_slice_p,
    dynamic_update_slice_p,
    gather_fill,
    gather_p,
    scatter_add_p,
    scatter_max_p,
    scatter_min_p,
    scatter_mul_p,
    scatter_p,
    scatter_sub_p,
    scatter_window_sizes,
    slice_p,
)
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value, boolean, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_types, constrains_types, leave_unconstrained, lower_helper


@register_lowering(slice_p)
def _slice(ctx: LoweringContext, x: Value, *, start_indices, limit_indices, strides) -> Value:
    strides = strides or (1,) * x.aval.ndim
    if not (dimension_forms.is_static(start_indices) and dimension_forms.is_static(limit_indices)):
        # symbolic bounds, computed when the program runs
        bounds = [dimension_forms.shape_value(ctx, b) for b in (start_indices, limit_indices, strides)]
        return ctx.op1("stablehlo.real_dynamic_slice", [x, *bounds], ctx.avals_out[0])
    return ctx.op1("stablehlo.slice", [x], ctx.avals_out[0], {
        "start_indices": i64_array(start_indices), "limit_indices": i64_array(limit_indices),
        "strides": i64_array(strides or (1,) * x.aval.ndim)})


@register_lowering(dynamic_slice_p)
def _dynamic_slice(ctx: LoweringContext, x: Value, *starts: Value, slice_sizes) -> Value:
    """XLA clamps the start indices so that the window lies inside the operand (here and in updates)."""
    return ctx.op1("stablehlo.dynamic_slice", [x, *starts], ctx.avals_out[0],
                   {"slice_sizes": i64_array(slice_sizes)})


@register_lowering(dynamic_update_slice_p)
def _dynamic_update_slice(ctx: LoweringContext, x: Value, update: Value, *starts: Value) -> Value:
    return ctx.op1("stablehlo.dynamic_update_slice", [x, update, *starts], ctx.avals_out[0])


# ---------------------------------------------------------------- gather


def _dimension_numbers(kind: str, fields: Sequence[tuple[str, Sequence[int]]], index_vector_dim: int) -> str:
    """``#stablehlo.gather<offset_dims = [1], ..., index_vector_dim = 1>`` (empty fields left out)."""
    text = ", ".join(f"{name} = [{', '.join(map(str, dims))}]" for name, dims in fields if dims)
    return f"#stablehlo.{kind}<{text}{', ' if text else ''}index_vector_dim = {index_vector_dim}>"


@register_lowering(gather_p)
def _gather(ctx: LoweringContext, operand: Value, indices: Value, *, dimension_numbers, slice_sizes,
            unique_indices, indices_are_sorted, mode, fill_value) -> Value:
    if mode == GatherScatterMode.FILL_OR_DROP:
        # as JAX: the gather of indices promised in bounds, masked, written from lax operations
        return lower_helper(ctx, partial(_fill_or_drop, dimension_numbers=dimension_numbers, slice_sizes=slice_sizes,
                                         indices_are_sorted=indices_are_sorted, fill_value=fill_value,
                                         out=ctx.avals_out[0]), operand, indices)[0]
    dn = dimension_numbers
    out = ctx.avals_out[0]
    numbers = _dimension_numbers("gather", [
        ("offset_dims", dn.offset_dims), ("collapsed_slice_dims", dn.collapsed_slice_dims),
        ("operand_batching_dims", dn.operand_batching_dims),
        ("start_indices_batching_dims", dn.start_indices_batching_dims), ("start_index_map", dn.start_index_map),
    ], indices.aval.ndim - 1)
    # XLA's gather clamps every slice into the operand: CLIP and PROMISE_IN_BOUNDS need nothing more.
    attributes = {"dimension_numbers": numbers, "indices_are_sorted": boolean(indices_are_sorted)}
    if dimension_forms.is_static(slice_sizes):
        gathered = ctx.op1("stablehlo.gather", [operand, indices], out, {**attributes,
                                                                         "slice_sizes": i64_array(slice_sizes)})
    else:  # symbolic slice sizes (slicing an array of a symbolic shape), computed when the program runs
        sizes = dimension_forms.shape_value(ctx, slice_sizes)
        gathered = ctx.op1("stablehlo.dynamic_gather", [operand, indices, sizes], out, attributes)
    return constrain_to_types(ctx, [out], [gathered])[0] if constrains_types(ctx) else gathered


# a gather filling out-of-bounds slices writes its own operations' constraints; the others are constrained above
leave_unconstrained(gather_p)


def _fill_or_drop(operand: Any, indices: Any, *, dimension_numbers, slice_sizes, indices_are_sorted, fill_value,
                  out: ShapedArray) -> Any:
    """The FILL_OR_DROP gather: slices whose start index vector lies outside ``[0, dim - slice size]`` are
    ``fill_value``. Indices are converted (wrapping) to int32 first, unless an operand dimension needs 64 bits."""
    dn = dimension_numbers
    index_dtype = np.dtype(np.int64 if any(d > np.iinfo(np.int32).max for d in operand.shape) else np.int32)
    indices = lax.convert_element_type(indices, index_dtype)
    batch = indices.ndim - 1
    upper = np.array([operand.shape[d] - slice_sizes[d] for d in dn.start_index_map], index_dtype)
    in_bounds = lax.bitwise_and(lax.ge(indices, index_dtype.type(0)),
                                lax.le(indices, lax.expand_dims(upper, tuple(range(batch)))))
    mask = lax.reduce_and(in_bounds, (batch,))
    gathered = lax.gather(operand, indices, dn, slice_sizes, indices_are_sorted=indices_are_sorted,
                          mode=GatherScatterMode.PROMISE_IN_BOUNDS)
    batch_positions = [d for d in range(out.ndim) if d not in dn.offset_dims]
    fill = gather_fill(fill_value, out.dtype)
    return lax.select(lax.broadcast_in_dim(mask, out.shape, batch_positions,
                                           out_sharding=getattr(gathered.aval, "explicit_sharding", None)),
                      gathered, lax.full_like(gathered, fill))


# ---------------------------------------------------------------- scatter

_COMBINERS = {scatter_add_p: "stablehlo.add", scatter_sub_p: "stablehlo.subtract",
              scatter_mul_p: "stablehlo.multiply", scatter_min_p: "stablehlo.minimum",
              scatter_max_p: "stablehlo.maximum"}


def _scatter_rule(combiner: str | None):
    def rule(ctx: LoweringContext, operand: Value, indices: Value, updates: Value, *, update_jaxpr, update_consts,
             dimension_numbers, indices_are_sorted, unique_indices, mode) -> Value:
        dn = dimension_numbers
        if mode == GatherScatterMode.CLIP:
            indices = _clamp_scatter_indices(ctx, operand, indices, updates, dn)
        numbers = _dimension_numbers("scatter", [
            ("update_window_dims", dn.update_window_dims), ("inserted_window_dims", dn.inserted_window_dims),
            ("input_batching_dims", dn.operand_batching_dims),
            ("scatter_indices_batching_dims", dn.scatter_indices_batching_dims),
            ("scatter_dims_to_operand_dims", dn.scatter_dims_to_operand_dims),
        ], indices.aval.ndim - 1)
        scalar = ShapedArray((), operand.aval.dtype)

        def combine(inner: LoweringContext, args: list[Value]) -> list[Value]:
            # args: the operand's current element, then the update. A replacing scatter with a jaxpr of its own
            # (scatter_apply's) applies it.
            if combiner is None and update_jaxpr is not None:
                return inner.lower_jaxpr(update_jaxpr, update_consts, args)
            return [args[1] if combiner is None else inner.op1(combiner, args, scalar)]

        # XLA skips update windows that do not lie wholly inside the operand (FILL_OR_DROP and the others) and
        # applies the updates at repeated indices one after the other.
        return ctx.op1("stablehlo.scatter", [operand, indices, updates], ctx.avals_out[0], {
            "scatter_dimension_numbers": numbers, "indices_are_sorted": boolean(indices_are_sorted),
            "unique_indices": boolean(unique_indices)}, [ctx.region([scalar, scalar], combine)])

    return rule


def _clamp_scatter_indices(ctx: LoweringContext, operand: Value, indices: Value, updates: Value,
                           dn: ScatterDimensionNumbers) -> Value:
    """Indices clamped so that every update window lies inside the operand (CLIP mode), in JAX's operations: the
    upper bounds (int32, int64 beyond its range) capped at the largest index of the indices' type, converted to that
    type and broadcast along the index vector, then a clamp from a broadcast zero."""
    window = scatter_window_sizes(operand.aval.ndim, updates.aval.shape, dn)
    upper = [operand.aval.shape[d] - window[d] for d in dn.scatter_dims_to_operand_dims]
    bound_type = np.dtype(np.int64 if any(u > np.iinfo(np.int32).max for u in upper) else np.int32)
    index_type = indices.aval.dtype
    shape = (len(upper),)
    # an empty vector of bounds is a broadcast zero, as JAX makes it
    bounds = ctx.constant(np.asarray(upper, bound_type)) if upper else ctx.broadcast_to(ctx.constant(0, bound_type),
                                                                                        shape)
    cap = min(np.iinfo(bound_type).max, np.iinfo(index_type).max)
    bounds = ctx.op1("stablehlo.minimum", [bounds, ctx.broadcast_to(ctx.constant(cap, bound_type), shape)],
                     bounds.aval)
    if index_type != bound_type:
        bounds = ctx.op1("stablehlo.convert", [bounds], bounds.aval.update(dtype=index_type))
    bounds = ctx.broadcast_to(bounds, indices.aval.shape)
    zero = ctx.broadcast_to(ctx.constant(0, index_type), indices.aval.shape)
    return ctx.op1("stablehlo.clamp", [zero, indices, bounds], indices.aval)


register_lowering(scatter_p)(_scatter_rule(None))
for _primitive, _combiner in _COMBINERS.items():
    register_lowering(_primitive)(_scatter_rule(_combiner))
