"""Lowering of approx_top_k as JAX lowers it on CPU: XLA's ``ApproxTopK`` custom call marked as a fallback (an
exact sort), with the operand's positions as the second operand and a comparator function."""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.lax.approx_top_k import approx_top_k_p
from jaxle_core.lax.elementwise import gt, lt
from jaxle_core.staging import trace_to_jaxpr
from jaxle_xla.lowering.context import LoweringContext, Value, boolean, element_type, i64
from jaxle_xla.lowering.module import register_lowering


def _comparator(ctx: LoweringContext, dtype: np.dtype, is_max_k: bool) -> str:
    """The name of the function ordering (value, value, index, index): greater first for max, less for min."""
    scalars = [ShapedArray((), dtype)] * 2 + [ShapedArray((), np.int32)] * 2
    compare = gt if is_max_k else lt
    closed = trace_to_jaxpr(lambda a, b, i, j: [compare(a, b)], scalars)
    return ctx.module.function(closed, f"top_k_{'gt' if is_max_k else 'lt'}_{element_type(dtype)}_comparator")


@register_lowering(approx_top_k_p)
def _approx_top_k(ctx: LoweringContext, operand: Value, *, k, reduction_dimension, recall_target, is_max_k,
                  reduction_input_size_override, aggregate_to_topk) -> list[Value]:
    aval = operand.aval
    dim = reduction_dimension % aval.ndim
    positions = ctx.op1("stablehlo.iota", [], ShapedArray(aval.shape, np.int32), {"iota_dimension": i64(dim)})
    init = ctx.constant(-np.inf if is_max_k else np.inf, aval.dtype)
    config = (f"{{aggregate_to_topk = {boolean(aggregate_to_topk)}, is_fallback = true, recall_target = "
              f"{float(np.float32(recall_target))!r} : f32, reduction_dim = {i64(dim)}, "
              f"reduction_input_size_override = {i64(reduction_input_size_override)}, top_k = {i64(k)}}}")
    return ctx.op("stablehlo.custom_call", [operand, positions, init, ctx.constant(-1, np.int32)], ctx.avals_out, {
        "call_target_name": '"ApproxTopK"', "backend_config": '""',
        "called_computations": f"[@{_comparator(ctx, aval.dtype, is_max_k)}]", "mhlo.backend_config": config})
