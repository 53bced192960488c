"""Lowering of the sorting primitives: sort (several operands, lexicographic over the keys) and top_k."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from jaxle_core.auto_mesh_types import check_comparison_meshes
from jaxle_core.avals import ShapedArray
from jaxle_core.lax.sorting import sort_p, top_k_p
from jaxle_core.mesh import PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_xla.lowering.context import LoweringContext, Value, boolean, comparison_type, i64, i64_array
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.reductions import logical, scalar
from jaxle_xla.lowering.typed_layouts import constrain_to_type, constrains_types

Constrain = Callable[[LoweringContext, Value], Value]


@register_lowering(sort_p)
def _sort_lowering(ctx: LoweringContext, *operands: Value, dimension: int, is_stable: bool, num_keys: int
                   ) -> list[Value]:
    # Ascending, lexicographic over the first num_keys operands, as JAX compares: floats made canonical (-0.0 tied
    # with +0.0, NaNs last and all tied) then compared in total order, complex numbers by real part, then imaginary
    # part. Under sharding in types each of its scalar values is constrained to be replicated, as JAX writes them.
    # Its keys are checked against the mesh the sort was traced under, as JAX's comparison checks them.
    check_comparison_meshes(ctx.avals_in, num_keys, getattr(ctx.eqn, "mesh", None))
    constrain = _unconstrained
    layout = getattr(ctx.avals_in[0], "explicit_sharding", None)
    if layout is not None and constrains_types(ctx):
        replicated = NamedSharding(layout.mesh, PartitionSpec())
        constrain = partial(constrain_to_type, sharding=replicated)
    comparator = partial(_total_order_comparator, num_keys=num_keys, constrain=constrain)
    region = ctx.region([scalar(o.aval) for o in operands for _ in range(2)], comparator)
    return ctx.op("stablehlo.sort", operands, [o.aval for o in operands],
                  {"dimension": i64(dimension), "is_stable": boolean(is_stable)}, [region])


def _unconstrained(ctx: LoweringContext, value: Value) -> Value:
    return value


def _canonical_parts(ctx: LoweringContext, x: Value, constrain: Constrain) -> list[Value]:
    """The keys a scalar ``x`` compares by: itself, or its real and imaginary parts; floats with -0.0 made +0.0
    and every NaN the canonical one."""
    dtype = x.aval.dtype
    if np.issubdtype(dtype, np.complexfloating):
        part = x.aval.update(dtype=np.finfo(dtype).dtype)
        return [canonical for name in ("real", "imag")
                for canonical in _canonical_parts(ctx, constrain(ctx, ctx.op1(f"stablehlo.{name}", [x], part)),
                                                  constrain)]
    if comparison_type(dtype) != "FLOAT":  # integers and booleans (floats include ml_dtypes' narrow ones)
        return [x]
    zero = constrain(ctx, ctx.constant(0, dtype))
    unsigned_zero = constrain(ctx, ctx.select(ctx.compare("EQ", x, zero), constrain(ctx, ctx.constant(0, dtype)), x))
    is_nan = ctx.compare("NE", x, x)
    return [constrain(ctx, ctx.select(is_nan, constrain(ctx, ctx.constant(np.nan, dtype)), unsigned_zero))]


def _total_order_comparator(ctx: LoweringContext, args: list[Value], num_keys: int, constrain: Constrain
                            ) -> list[Value]:
    """JAX's comparison of sort: the keys made canonical (``_canonical_parts``), then compared in total order,
    lexicographically, built from the last key; ``constrain`` lays out the values JAX constrains."""
    keys = []
    for i in range(num_keys):
        keys += zip(*[_canonical_parts(ctx, x, constrain) for x in args[2 * i:2 * i + 2]])
    before = ctx.compare("LT", *keys[-1], total_order=True)
    for x, y in reversed(keys[:-1]):
        less, equal = ctx.compare("LT", x, y, total_order=True), ctx.compare("EQ", x, y, total_order=True)
        before = constrain(ctx, logical(ctx, "or", less, constrain(ctx, logical(ctx, "and", equal, before))))
    return [before]


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
