"""Lowering of the structural primitives: conversions, selects, clamp, iota, broadcasts, reshapes, transposes,
reversal, padding, concatenation, splitting, stacking and tiling."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from jaxle_core import dtypes
from jaxle_core.lax import structural as lax_structural
from jaxle_xla.lowering import dimensions as dimension_forms
from jaxle_xla.lowering.context import LoweringContext, Value, i64, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_types, constrains_types, leave_unconstrained, typed_operand

# ---------------------------------------------------------------- conversions


@register_lowering(lax_structural.convert_element_type_p)
def _convert_element_type(ctx: LoweringContext, x: Value, *, new_dtype, weak_type, sharding) -> Value:
    out = ctx.avals_out[0]
    if dtypes.issubdtype(x.aval.dtype, np.complexfloating) and not dtypes.issubdtype(out.dtype, np.complexfloating):
        # Drop the imaginary part explicitly, as JAX does, rather than rely on how a backend converts complex to real.
        real_dtype = np.finfo(x.aval.dtype).dtype
        x = ctx.op1("stablehlo.real", [x], x.aval.update(dtype=real_dtype))
    if out.dtype == np.bool_:
        # as JAX writes it (XLA's convert to bool means the same): a comparison with a broadcast zero (a bool
        # operand's too, a scalar's zero broadcast to its own shape)
        zero = ctx.full_like(0, x.aval.update(shape=()))
        x = ctx.compare("NE", x, dimension_forms.broadcast(ctx, zero, x.aval, ()))
    # XLA's convert saturates float-to-int conversions (NaN to 0). As JAX, it is written even where only the weak
    # type changes (XLA drops it).
    return ctx.op1("stablehlo.convert", [x], out)


@register_lowering(lax_structural.bitcast_convert_type_p)
def _bitcast_convert_type(ctx: LoweringContext, x: Value, *, new_dtype) -> Value:
    # StableHLO's bitcast_convert adds or consumes the trailing dimension itself when the widths differ.
    return ctx.op1("stablehlo.bitcast_convert", [x], ctx.avals_out[0])


@register_lowering(lax_structural.reduce_precision_p)
def _reduce_precision(ctx: LoweringContext, x: Value, *, exponent_bits: int, mantissa_bits: int) -> Value:
    return ctx.op1("stablehlo.reduce_precision", [x], ctx.avals_out[0],
                   {"exponent_bits": f"{exponent_bits} : i32", "mantissa_bits": f"{mantissa_bits} : i32"})


# ---------------------------------------------------------------- selects


@register_lowering(lax_structural.select_n_p)
def _select_n(ctx: LoweringContext, which: Value, *cases: Value) -> Value:
    if which.aval.dtype == np.bool_:
        return cases[0] if len(cases) == 1 else ctx.op1("stablehlo.select", [which, cases[1], cases[0]],
                                                         ctx.avals_out[0])
    return _select_tree(ctx, which, 0, cases)


def _select_tree(ctx: LoweringContext, which: Value, first: int, cases: Sequence[Value]) -> Value:
    """``cases[which - first]`` by bisection: ``which`` below the range picks the first case, above it the last."""
    if len(cases) == 1:
        return cases[0]
    half = len(cases) // 2
    in_low_half = ctx.compare("LT", which, ctx.full_like(first + half, which))
    return ctx.op1("stablehlo.select", [in_low_half, _select_tree(ctx, which, first, cases[:half]),
                                        _select_tree(ctx, which, first + half, cases[half:])], ctx.avals_out[0])


@register_lowering(lax_structural.clamp_p)
def _clamp(ctx: LoweringContext, lo: Value, x: Value, hi: Value) -> Value:
    # scalar bounds broadcast to the result's shape first, as JAX writes every elementwise operation (and, where
    # types are constrained, each operand of another type constrained to the result's)
    shape = ctx.avals_out[0].shape
    return ctx.op1("stablehlo.clamp", [typed_operand(ctx, v, i, ctx.broadcast_to(v, shape))
                                       for i, v in enumerate((lo, x, hi))], ctx.avals_out[0])


# ---------------------------------------------------------------- creating and reshaping


@register_lowering(lax_structural.iota_p)
def _iota(ctx: LoweringContext, *, dtype, shape, dimension: int, sharding) -> Value:
    return dimension_forms.iota(ctx, ctx.avals_out[0], dimension)


@register_lowering(lax_structural.broadcast_in_dim_p)
def _broadcast_in_dim(ctx: LoweringContext, x: Value, *, shape, broadcast_dimensions, sharding) -> Value:
    return dimension_forms.broadcast(ctx, x, ctx.avals_out[0], broadcast_dimensions)


def _transpose_value(ctx: LoweringContext, x: Value, permutation: Sequence[int]) -> Value:
    shape = tuple(x.aval.shape[p] for p in permutation)
    return ctx.op1("stablehlo.transpose", [x], x.aval.update(shape=shape),
                   {"permutation": i64_array(permutation)})


@register_lowering(lax_structural.transpose_p)
def _transpose(ctx: LoweringContext, x: Value, *, permutation) -> Value:
    return _transpose_value(ctx, x, permutation)


@register_lowering(lax_structural.reshape_p)
def _reshape(ctx: LoweringContext, x: Value, *, new_sizes, dimensions, sharding) -> Value:
    if dimensions is not None:
        x = _transpose_value(ctx, x, dimensions)
    return dimension_forms.reshape(ctx, x, ctx.avals_out[0])


@register_lowering(lax_structural.squeeze_p)
def _squeeze(ctx: LoweringContext, x: Value, *, dimensions) -> Value:
    return dimension_forms.reshape(ctx, x, ctx.avals_out[0])


@register_lowering(lax_structural.rev_p)
def _rev(ctx: LoweringContext, x: Value, *, dimensions) -> Value:
    return ctx.op1("stablehlo.reverse", [x], ctx.avals_out[0], {"dimensions": i64_array(dimensions)})


@register_lowering(lax_structural.pad_p)
def _pad(ctx: LoweringContext, x: Value, padding_value: Value, *, padding_config) -> Value:
    low, high, interior = zip(*padding_config) if padding_config else ((), (), ())
    return ctx.op1("stablehlo.pad", [x, padding_value], ctx.avals_out[0], {
        "edge_padding_low": i64_array(low), "edge_padding_high": i64_array(high),
        "interior_padding": i64_array(interior)})


@register_lowering(lax_structural.concatenate_p)
def _concatenate(ctx: LoweringContext, *operands: Value, dimension: int) -> Value:
    return ctx.op1("stablehlo.concatenate", list(operands), ctx.avals_out[0], {"dimension": i64(dimension)})


@register_lowering(lax_structural.split_p)
def _split(ctx: LoweringContext, x: Value, *, sizes, axis: int) -> list[Value]:
    """One slice per piece, each constrained to its type's layout right after it is cut (as JAX writes it)."""
    pieces, start = [], 0
    for size, aval in zip(sizes, ctx.avals_out):
        starts, limits = [0] * x.aval.ndim, list(x.aval.shape)
        starts[axis], limits[axis] = start, start + int(size)
        piece = ctx.op1("stablehlo.slice", [x], aval, {
            "start_indices": i64_array(starts), "limit_indices": i64_array(limits),
            "strides": i64_array([1] * x.aval.ndim)})
        pieces.extend(constrain_to_types(ctx, [aval], [piece]) if constrains_types(ctx) else [piece])
        start += int(size)
    return pieces


leave_unconstrained(lax_structural.split_p)  # each piece is constrained as it is cut


# ---------------------------------------------------------------- stack, unstack, tile (as JAX expands them)


@register_lowering(lax_structural.stack_p)
def _stack(ctx: LoweringContext, *operands: Value, axis: int) -> Value:
    """Each operand given a size-1 dimension at ``axis``, then concatenated along it."""
    shape = operands[0].aval.shape
    kept = [i for i in range(len(shape) + 1) if i != axis]
    expanded = operands[0].aval.update(shape=shape[:axis] + (1,) + shape[axis:])
    pieces = [ctx.op1("stablehlo.broadcast_in_dim", [x], expanded, {"broadcast_dimensions": i64_array(kept)})
              for x in operands]
    return ctx.op1("stablehlo.concatenate", pieces, ctx.avals_out[0], {"dimension": i64(axis)})


@register_lowering(lax_structural.unstack_p)
def _unstack(ctx: LoweringContext, x: Value, *, axis: int) -> list[Value]:
    """One size-1 slice per position along ``axis``, reshaped to drop that dimension."""
    shape = x.aval.shape
    sliced = x.aval.update(shape=shape[:axis] + (1,) + shape[axis + 1:])
    outs = []
    for i, aval in enumerate(ctx.avals_out):
        starts, limits = [0] * len(shape), list(shape)
        starts[axis], limits[axis] = i, i + 1
        piece = ctx.op1("stablehlo.slice", [x], sliced, {
            "start_indices": i64_array(starts), "limit_indices": i64_array(limits),
            "strides": i64_array([1] * len(shape))})
        outs.append(ctx.op1("stablehlo.reshape", [piece], aval))
    return outs


@register_lowering(lax_structural.tile_p)
def _tile(ctx: LoweringContext, x: Value, *, reps) -> Value:
    """``x`` reshaped to ``(1, d0, 1, d1, ...)``, broadcast to ``(r0, d0, r1, d1, ...)`` and merged pairwise."""
    shape = x.aval.shape
    spread = x.aval.update(shape=tuple(s for d in shape for s in (1, d)))
    repeated = x.aval.update(shape=tuple(s for r, d in zip(reps, shape) for s in (r, d)))
    y = ctx.op1("stablehlo.reshape", [x], spread)
    y = ctx.op1("stablehlo.broadcast_in_dim", [y], repeated,
                {"broadcast_dimensions": i64_array(range(2 * len(shape)))})
    return ctx.op1("stablehlo.reshape", [y], ctx.avals_out[0])
