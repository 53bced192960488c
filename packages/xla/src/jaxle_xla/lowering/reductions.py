"""Lowering of the reductions: sums, products, extrema, logical reductions, argmax/argmin and generic ``reduce``.

Also the pieces the windowed, cumulative and sorting lowerings share: scalar comparisons, the orders that rank
NaNs and complex numbers, and the combiners of the monoid reductions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax import reductions as lax_reductions
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering.context import LoweringContext, Value, comparison_type, i64, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import constrain_to_type, constrains_types, leave_unconstrained

Combiner = Callable[[LoweringContext, Value, Value], Value]

# ---------------------------------------------------------------- comparisons and orders


def logical(ctx: LoweringContext, op: str, x: Value, y: Value) -> Value:
    """``stablehlo.and``/``or``/``xor`` of two values of the same type."""
    return ctx.op1(f"stablehlo.{op}", [x, y], x.aval)


def _is_float(dtype: np.dtype) -> bool:
    return comparison_type(dtype) == "FLOAT"


def ranks_before(ctx: LoweringContext, x: Value, y: Value, descending: bool,
                 nan_first: bool | None) -> tuple[Value, Value]:
    """``(x strictly before y, x ties y)`` in ascending (or ``descending``) order.

    Floats: -0.0 ties with +0.0; NaNs come before every number (``nan_first=True``) or after (``False``), tying
    with each other, or, with ``None``, are ordered as IEEE comparison has it (before nothing, tying nothing).
    Complex numbers are ordered lexicographically by (real, imaginary) part.
    """
    dtype = x.aval.dtype
    if np.issubdtype(dtype, np.complexfloating):
        part = x.aval.update(dtype=np.finfo(dtype).dtype)
        parts = [(ctx.op1(f"stablehlo.{name}", [x], part), ctx.op1(f"stablehlo.{name}", [y], part))
                 for name in ("real", "imag")]
        return lexicographic(ctx, [ranks_before(ctx, a, b, descending, nan_first) for a, b in parts])
    before = ctx.compare("GT" if descending else "LT", x, y)
    tie = ctx.compare("EQ", x, y)
    if nan_first is None or not _is_float(dtype):
        return before, tie
    x_nan, y_nan = ctx.compare("NE", x, x), ctx.compare("NE", y, y)
    nan_wins = (logical(ctx, "and", x_nan, ctx.op1("stablehlo.not", [y_nan], y_nan.aval)) if nan_first else
                logical(ctx, "and", y_nan, ctx.op1("stablehlo.not", [x_nan], x_nan.aval)))
    return logical(ctx, "or", before, nan_wins), logical(ctx, "or", tie, logical(ctx, "and", x_nan, y_nan))


def lexicographic(ctx: LoweringContext, keys: Sequence[tuple[Value, Value]]) -> tuple[Value, Value]:
    """Combine ``(before, tie)`` pairs, the primary key first, into the pair of their lexicographic order."""
    before, tie = keys[-1]
    for key_before, key_tie in reversed(keys[:-1]):
        before = logical(ctx, "or", key_before, logical(ctx, "and", key_tie, before))
        tie = logical(ctx, "and", key_tie, tie)
    return before, tie


# ---------------------------------------------------------------- monoids


def identity(kind: str, dtype: np.dtype) -> np.ndarray:
    """The identity element of the monoid ``kind`` (add, mul, max, min, and, or, xor) for ``dtype``."""
    if kind in ("max", "min"):
        return np.asarray(lax_reductions.extremum_identity(dtype, kind == "min"), dtype)
    value = {"add": 0, "mul": 1, "or": 0, "xor": 0, "and": -1}[kind]
    return np.asarray(value != 0 if dtype == np.bool_ else value).astype(dtype)


def complex_extremum(largest: bool) -> Combiner:
    """max (``largest``) or min of complex numbers, lexicographic by (real, imaginary) part with NaN largest."""

    def combine(ctx: LoweringContext, x: Value, y: Value) -> Value:
        x_first, _ = ranks_before(ctx, x, y, descending=largest, nan_first=largest)
        return ctx.select(x_first, x, y)

    return combine


def combiner(kind: str, dtype: np.dtype) -> Combiner:
    """The binary operation of the monoid ``kind`` on scalars of ``dtype``."""
    if kind in ("max", "min") and np.issubdtype(dtype, np.complexfloating):
        return complex_extremum(kind == "max")
    name = {"add": "add", "mul": "multiply", "max": "maximum", "min": "minimum", "and": "and", "or": "or",
            "xor": "xor"}[kind]
    return lambda ctx, x, y: ctx.op1(f"stablehlo.{name}", [x, y], x.aval)


def scalar(aval: ShapedArray) -> ShapedArray:
    return ShapedArray((), aval.dtype)


def _reduced_aval(aval: ShapedArray, dimensions: Sequence[int]) -> ShapedArray:
    return ShapedArray([d for i, d in enumerate(aval.shape) if i not in dimensions], aval.dtype)


def emit_reduce(ctx: LoweringContext, operands: Sequence[Value], inits: Sequence[Value], dimensions: Sequence[int],
                body: Callable[[LoweringContext, list[Value]], Sequence[Value]]) -> list[Value]:
    """``stablehlo.reduce`` of ``operands`` over ``dimensions``; ``body`` combines (accumulators..., values...)."""
    region = ctx.region([scalar(o.aval) for o in operands] * 2, body)
    return ctx.op("stablehlo.reduce", [*operands, *inits], [_reduced_aval(o.aval, dimensions) for o in operands],
                  {"dimensions": i64_array(dimensions)}, [region])


def _monoid_reduction(kind: str):
    def rule(ctx: LoweringContext, x: Value, *, axes: tuple[int, ...], **_) -> Value:
        combine = combiner(kind, x.aval.dtype)
        init = ctx.constant(identity(kind, x.aval.dtype))
        return emit_reduce(ctx, [x], [init], axes, lambda inner, args: [combine(inner, *args)])[0]

    return rule


for _primitive, _kind in [(lax_reductions.reduce_sum_p, "add"), (lax_reductions.reduce_prod_p, "mul"),
                          (lax_reductions.reduce_max_p, "max"), (lax_reductions.reduce_min_p, "min"),
                          (lax_reductions.reduce_and_p, "and"), (lax_reductions.reduce_or_p, "or"),
                          (lax_reductions.reduce_xor_p, "xor")]:
    register_lowering(_primitive)(_monoid_reduction(_kind))


# ---------------------------------------------------------------- argmax / argmin


def _arg_extremum(largest: bool):
    name = "argmax" if largest else "argmin"

    def rule(ctx: LoweringContext, x: Value, *, axes: tuple[int, ...], index_dtype: np.dtype) -> Value:
        out_aval = ctx.avals_out[0]
        typed = constrains_types(ctx)
        layouts = (getattr(x.aval, "explicit_sharding", None), getattr(out_aval, "explicit_sharding", None))
        key = (name, x.aval.shape, x.aval.dtype, axes, np.dtype(index_dtype), typed and layouts,
               tuple(map(id, ctx.module.manual_regions)))

        def function(inner: LoweringContext, args: list[Value]) -> list[Value]:
            return [_arg_extremum_reduction(inner, args[0], axes, index_dtype, largest, layouts if typed else None)]

        # a function of its own, called (once written, for every operand of this type), as JAX writes it
        callee = ctx.module.written_function(name, [x.aval], function, key)
        return ctx.op1("func.call", [x], out_aval, {"callee": f"@{callee}"})

    return rule


def _arg_extremum_reduction(ctx: LoweringContext, x: Value, axes: tuple[int, ...], index_dtype: np.dtype,
                            largest: bool, layouts: tuple | None) -> Value:
    """The index of ``x``'s first extremum along its axis, NaN counting as the extremum. ``layouts`` (the operand's
    and the result's, in a program constraining its types) constrain the indices, the results and, as JAX's
    lowering writes them, the scalar values of the reducer (replicated)."""
    (axis,) = axes
    index = ctx.op1("stablehlo.iota", [], x.aval.update(dtype=index_dtype, weak_type=False),
                    {"iota_dimension": i64(axis)})
    index = _typed(ctx, index, None if layouts is None else layouts[0])
    inits = [ctx.constant(identity("max" if largest else "min", x.aval.dtype)), ctx.constant(0, index_dtype)]
    mesh = getattr(layouts and layouts[1], "mesh", None)
    scalar_layout = None if mesh is None else NamedSharding(mesh, PartitionSpec())

    def body(inner: LoweringContext, args: list[Value]) -> list[Value]:
        x_value, x_index, y_value, y_index = args
        if np.issubdtype(x_value.aval.dtype, np.complexfloating):
            # (real, imaginary) lexicographic with NaN first and ties to the lower index: an order-independent
            # monoid (JAX refuses complex operands)
            before, tie = ranks_before(inner, x_value, y_value, descending=largest, nan_first=True)
            take_x = logical(inner, "or", before, logical(inner, "and", tie, inner.compare("LT", x_index, y_index)))
            return [inner.select(take_x, x_value, y_value), inner.select(take_x, x_index, y_index)]

        def typed(value: Value) -> Value:
            return _typed(inner, value, scalar_layout)

        def compare(direction: str, a: Value, b: Value) -> Value:
            return inner.compare(direction, typed(a), typed(b))

        # JAX's reducer: the accumulated value wins if it is beyond the other or NaN; its index also on a tie
        # with a lower index
        take_x = typed(logical(inner, "or", compare("GT" if largest else "LT", x_value, y_value),
                               compare("NE", x_value, x_value)))
        tie = typed(logical(inner, "and", compare("EQ", x_value, y_value), compare("LT", x_index, y_index)))
        take_x_index = typed(logical(inner, "or", take_x, tie))
        return [typed(inner.select(take_x, x_value, y_value)), typed(inner.select(take_x_index, x_index, y_index))]

    outs = emit_reduce(ctx, [x, index], inits, axes, body)
    return [_typed(ctx, out, None if layouts is None else layouts[1]) for out in outs][1]


def _typed(ctx: LoweringContext, value: Value, layout: NamedSharding | None) -> Value:
    """``value`` constrained to ``layout`` (None: as it is)."""
    return value if layout is None else constrain_to_type(ctx, value, layout)


register_lowering(lax_reductions.argmax_p)(_arg_extremum(True))
register_lowering(lax_reductions.argmin_p)(_arg_extremum(False))
leave_unconstrained(lax_reductions.argmax_p, lax_reductions.argmin_p)  # their functions constrain their results


# ---------------------------------------------------------------- generic reduce


@register_lowering(lax_reductions.reduce_p)
def _reduce_lowering(ctx: LoweringContext, *args: Value, computation, jaxpr, dimensions: tuple[int, ...]
                     ) -> list[Value]:
    operands, inits = args[:len(args) // 2], args[len(args) // 2:]
    return emit_reduce(ctx, operands, inits, dimensions,
                       lambda inner, block_args: inner.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, block_args))
