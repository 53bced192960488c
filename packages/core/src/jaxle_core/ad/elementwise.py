"""Derivative rules of the elementwise primitives (``lax/elementwise.py``): jvp and transpose rules.

Rules are written with lax operations so they stage, evaluate and nest. The terms follow the equations JAX
0.10.2 emits for the same derivatives, so ``make_jaxpr`` of a ``jvp`` or a ``grad`` prints the same program.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.ad.jvp import Zero, add_any_p, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import (
    broadcast_to_aval,
    const,
    defjvp,
    deflinear,
    defzero,
    full_like,
    one,
    retyped_to_mesh,
    transposed_layout,
    typed_auto_mesh,
    typed_layout,
)
from jaxle_core.ad.transpose import is_undefined, transpose_rules
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Tracer
from jaxle_core.lax.accuracy import AccuracyMode
from jaxle_core.lax.elementwise import (
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
from jaxle_core.mesh import get_mesh

# ---------------------------------------------------------------- derivative zero

for _p in (sign_p, floor_p, ceil_p, round_p, is_finite_p, eq_p, ne_p, lt_p, le_p,
           gt_p, ge_p, eq_to_p, le_to_p, lt_to_p, not_p, and_p, or_p, xor_p,
           shift_left_p, shift_right_logical_p, shift_right_arithmetic_p, clz_p,
           population_count_p, mulhi_p):
    defzero(_p)


# ---------------------------------------------------------------- arithmetic



def _add_sub_jvp(primitive, negate_second: bool):
    """add/sub: one nonzero tangent passes through (negated for sub's second), two are added or subtracted."""

    def rule(primals, tangents):
        ans = primitive.bind(*primals)
        out_aval = get_aval(ans)
        tx, ty = tangents
        if type(tx) is not Zero and type(ty) is not Zero:
            return ans, broadcast_to_aval(primitive.bind(tx, ty), out_aval)
        t = tx if type(tx) is not Zero else lax.neg(ty) if negate_second else ty
        if get_aval(t).shape != out_aval.shape:
            return ans, broadcast_to_aval(t, out_aval)
        # one tangent alone, of the output's shape, is retyped to its mesh (as JAX's, while tracing)
        return ans, retyped_to_mesh(broadcast_to_aval(t, out_aval), typed_auto_mesh(out_aval))

    jvp_rules[primitive] = rule


_add_sub_jvp(add_p, negate_second=False)
_add_sub_jvp(sub_p, negate_second=True)
defjvp(mul_p, lambda t, ans, x, y, *, out_dtype: lax.mul(t, y, out_dtype=out_dtype),
       lambda t, ans, x, y, *, out_dtype: lax.mul(x, t, out_dtype=out_dtype))
defjvp(div_p, lambda t, ans, x, y: lax.div(t, y),
       lambda t, ans, x, y: lax.mul(lax.mul(lax.neg(t), x), lax.integer_pow(y, -2)))


def _rem_divisor_term(t, ans, x, y):
    negated = lax.neg(t)
    return lax.mul(negated, lax.mul(lax.sign(lax.div(x, y)), lax.floor(lax.abs(lax.div(x, y)))))


defjvp(rem_p, lambda t, ans, x, y: t, _rem_divisor_term)
deflinear(neg_p)
deflinear(real_p)
deflinear(imag_p)
deflinear(conj_p)
defjvp(square_p, lambda t, ans, x: lax.mul(t, lax.mul(const(x, 2.0), x)))


def _integer_pow_jvp(primals, tangents, *, y):
    (x,), (t,) = primals, tangents
    ans = integer_pow_p.bind(x, y=y)
    if y == 0:
        return ans, Zero(tangent_aval(get_aval(ans)))
    power = x if y - 1 == 1 else lax.integer_pow(x, y - 1)
    return ans, lax.mul(t, lax.mul(const(x, float(y)), power))


jvp_rules[integer_pow_p] = _integer_pow_jvp


def _pow_base_term(t, ans, x, y):
    integer_exponent = not dtypes.issubdtype(get_aval(y).dtype, np.inexact)
    exponent = y if get_aval(y).dtype == get_aval(x).dtype else lax.convert_element_type(y, get_aval(x).dtype)
    if not integer_exponent:
        return lax.mul(t, lax.mul(exponent, lax.pow(x, lax.sub(exponent, full_like(exponent, 1.0)))))
    # As JAX's: an integer exponent is broadcast against the base, and where it is 0 the derivative is exactly 0
    # (x ** -1 is never formed there: a 0 exponent is replaced by 1 before the power).
    shape = np.broadcast_shapes(get_aval(x).shape, get_aval(exponent).shape)
    x, exponent = (v if get_aval(v).shape == shape else lax.broadcast_in_dim(v, shape, ()) for v in (x, exponent))
    is_zero = lax.eq(exponent, const(exponent, 0.0))
    zeros = full_like(exponent, 0.0)
    nonzero_exponent = lax.select_n(lax.eq(exponent, const(exponent, 0.0)), exponent, full_like(exponent, 1.0))
    derivative = lax.mul(nonzero_exponent, lax.pow(x, lax.sub(exponent, full_like(exponent, 1.0))))
    return lax.mul(t, lax.select_n(is_zero, derivative, zeros))


def _pow_exponent_term(t, ans, x, y):
    safe_x = lax.select_n(lax.eq(x, const(x, 0.0)), x, full_like(x, 1.0))
    return lax.mul(t, lax.mul(lax.log(safe_x), ans))


defjvp(pow_p, _pow_base_term, _pow_exponent_term)


def _chooser_weight(x, other, ans):
    """1 where ``x`` is the chosen value, 1/2 where both are, 0 elsewhere (JAX's balanced tie-breaking)."""
    # the constants are made in JAX's order (each select's true case first), which non-scalar jaxprs show
    is_x = lax.eq(x, ans)
    one, zero = full_like(ans, 1.0), full_like(ans, 0.0)
    picked = lax.select_n(is_x, zero, one)
    is_other = lax.eq(other, ans)
    two, one = full_like(ans, 2.0), full_like(ans, 1.0)
    shared = lax.select_n(is_other, one, two)
    return lax.div(picked, shared)


for _p in (max_p, min_p):
    defjvp(_p, lambda t, ans, x, y: lax.mul(t, _chooser_weight(x, y, ans)),
           lambda t, ans, x, y: lax.mul(t, _chooser_weight(y, x, ans)))


def _abs_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = lax.abs(x)
    dtype = get_aval(x).dtype
    if dtype.kind == "c":
        # d|z| = Re(dz conj(z) / |z|), taken as 0 at z = 0; as JAX, the quotient is formed in complex arithmetic
        # (|z| converted back to z's type), which the staged equations and the rounding of the result show.
        conj = lax.conj(x)
        magnitude = lax.convert_element_type(ans, dtype)
        safe = lax.select_n(lax.eq(magnitude, const(magnitude, 0.0)), magnitude, full_like(magnitude, 1.0))
        return ans, lax.real(lax.mul(t, lax.div(conj, safe)))
    return ans, lax.select_n(lax.ge(x, const(x, 0.0)), lax.neg(t), t)


jvp_rules[abs_p] = _abs_jvp


def _complex_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    ans = lax.complex(x, y)
    zeros = Zero(tangent_aval(get_aval(x)))
    real_part = instantiate(tx) if type(tx) is not Zero else instantiate(zeros)
    imag_part = instantiate(ty) if type(ty) is not Zero else instantiate(zeros)
    out_aval = get_aval(ans)
    return ans, lax.complex(broadcast_to_aval(real_part, out_aval.update(dtype=real_part.dtype)),
                            broadcast_to_aval(imag_part, out_aval.update(dtype=real_part.dtype)))


jvp_rules[complex_p] = _complex_jvp

# ---------------------------------------------------------------- transcendental

defjvp(exp_p, lambda t, ans, x, **_: lax.mul(t, ans))
defjvp(exp2_p, lambda t, ans, x, **_: lax.mul(lax.log(const(x, 2.0)), lax.mul(t, ans)))
defjvp(log_p, lambda t, ans, x, **_: lax.div(t, x))
defjvp(log1p_p, lambda t, ans, x, **_: lax.div(t, lax.add(x, one(x))))


# With accuracy HIGHEST, JAX differentiates expm1, tanh and logistic through exp/logistic of the operand (computed
# to that accuracy) rather than through the result, which loses precision where the result saturates.
def _expm1_term(t, ans, x, *, accuracy):
    if accuracy is AccuracyMode.HIGHEST:
        return lax.mul(t, lax.exp(x, accuracy=accuracy))
    return lax.mul(t, lax.add(ans, one(ans)))


def _tanh_term(t, ans, x, *, accuracy):
    if accuracy is AccuracyMode.HIGHEST:
        rising = lax.logistic(lax.mul(const(x, 2.0), x), accuracy=accuracy)
        falling = lax.logistic(lax.mul(const(x, -2.0), x), accuracy=accuracy)
        return lax.mul(t, lax.mul(const(x, 4.0), lax.mul(rising, falling)))
    return lax.mul(lax.add(t, lax.mul(t, ans)), lax.sub(one(x), ans))


def _logistic_term(t, ans, x, *, accuracy):
    if accuracy is AccuracyMode.HIGHEST:
        return lax.mul(t, lax.mul(ans, lax.logistic(lax.neg(x))))
    return lax.mul(t, lax.mul(ans, lax.sub(one(ans), ans)))


defjvp(expm1_p, _expm1_term)
defjvp(tanh_p, _tanh_term)
defjvp(logistic_p, _logistic_term)
# sin's cosine drops the accuracy, as JAX's linearization (grad) does; cos's sine keeps it.
defjvp(sin_p, lambda t, ans, x, **_: lax.mul(t, lax.cos(x)))
defjvp(cos_p, lambda t, ans, x, *, accuracy: lax.neg(lax.mul(t, lax.sin(x, accuracy=accuracy))))
defjvp(tan_p, lambda t, ans, x, **_: lax.mul(t, lax.add(const(ans, 1.0), lax.square(ans))))
defjvp(asin_p, lambda t, ans, x: lax.mul(t, lax.rsqrt(lax.sub(const(x, 1.0), lax.square(x)))))
defjvp(acos_p, lambda t, ans, x: lax.mul(t, lax.neg(lax.rsqrt(lax.sub(const(x, 1.0), lax.square(x))))))
defjvp(atan_p, lambda t, ans, x: lax.div(t, lax.add(const(x, 1.0), lax.square(x))))
defjvp(sinh_p, lambda t, ans, x: lax.mul(t, lax.cosh(x)))
defjvp(cosh_p, lambda t, ans, x: lax.mul(t, lax.sinh(x)))
defjvp(asinh_p, lambda t, ans, x: lax.mul(t, lax.rsqrt(lax.add(lax.square(x), one(x)))))
defjvp(acosh_p, lambda t, ans, x: lax.mul(t, lax.rsqrt(lax.sub(lax.square(x), one(x)))))
defjvp(atanh_p, lambda t, ans, x: lax.mul(lax.integer_pow(lax.add(one(x), x), -1), lax.div(t, lax.sub(one(x), x))))
defjvp(sqrt_p, lambda t, ans, x, **_: lax.mul(t, lax.div(const(ans, 0.5), ans)))
defjvp(rsqrt_p, lambda t, ans, x, **_: lax.mul(t, lax.mul(const(ans, -0.5), lax.div(ans, x))))
defjvp(cbrt_p, lambda t, ans, x, **_: lax.mul(t, lax.mul(const(ans, 1 / 3), lax.integer_pow(ans, -2))))


def _atan2_term(numerator_sign: int):
    def term(t, ans, x, y):
        numerator = y if numerator_sign > 0 else lax.neg(x)
        return lax.mul(t, lax.div(numerator, lax.add(lax.square(x), lax.square(y))))

    return term


defjvp(atan2_p, _atan2_term(1), _atan2_term(-1))


# ---------------------------------------------------------------- transposes: arithmetic


def unbroadcast(aval: ShapedArray, ct: Any) -> Any:
    """``ct`` summed back to ``aval``'s shape over the dimensions an elementwise operation broadcast (a scalar typed
    over another mesh of Auto axes than ``aval``'s is summed over no axes, as JAX's sums a scalar of another type)."""
    ct_aval = get_aval(ct)
    shape = ct_aval.shape
    if shape == aval.shape:
        if not shape and typed_auto_mesh(ct_aval) != typed_auto_mesh(aval):
            return lax.reduce_sum(ct, ())
        layout = typed_layout(aval)
        if (shape and layout not in (None, getattr(ct_aval, "explicit_sharding", None))
                and not (layout.spec.unreduced or layout.spec.reduced)
                and (isinstance(ct, Tracer) or not get_mesh().empty)):  # (outside set_mesh, the rules retype it)
            return lax.reshape(ct, aval.shape, out_sharding=layout)  # as JAX's: retyped by a reshape
        return ct
    if not aval.shape:
        return lax.reduce_sum(ct, tuple(range(len(shape))))
    summed = tuple(i for i, (a, c) in enumerate(zip(aval.shape, shape)) if a != c)
    return lax.reshape(lax.reduce_sum(ct, summed), aval.shape, out_sharding=transposed_layout(aval, aval.ndim))


def _add_transpose(ct, x, y):
    return [unbroadcast(x.aval, ct) if is_undefined(x) else None,
            unbroadcast(y.aval, ct) if is_undefined(y) else None]


def _sub_transpose(ct, x, y):
    return [unbroadcast(x.aval, ct) if is_undefined(x) else None,
            unbroadcast(y.aval, lax.neg(ct)) if is_undefined(y) else None]


def _mul_transpose(ct, x, y, *, out_dtype):
    if is_undefined(x) and is_undefined(y):
        # (JAX fails with an internal AssertionError)
        raise TypeError("the function is not linear in its inputs: a product of two linear values is not linear")
    if is_undefined(x):
        dtype = None if out_dtype is None else x.aval.dtype
        return [unbroadcast(x.aval, lax.mul(ct, y, out_dtype=dtype)), None]
    dtype = None if out_dtype is None else y.aval.dtype
    return [None, unbroadcast(y.aval, lax.mul(x, ct, out_dtype=dtype))]


def _div_transpose(ct, x, y):
    if is_undefined(y):
        raise RuntimeError("nonlinear div can't be transposed")
    return [unbroadcast(x.aval, lax.div(ct, y)), None]


transpose_rules[add_any_p] = lambda ct, x, y: [ct, ct]
transpose_rules[add_p] = _add_transpose
transpose_rules[sub_p] = _sub_transpose
transpose_rules[mul_p] = _mul_transpose
transpose_rules[div_p] = _div_transpose
transpose_rules[neg_p] = lambda ct, x: [lax.neg(ct)]

# ---------------------------------------------------------------- transposes: complex parts


def _zero_scalar(ct: Any) -> Any:
    return np.zeros((), get_aval(ct).dtype)[()]


transpose_rules[real_p] = lambda ct, x: [lax.complex(ct, _zero_scalar(ct))]
transpose_rules[imag_p] = lambda ct, x: [lax.complex(_zero_scalar(ct), lax.neg(ct))]


def _complex_transpose(ct, x, y):
    return [lax.real(ct) if is_undefined(x) else None, lax.imag(lax.neg(ct)) if is_undefined(y) else None]


def _conj_transpose(ct, x, *, input_dtype):
    return [lax.conj(ct) if dtypes.issubdtype(input_dtype, np.complexfloating) else lax.real(ct)]


transpose_rules[complex_p] = _complex_transpose
transpose_rules[conj_p] = _conj_transpose
