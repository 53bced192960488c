"""Lowering of the elementwise primitives (arithmetic, comparisons, bitwise, transcendental).

Most primitives are one StableHLO op, or one CHLO op that XLA expands: XLA's semantics are the reference's
for integer division by zero, remainders, shifts past the bit width and the like. The rest reproduce what
JAX emits: unsigned ``sign`` as a select, ``integer_pow`` by repeated squaring, ``exp2`` and ``logistic``
through ``exp`` in the operand's dtype, complex ``sin``/``cos`` from real functions, lexicographic complex
``max``/``min``, and ``conj``.
"""

from __future__ import annotations

import functools

import numpy as np

from jaxle_core import lax
from jaxle_core.lax.accuracy import AccuracyMode, Tolerance, check_accuracy
from jaxle_core.lax.elementwise import (
    RoundingMethod,
    abs_p,
    acos_p,
    acosh_p,
    add_p,
    and_p,
    asin_p,
    asinh_p,
    atan2_p,
    atan_p,
    atanh_p,
    cbrt_p,
    ceil_p,
    clz_p,
    complex_p,
    conj_p,
    cos_p,
    cosh_p,
    div_p,
    eq_p,
    eq_to_p,
    exp2_p,
    exp_p,
    expm1_p,
    floor_p,
    ge_p,
    gt_p,
    imag_p,
    integer_pow_p,
    is_finite_p,
    le_p,
    le_to_p,
    log1p_p,
    log_p,
    logistic_p,
    lt_p,
    lt_to_p,
    max_p,
    min_p,
    mul_p,
    mulhi_p,
    ne_p,
    neg_p,
    nextafter_p,
    not_p,
    or_p,
    population_count_p,
    pow_p,
    real_p,
    rem_p,
    round_p,
    rsqrt_p,
    shift_left_p,
    shift_right_arithmetic_p,
    shift_right_logical_p,
    sign_p,
    sin_p,
    sinh_p,
    sqrt_p,
    square_p,
    sub_p,
    tan_p,
    tanh_p,
    xor_p,
)
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import elementwise_op, register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained, typed_operand

for _primitive, _op in [
    # arithmetic
    (add_p, "stablehlo.add"), (sub_p, "stablehlo.subtract"), (div_p, "stablehlo.divide"),
    (rem_p, "stablehlo.remainder"), (neg_p, "stablehlo.negate"), (abs_p, "stablehlo.abs"),
    (floor_p, "stablehlo.floor"), (ceil_p, "stablehlo.ceil"), (is_finite_p, "stablehlo.is_finite"),
    (nextafter_p, "chlo.next_after"),
    # transcendental
    (atan2_p, "stablehlo.atan2"), (asin_p, "chlo.asin"), (acos_p, "chlo.acos"), (atan_p, "chlo.atan"),
    (sinh_p, "chlo.sinh"), (cosh_p, "chlo.cosh"), (asinh_p, "chlo.asinh"), (acosh_p, "chlo.acosh"),
    (atanh_p, "chlo.atanh"),
    # complex parts
    (real_p, "stablehlo.real"), (imag_p, "stablehlo.imag"), (complex_p, "stablehlo.complex"),
    # bits
    (not_p, "stablehlo.not"), (and_p, "stablehlo.and"), (or_p, "stablehlo.or"), (xor_p, "stablehlo.xor"),
    (shift_left_p, "stablehlo.shift_left"), (shift_right_logical_p, "stablehlo.shift_right_logical"),
    (shift_right_arithmetic_p, "stablehlo.shift_right_arithmetic"), (clz_p, "stablehlo.count_leading_zeros"),
    (population_count_p, "stablehlo.popcnt"), (mulhi_p, "chlo.mulhi"),
]:
    elementwise_op(_primitive, _op)


def _operands(ctx: LoweringContext, args: tuple[Value, ...], dtype: np.dtype | None = None) -> list[Value]:
    """``args`` broadcast to the result's shape, converted to ``dtype`` where given and different."""
    shape = ctx.avals_out[0].shape
    if dtype is not None:
        args = tuple(_convert(ctx, a, dtype) for a in args)
    return [typed_operand(ctx, a, i, ctx.broadcast_to(a, shape)) for i, a in enumerate(args)]


def _convert(ctx: LoweringContext, x: Value, dtype: np.dtype) -> Value:
    if x.aval.dtype == dtype:
        return x
    return ctx.op1("stablehlo.convert", [x], x.aval.update(dtype=dtype))


def _binary(ctx: LoweringContext, op: str, x: Value, y: Value) -> Value:
    return ctx.op1(op, [x, y], x.aval)


# ---------------------------------------------------------------- comparisons


def _comparison(direction: str, total_order: bool = False):
    def rule(ctx: LoweringContext, x: Value, y: Value) -> Value:
        return ctx.compare(direction, *_operands(ctx, (x, y)), total_order=total_order)

    return rule


for _primitive, _direction in [(eq_p, "EQ"), (ne_p, "NE"), (lt_p, "LT"), (le_p, "LE"),
                               (gt_p, "GT"), (ge_p, "GE")]:
    register_lowering(_primitive)(_comparison(_direction))
for _primitive, _direction in [(eq_to_p, "EQ"), (le_to_p, "LE"), (lt_to_p, "LT")]:
    register_lowering(_primitive)(_comparison(_direction, total_order=True))
leave_unconstrained(eq_p, ne_p, lt_p, le_p, gt_p, ge_p, eq_to_p, le_to_p, lt_to_p)


# ---------------------------------------------------------------- arithmetic


@register_lowering(mul_p)
def _mul(ctx: LoweringContext, x: Value, y: Value, *, out_dtype) -> Value:
    """Both operands converted to the result's dtype (``out_dtype`` when given) and multiplied."""
    return _binary(ctx, "stablehlo.multiply", *_operands(ctx, (x, y), ctx.avals_out[0].dtype))


@register_lowering(pow_p)
def _pow(ctx: LoweringContext, x: Value, y: Value) -> Value:
    # An integer exponent is converted to the base's dtype, as XLA's power wants equal types.
    return _binary(ctx, "stablehlo.power", *_operands(ctx, (x, y), ctx.avals_out[0].dtype))


@register_lowering(square_p)
def _square(ctx: LoweringContext, x: Value) -> Value:
    if np.issubdtype(x.aval.dtype, np.integer):
        return _binary(ctx, "stablehlo.multiply", x, x)
    return ctx.op1("chlo.square", [x], x.aval)


@register_lowering(integer_pow_p)
def _integer_pow(ctx: LoweringContext, x: Value, *, y: int) -> Value:
    """Repeated squaring, each product ``accumulated * power``; ``x ** -n`` is ``1 / x ** n``.

    The order of the operands matters for complex infinities. ``x ** 3`` is ``(x * x) * x``, as JAX emits it.
    """
    if y == 0:
        return _one_like(ctx, x, y)
    if y == 3:
        return _binary(ctx, "stablehlo.multiply", _binary(ctx, "stablehlo.multiply", x, x), x)
    result, base, n = None, x, abs(y)
    while n:
        if n & 1:
            result = base if result is None else _binary(ctx, "stablehlo.multiply", result, base)
        n >>= 1
        if n:
            base = _binary(ctx, "stablehlo.multiply", base, base)
    if y < 0:
        result = _binary(ctx, "stablehlo.divide", _one_like(ctx, x, y), result)
    return result


def _one_like(ctx: LoweringContext, x: Value, y: int) -> Value:
    """The ones of ``x ** y`` as JAX writes them: ``x ** -1``'s its rule's fill (a broadcast even to a scalar's
    shape), the others ``full_like``'s (a scalar left as it is)."""
    if y == -1:
        return ctx.broadcast_constant(1, x)
    return ctx.broadcast_to(ctx.constant(1, x.aval.dtype), x.aval.shape)


@register_lowering(sign_p)
def _sign(ctx: LoweringContext, x: Value) -> Value:
    if not np.issubdtype(x.aval.dtype, np.unsignedinteger):
        return ctx.op1("stablehlo.sign", [x], x.aval)
    # StableHLO's sign takes no unsigned integers: 0 stays 0, anything else is 1.
    return ctx.select(ctx.compare("EQ", x, ctx.full_like(0, x)), ctx.full_like(0, x), ctx.full_like(1, x))


leave_unconstrained(sign_p)  # JAX's rule writes no constraint after its result either


@register_lowering(round_p)
def _round(ctx: LoweringContext, x: Value, *, rounding_method: RoundingMethod) -> Value:
    if rounding_method == RoundingMethod.TO_NEAREST_EVEN:
        return ctx.op1("stablehlo.round_nearest_even", [x], x.aval)
    return ctx.op1("stablehlo.round_nearest_afz", [x], x.aval)


def complex_extremum(ctx: LoweringContext, x: Value, y: Value, direction: str) -> Value:
    """The larger (``GT``) or smaller (``LT``) of complex ``x`` and ``y`` (of one shape): by real part, then by
    imaginary part, written in JAX's order (the real parts compared before the imaginary parts are taken)."""
    part_aval = x.aval.update(dtype=np.finfo(x.aval.dtype).dtype)
    real_x, real_y = (ctx.op1("stablehlo.real", [v], part_aval) for v in (x, y))
    same_real, real_wins = ctx.compare("EQ", real_x, real_y), ctx.compare(direction, real_x, real_y)
    imag_x, imag_y = (ctx.op1("stablehlo.imag", [v], part_aval) for v in (x, y))
    x_wins = ctx.select(same_real, ctx.compare(direction, imag_x, imag_y), real_wins)
    return ctx.select(x_wins, x, y)


def _extremum(op: str, direction: str):
    """``max``/``min``: XLA's op for real numbers; complex numbers compare by real part, then imaginary part."""

    def rule(ctx: LoweringContext, x: Value, y: Value) -> Value:
        x, y = _operands(ctx, (x, y))
        if not np.issubdtype(x.aval.dtype, np.complexfloating):
            return _binary(ctx, op, x, y)
        return complex_extremum(ctx, x, y, direction)

    return rule


register_lowering(max_p)(_extremum("stablehlo.maximum", "GT"))
register_lowering(min_p)(_extremum("stablehlo.minimum", "LT"))


# ---------------------------------------------------------------- transcendental


def _result_accuracy(accuracy) -> dict[str, str]:
    """The ``result_accuracy`` attribute JAX gives an op for ``accuracy`` (none for None or DEFAULT)."""
    check_accuracy(accuracy)
    if isinstance(accuracy, Tolerance):
        return {"result_accuracy": f"#stablehlo.result_accuracy<atol = {float(accuracy.atol):.17e}, rtol = "
                                   f"{float(accuracy.rtol):.17e}, ulps = {int(accuracy.ulps)}, mode = "
                                   "#stablehlo.result_accuracy_mode<TOLERANCE>>"}
    if accuracy is AccuracyMode.HIGHEST:
        return {"result_accuracy": "#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>"}
    return {}


def _with_accuracy(op: str):
    def rule(ctx: LoweringContext, x: Value, *, accuracy=None) -> Value:
        return ctx.op1(op, [x], ctx.avals_out[0], _result_accuracy(accuracy))

    return rule


for _primitive, _op in [
    (exp_p, "stablehlo.exponential"), (expm1_p, "stablehlo.exponential_minus_one"),
    (log_p, "stablehlo.log"), (log1p_p, "stablehlo.log_plus_one"), (sqrt_p, "stablehlo.sqrt"),
    (rsqrt_p, "stablehlo.rsqrt"), (cbrt_p, "stablehlo.cbrt"), (tanh_p, "stablehlo.tanh"),
    (tan_p, "stablehlo.tan"),
]:
    register_lowering(_primitive)(_with_accuracy(_op))


@register_lowering(exp2_p)
def _exp2(ctx: LoweringContext, x: Value, *, accuracy=None) -> Value:
    """``exp(x log 2)``, as JAX computes it."""
    scaled = _binary(ctx, "stablehlo.multiply", ctx.full_like(np.log(2), x), x)
    return ctx.op1("stablehlo.exponential", [scaled], x.aval, _result_accuracy(accuracy))


@register_lowering(logistic_p)
def _logistic(ctx: LoweringContext, x: Value, *, accuracy=None) -> Value:
    """``1 / (1 + exp(-x))``, the reference's formula."""
    exp_neg = ctx.op1("stablehlo.exponential", [ctx.op1("stablehlo.negate", [x], x.aval)], x.aval)
    one = ctx.full_like(1, x)
    return _binary(ctx, "stablehlo.divide", one, _binary(ctx, "stablehlo.add", one, exp_neg))


def _sin_or_cos_complex(x, *, cosine: bool):
    """sin(a + ib) = sin a cosh b + i cos a sinh b, cos(a + ib) = cos a cosh b - i sin a sinh b.

    sinh and cosh come from expm1(±b) for accuracy near 0, and the part that carries sin a is exactly 0 where
    a is 0 (rather than 0 * inf = NaN), as JAX lowers them.
    """
    a, b = lax.real(x), lax.imag(x)
    zero, two = np.zeros((), a.dtype), np.array(2, a.dtype)
    grow, shrink = lax.expm1(b), lax.expm1(lax.neg(b))
    sinh_b, cosh_b = lax.div(lax.sub(grow, shrink), two), lax.div(lax.add(lax.add(grow, shrink), two), two)
    sin_a, cos_a = lax.sin(a), lax.cos(a)
    a_is_zero = lax.eq(a, zero)
    if cosine:
        real, imag = lax.mul(cos_a, cosh_b), lax.mul(lax.neg(sin_a), sinh_b)
        return lax.select(a_is_zero, lax.complex(real, zero), lax.complex(real, imag))
    real, imag = lax.mul(sin_a, cosh_b), lax.mul(cos_a, sinh_b)
    return lax.select(a_is_zero, lax.complex(zero, imag), lax.complex(real, imag))


def _sin_or_cos(op: str, cosine: bool):
    def rule(ctx: LoweringContext, x: Value, *, accuracy=None) -> Value:
        if np.issubdtype(x.aval.dtype, np.complexfloating):
            return ctx.lower_fun(functools.partial(_sin_or_cos_complex, cosine=cosine), x)[0]
        return ctx.op1(op, [x], x.aval, _result_accuracy(accuracy))

    return rule


register_lowering(sin_p)(_sin_or_cos("stablehlo.sine", cosine=False))
register_lowering(cos_p)(_sin_or_cos("stablehlo.cosine", cosine=True))


# ---------------------------------------------------------------- complex numbers


@register_lowering(conj_p)
def _conj(ctx: LoweringContext, x: Value, *, input_dtype) -> Value:
    out = ctx.avals_out[0]
    if not np.issubdtype(x.aval.dtype, np.complexfloating):
        return ctx.op1("stablehlo.complex", [x, ctx.full_like(0, x)], out)
    part_aval = x.aval.update(dtype=np.finfo(x.aval.dtype).dtype)
    real = ctx.op1("stablehlo.real", [x], part_aval)
    imag = ctx.op1("stablehlo.negate", [ctx.op1("stablehlo.imag", [x], part_aval)], part_aval)
    return ctx.op1("stablehlo.complex", [real, imag], out)
