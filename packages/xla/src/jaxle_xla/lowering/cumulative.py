"""Lowering of the cumulative reductions (cumsum, cumprod, cummax, cummin, cumlogsumexp).

Each is a ``reduce_window`` whose window spans the whole axis, padded on the side the scan starts from, as JAX
lowers them on CPU: output ``i`` folds elements ``0..i`` (``i..n-1`` when ``reverse``) in index order. As JAX's,
it is a function of its own named after the primitive (``@cumsum``), written once per operand type and axis.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.lax.cumulative import cumlogsumexp_p, cummax_p, cummin_p, cumprod_p, cumsum_p
from jaxle_xla.lowering.context import LoweringContext, Value, i64_array
from jaxle_xla.lowering.dimensions import is_static
from jaxle_xla.lowering.elementwise import complex_extremum
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.reductions import Combiner, combiner, identity, ranks_before
from jaxle_xla.lowering.typed_layouts import constrain_to_types, constrains_types, leave_unconstrained
from jaxle_xla.lowering.windowed import emit_reduce_window


def _complex_running_extremum(largest: bool) -> Combiner:
    """The running max/min of complex numbers: lexicographic, the accumulator kept unless it compares larger
    (smaller) than the next element by plain IEEE comparisons of the parts."""

    def combine(ctx: LoweringContext, acc: Value, x: Value) -> Value:
        acc_larger, _ = ranks_before(ctx, acc, x, descending=True, nan_first=None)
        return ctx.select(acc_larger, acc, x) if largest else ctx.select(acc_larger, x, acc)

    return combine


def _logaddexp(ctx: LoweringContext, x: Value, y: Value) -> Value:
    """``log(exp(x) + exp(y))`` as JAX's ``logaddexp`` writes it, in the operands' own dtype: for reals
    ``max(x, y) + log1p(exp(-|x - y|))``, or ``x + y`` where the difference is NaN (equal infinities, NaNs); for
    complex numbers ``m + log1p(exp(x + y - 2m))`` (``m`` the larger by real part), its phase wrapped into
    ``[-pi, pi)``."""

    def op(name: str, *operands: Value) -> Value:
        return ctx.op1(f"stablehlo.{name}", list(operands), operands[0].aval)

    if np.issubdtype(x.aval.dtype, np.complexfloating):
        largest = complex_extremum(ctx, x, y, "GT")
        exponent = op("subtract", op("add", x, y), op("multiply", largest, ctx.constant(2, x.aval.dtype)))
        out = op("add", largest, op("log_plus_one", op("exponential", exponent)))
        part = x.aval.update(dtype=np.finfo(x.aval.dtype).dtype)
        real, imag = ctx.op1("stablehlo.real", [out], part), ctx.op1("stablehlo.imag", [out], part)
        turns = op("remainder", op("add", imag, ctx.constant(np.pi, part.dtype)), ctx.constant(2 * np.pi, part.dtype))
        turns = ctx.select(ctx.compare("LT", turns, ctx.constant(0, part.dtype)),
                           op("add", turns, ctx.constant(2 * np.pi, part.dtype)), turns)
        return ctx.op1("stablehlo.complex", [real, op("subtract", turns, ctx.constant(np.pi, part.dtype))], x.aval)
    largest, difference = op("maximum", x, y), op("subtract", x, y)
    undefined = ctx.compare("NE", difference, difference)
    total = op("add", x, y)
    softplus = op("log_plus_one", op("exponential", op("negate", op("abs", difference))))
    return ctx.select(undefined, total, op("add", largest, softplus))


def _cumulative(name: str, kind: str):
    def rule(ctx: LoweringContext, x: Value, *, axis: int, reverse: bool) -> Value:
        if x.aval.shape[axis] == 0:
            return x
        typed = constrains_types(ctx)
        out_avals = ctx.avals_out
        key = (name, x.aval, axis, reverse, typed and tuple(out_avals), tuple(map(id, ctx.module.manual_regions)))

        def function(inner: LoweringContext, args: list[Value]) -> list[Value]:
            result = [_scan(inner, args[0], kind, axis, reverse)]
            # in a program constraining its types, the result is constrained inside, as JAX writes it
            return constrain_to_types(inner, out_avals, result) if typed else result

        if not is_static(x.aval.shape):  # inline where sizes are symbolic (its values are the caller's)
            return function(ctx, [x])[0]
        # a function of its own, called (once written, for every operand of this type), as JAX writes it
        callee = ctx.module.written_function(name, [x.aval], function, key)
        return ctx.op1("func.call", [x], ctx.avals_out[0], {"callee": f"@{callee}"})

    return rule


def _scan(ctx: LoweringContext, x: Value, kind: str, axis: int, reverse: bool) -> Value:
    n, ndim, dtype = x.aval.shape[axis], x.aval.ndim, x.aval.dtype
    if kind == "logaddexp":
        combine, init = _logaddexp, np.asarray(-np.inf, dtype)
    else:
        complex_extremum = kind in ("max", "min") and np.issubdtype(dtype, np.complexfloating)
        combine = _complex_running_extremum(kind == "max") if complex_extremum else combiner(kind, dtype)
        init = identity(kind, dtype)
    window = tuple(n if d == axis else 1 for d in range(ndim))
    padding = tuple(((0, n - 1) if reverse else (n - 1, 0)) if d == axis else (0, 0) for d in range(ndim))
    ones = (1,) * ndim
    init_value = ctx.constant(init)
    if kind in ("add", "max", "min"):  # JAX broadcasts these initial values to their own (scalar) shape
        init_value = ctx.op1("stablehlo.broadcast_in_dim", [init_value], init_value.aval,
                             {"broadcast_dimensions": i64_array(())})
    return emit_reduce_window(ctx, [x], [init_value], lambda inner, args: [combine(inner, *args)],
                              window_dimensions=window, window_strides=ones, padding=padding,
                              base_dilation=ones, window_dilation=ones)[0]


for _primitive, _kind in [(cumsum_p, "add"), (cumprod_p, "mul"), (cummax_p, "max"),
                          (cummin_p, "min"), (cumlogsumexp_p, "logaddexp")]:
    register_lowering(_primitive)(_cumulative(_primitive.name, _kind))
leave_unconstrained(cumsum_p, cumprod_p, cummax_p, cummin_p, cumlogsumexp_p)  # their functions constrain them
