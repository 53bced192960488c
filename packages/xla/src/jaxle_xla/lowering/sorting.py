"""Lowering of the sorting primitives: sort (several operands, lexicographic over the keys) and top_k."""

from __future__ import annotations

from collections.abc import Sequence

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.sorting import sort_p, top_k_p
from jaxle_xla.lowering.context import LoweringContext, Value, boolean, i64, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.reductions import lexicographic, ranks_before, scalar


@register_lowering(sort_p)
def _sort_lowering(ctx: LoweringContext, *operands: Value, dimension: int, is_stable: bool, num_keys: int
                   ) -> list[Value]:
    # Ascending, lexicographic over the first num_keys operands: NaNs last and all tied, -0.0 tied with +0.0,
    # complex numbers by real part, then imaginary part.
    def comparator(inner: LoweringContext, args: list[Value]) -> list[Value]:
        pairs = [(args[2 * i], args[2 * i + 1]) for i in range(num_keys)]
        before, _ = lexicographic(inner, [ranks_before(inner, x, y, descending=False, nan_first=False)
                                          for x, y in pairs])
        return [before]

    region = ctx.region([scalar(o.aval) for o in operands for _ in range(2)], comparator)
    return ctx.op("stablehlo.sort", operands, [o.aval for o in operands],
                  {"dimension": i64(dimension), "is_stable": boolean(is_stable)}, [region])


@register_lowering(top_k_p)
def _top_k_lowering(ctx: LoweringContext, operand: Value, *, k: int, axis: int) -> list[Value]:
    # chlo.top_k works on the last axis: largest first in XLA's total order (-NaN < -inf < ... < -0.0 < +0.0 < ...
    # < inf < +NaN), ties by lower index.
    last = operand.aval.ndim - 1
    if axis == last:
        return ctx.op("chlo.top_k", [operand], ctx.avals_out, {"k": i64(k)})
    permutation = list(range(operand.aval.ndim))
    permutation[axis], permutation[last] = last, axis
    transposed = _transpose(ctx, operand, permutation)
    outs = ctx.op("chlo.top_k", [transposed], [_permuted(a, permutation) for a in ctx.avals_out], {"k": i64(k)})
    return [_transpose(ctx, out, permutation) for out in outs]


def _permuted(aval: ShapedArray, permutation: Sequence[int]) -> ShapedArray:
    return aval.update(shape=[aval.shape[p] for p in permutation])


def _transpose(ctx: LoweringContext, value: Value, permutation: Sequence[int]) -> Value:
    return ctx.op1("stablehlo.transpose", [value], _permuted(value.aval, permutation),
                   {"permutation": i64_array(permutation)})
