"""Symbolic dimensions in StableHLO: dynamic types (``tensor<?x4xf32>``), the dimension variables' values read
from the arguments (``stablehlo.get_dimension_size``), dimension expressions computed from them, and the dynamic
forms of the ops whose result shape is an attribute (``dynamic_broadcast_in_dim``, ``dynamic_reshape``,
``dynamic_iota``). The module is refined to static shapes (jaxlib's ``refine_polymorphic_shapes``) when it is
compiled for arguments of known shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import dtypes, shape_poly
from jaxle_core.avals import ShapedArray
from jaxle_core.lax.dimensions import dim_as_value_p
from jaxle_xla.lowering.context import LoweringContext, Value, i64, i64_array
from jaxle_xla.lowering.module import register_lowering

__all__ = ["bind_dimension_variables", "broadcast", "dimension_value", "index_value", "iota", "is_static", "reshape",
           "shape_value"]


def is_static(shape: Sequence[Any]) -> bool:
    return all(type(d) is int for d in shape)


def _dimension_dtype() -> np.dtype:
    return dtypes.canonicalize_dtype(np.int64)  # int32, or int64 with x64: JAX's dimension values


class _EmittingOps:
    """``shape_poly.evaluate``'s arithmetic, emitted as StableHLO scalar ops."""

    def __init__(self, ctx: LoweringContext):
        self.ctx = ctx
        self.aval = ShapedArray((), _dimension_dtype())

    def constant(self, c: int) -> Value:
        return self.ctx.constant(c, self.aval.dtype)

    def _binary(self, name: str, a: Value, b: Value) -> Value:
        return self.ctx.op1(name, [a, b], self.aval)

    def add(self, a: Value, b: Value) -> Value:
        return self._binary("stablehlo.add", a, b)

    def mul(self, a: Value, b: Value) -> Value:
        return self._binary("stablehlo.multiply", a, b)

    def max(self, a: Value, b: Value) -> Value:
        return self._binary("stablehlo.maximum", a, b)

    def min(self, a: Value, b: Value) -> Value:
        return self._binary("stablehlo.minimum", a, b)

    def _signs_differ(self, a: Value, b: Value) -> Value:
        zero = self.constant(0)
        return self.ctx.compare("NE", self.ctx.compare("LT", a, zero), self.ctx.compare("LT", b, zero))

    def floordiv(self, a: Value, b: Value) -> Value:
        # stablehlo.divide truncates: one less when the signs differ and the division is inexact
        quotient, remainder = self._binary("stablehlo.divide", a, b), self._binary("stablehlo.remainder", a, b)
        inexact = self.ctx.compare("NE", remainder, self.constant(0))
        adjust = self.ctx.op1("stablehlo.and", [inexact, self._signs_differ(a, b)], inexact.aval)
        return self.ctx.select(adjust, self._binary("stablehlo.subtract", quotient, self.constant(1)), quotient)

    def mod(self, a: Value, b: Value) -> Value:
        # stablehlo.remainder takes the dividend's sign: moved to the divisor's as Python's % does
        remainder = self._binary("stablehlo.remainder", a, b)
        inexact = self.ctx.compare("NE", remainder, self.constant(0))
        adjust = self.ctx.op1("stablehlo.and", [inexact, self._signs_differ(remainder, b)], inexact.aval)
        return self.ctx.select(adjust, self.add(remainder, b), remainder)


def dimension_value(ctx: LoweringContext, d: Any) -> Value:
    """The scalar value of dimension ``d`` (of JAX's dimension dtype) in ``ctx``'s function."""
    try:
        return shape_poly.evaluate(d, ctx.dimension_values, _EmittingOps(ctx))
    except KeyError as e:
        raise shape_poly.UnexpectedDimVar(f"Encountered dimension variable '{e.args[0]}' that is not appearing in the "
                                          "shapes of the function arguments.") from None


def index_value(ctx: LoweringContext, d: Any) -> Value:
    """Dimension ``d`` as an int32 scalar (a loop bound, an index)."""
    if type(d) is int:
        return ctx.constant(d, np.int32)
    value = dimension_value(ctx, d)
    return value if value.aval.dtype == np.int32 else ctx.op1("stablehlo.convert", [value], ShapedArray((), np.int32))


def shape_value(ctx: LoweringContext, shape: Sequence[Any]) -> Value:
    """A 1-d tensor of the sizes of ``shape`` (each computed where symbolic)."""
    dtype = _dimension_dtype()
    parts = [ctx.op1("stablehlo.reshape", [dimension_value(ctx, d)], ShapedArray((1,), dtype)) for d in shape]
    if len(parts) == 1:
        return parts[0]
    return ctx.op1("stablehlo.concatenate", parts, ShapedArray((len(parts),), dtype), {"dimension": i64(0)})


def broadcast(ctx: LoweringContext, x: Value, out_aval: ShapedArray, broadcast_dimensions: Sequence[int]) -> Value:
    """``broadcast_in_dim`` to ``out_aval``, in its dynamic form when the shape is symbolic."""
    attributes = {"broadcast_dimensions": i64_array(broadcast_dimensions)}
    if is_static(out_aval.shape):
        return ctx.op1("stablehlo.broadcast_in_dim", [x], out_aval, attributes)
    return ctx.op1("stablehlo.dynamic_broadcast_in_dim", [x, shape_value(ctx, out_aval.shape)], out_aval, attributes)


def reshape(ctx: LoweringContext, x: Value, out_aval: ShapedArray) -> Value:
    """``x`` reshaped to ``out_aval``, in the dynamic form when either shape is symbolic."""
    if is_static(out_aval.shape) and is_static(x.aval.shape):
        return ctx.op1("stablehlo.reshape", [x], out_aval)
    return ctx.op1("stablehlo.dynamic_reshape", [x, shape_value(ctx, out_aval.shape)], out_aval)


def iota(ctx: LoweringContext, out_aval: ShapedArray, dimension: int) -> Value:
    attributes = {"iota_dimension": i64(dimension)}
    if is_static(out_aval.shape):
        return ctx.op1("stablehlo.iota", [], out_aval, attributes)
    return ctx.op1("stablehlo.dynamic_iota", [shape_value(ctx, out_aval.shape)], out_aval, attributes)


def bind_dimension_variables(ctx: LoweringContext, args: Sequence[Value]) -> None:
    """Read the values of the dimension variables from the arguments' dynamic sizes into ``ctx`` (a function's
    entry): from a dimension that is ``c*v + known`` for a variable ``v`` not read yet."""
    sizes = [(arg, i, d) for arg in args for i, d in enumerate(getattr(arg.aval, "shape", ()))
             if shape_poly.is_symbolic_dim(d)]
    dtype = _dimension_dtype()
    progress = True
    while progress:
        progress = False
        for arg, i, d in sizes:
            solvable = shape_poly.linear_in_one_variable(d, ctx.dimension_values)
            if solvable is None:
                continue
            name, coeff, rest = solvable
            size = ctx.op1("stablehlo.get_dimension_size", [arg], ShapedArray((), np.dtype(np.int32)),
                           {"dimension": i64(i)})
            if dtype != size.aval.dtype:
                size = ctx.op1("stablehlo.convert", [size], ShapedArray((), dtype))
            ops = _EmittingOps(ctx)
            if rest != 0:
                size = ctx.op1("stablehlo.subtract", [size, dimension_value(ctx, rest)], size.aval)
            ctx.dimension_values[name] = size if coeff == 1 else ops.floordiv(size, ops.constant(coeff))
            progress = True


@register_lowering(dim_as_value_p)
def _dim_as_value(ctx: LoweringContext, *, dim: Any) -> Value:
    value = dimension_value(ctx, dim)
    out = ctx.avals_out[0]
    return value if value.aval.dtype == out.dtype else ctx.op1("stablehlo.convert", [value], out)
