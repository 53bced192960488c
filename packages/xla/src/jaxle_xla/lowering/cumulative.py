"""Lowering of the cumulative reductions (cumsum, cumprod, cummax, cummin, cumlogsumexp).

Each is a ``reduce_window`` whose window spans the whole axis, padded on the side the scan starts from, as JAX
lowers them on CPU: output ``i`` folds elements ``0..i`` (``i..n-1`` when ``reverse``) in index order.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.lax.cumulative import cumlogsumexp_p, cummax_p, cummin_p, cumprod_p, cumsum_p
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.reductions import Combiner, combiner, identity, ranks_before
from jaxle_xla.lowering.windowed import emit_reduce_window


def _complex_running_extremum(largest: bool) -> Combiner:
    """The running max/min of complex numbers: lexicographic, the accumulator kept unless it compares larger
    (smaller) than the next element by plain IEEE comparisons of the parts."""

    def combine(ctx: LoweringContext, acc: Value, x: Value) -> Value:
        acc_larger, _ = ranks_before(ctx, acc, x, descending=True, nan_first=None)
        return ctx.select(acc_larger, acc, x) if largest else ctx.select(acc_larger, x, acc)

    return combine


def _logaddexp(ctx: LoweringContext, x: Value, y: Value) -> Value:
    """``log(exp(x) + exp(y))`` as ``max(x, y) + log1p(exp(-|x - y|))``, the difference taken as 0 where
    ``x == y`` so that equal infinities give themselves; NaN propagates through the max. Narrow floats are
    computed in float32 and rounded once per step."""
    dtype = x.aval.dtype
    if dtype.itemsize < 4:
        wide = x.aval.update(dtype=np.float32)
        x, y = (ctx.op1("stablehlo.convert", [v], wide) for v in (x, y))

    def unary(name: str, v: Value) -> Value:
        return ctx.op1(f"stablehlo.{name}", [v], v.aval)

    difference = ctx.select(ctx.compare("EQ", x, y), ctx.constant(0, x.aval.dtype),
                        ctx.op1("stablehlo.subtract", [x, y], x.aval))
    softplus = unary("log_plus_one", unary("exponential", unary("negate", unary("abs", difference))))
    result = ctx.op1("stablehlo.add", [ctx.op1("stablehlo.maximum", [x, y], x.aval), softplus], x.aval)
    return result if result.aval.dtype == dtype else ctx.op1("stablehlo.convert", [result], result.aval.update(
        dtype=dtype))


def _cumulative(kind: str):
    def rule(ctx: LoweringContext, x: Value, *, axis: int, reverse: bool) -> Value:
        n, ndim, dtype = x.aval.shape[axis], x.aval.ndim, x.aval.dtype
        if n == 0:
            return x
        if kind == "logaddexp":
            combine, init = _logaddexp, np.asarray(-np.inf, dtype)
        else:
            complex_extremum = kind in ("max", "min") and np.issubdtype(dtype, np.complexfloating)
            combine = _complex_running_extremum(kind == "max") if complex_extremum else combiner(kind, dtype)
            init = identity(kind, dtype)
        window = tuple(n if d == axis else 1 for d in range(ndim))
        padding = tuple(((0, n - 1) if reverse else (n - 1, 0)) if d == axis else (0, 0) for d in range(ndim))
        ones = (1,) * ndim
        return emit_reduce_window(ctx, [x], [ctx.constant(init)], lambda inner, args: [combine(inner, *args)],
                                  window_dimensions=window, window_strides=ones, padding=padding,
                                  base_dilation=ones, window_dilation=ones)[0]

    return rule


for _primitive, _kind in [(cumsum_p, "add"), (cumprod_p, "mul"), (cummax_p, "max"),
                          (cummin_p, "min"), (cumlogsumexp_p, "logaddexp")]:
    register_lowering(_primitive)(_cumulative(_kind))
