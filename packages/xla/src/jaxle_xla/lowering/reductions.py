"""Lowering of the reductions: sums, products, extrema, logical reductions, argmax/argmin and generic ``reduce``.

Also the pieces the windowed, cumulative and sorting lowerings share: scalar comparisons, the orders that rank
NaNs and complex numbers, and the combiners of the monoid reductions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax import reductions as lax_reductions
from jaxle_xla.lowering.context import LoweringContext, Value, comparison_type, i64, i64_array
from jaxle_xla.lowering.module import register_lowering

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
        if not axes:
            return x
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
    def rule(ctx: LoweringContext, x: Value, *, axes: tuple[int, ...], index_dtype: np.dtype) -> Value:
        (axis,) = axes
        index_aval = x.aval.update(dtype=index_dtype, weak_type=False)
        index = ctx.op1("stablehlo.iota", [], index_aval, {"iota_dimension": i64(axis)})
        # The extremum first, NaN before any number; ties go to the lower index, so the reduction is a
        # commutative monoid and its result does not depend on the order XLA combines in. The initial index 0 is
        # right whenever the initial value wins a tie, since the axis is not empty.
        inits = [ctx.constant(identity("max" if largest else "min", x.aval.dtype)), ctx.constant(0, index_dtype)]

        def body(inner: LoweringContext, args: list[Value]) -> list[Value]:
            x_value, x_index, y_value, y_index = args
            before, tie = ranks_before(inner, x_value, y_value, descending=largest, nan_first=True)
            take_x = logical(inner, "or", before, logical(inner, "and", tie, inner.compare("LT", x_index, y_index)))
            return [inner.select(take_x, x_value, y_value), inner.select(take_x, x_index, y_index)]

        return emit_reduce(ctx, [x, index], inits, axes, body)[1]

    return rule


register_lowering(lax_reductions.argmax_p)(_arg_extremum(True))
register_lowering(lax_reductions.argmin_p)(_arg_extremum(False))


# ---------------------------------------------------------------- generic reduce


@register_lowering(lax_reductions.reduce_p)
def _reduce_lowering(ctx: LoweringContext, *args: Value, computation, jaxpr, dimensions: tuple[int, ...]
                     ) -> list[Value]:
    operands, inits = args[:len(args) // 2], args[len(args) // 2:]
    return emit_reduce(ctx, operands, inits, dimensions,
                       lambda inner, block_args: inner.lower_jaxpr(jaxpr.jaxpr, jaxpr.consts, block_args))
