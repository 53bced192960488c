"""JVP rules of the lax primitives, written with lax operations so they stage, evaluate and nest.

The terms follow the equations JAX 0.10.2 emits for the same derivatives, so
``make_jaxpr`` of a ``jvp`` prints the same program.
"""

from __future__ import annotations

from jaxle_core import lax
from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import (
    broadcast_to_aval,
    const,
    defbilinear,
    defjvp,
    deflinear,
    deflinear_first,
    defzero,
    full_like,
)
from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax import identity as ident
from jaxle_core.lax import reductions as red
from jaxle_core.lax import slicing as sl
from jaxle_core.lax import structural as st
from jaxle_core.lax.accuracy import AccuracyMode
from jaxle_core.lax.dot import dot_general_p
from jaxle_core.lax.identity import stop_gradient_p
from jaxle_core.lax.ragged_dot import ragged_dot_general_p

# ---------------------------------------------------------------- derivative zero

for _p in (ew.sign_p, ew.floor_p, ew.ceil_p, ew.round_p, ew.is_finite_p, ew.eq_p, ew.ne_p, ew.lt_p, ew.le_p,
           ew.gt_p, ew.ge_p, ew.eq_to_p, ew.le_to_p, ew.lt_to_p, ew.not_p, ew.and_p, ew.or_p, ew.xor_p,
           ew.shift_left_p, ew.shift_right_logical_p, ew.shift_right_arithmetic_p, ew.clz_p, ew.population_count_p,
           ew.mulhi_p, st.iota_p, red.argmax_p, red.argmin_p, red.reduce_and_p, red.reduce_or_p, red.reduce_xor_p,
           st.bitcast_convert_type_p, stop_gradient_p):
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
        if type(tx) is not Zero:
            return ans, broadcast_to_aval(tx, out_aval)
        return ans, broadcast_to_aval(lax.neg(ty) if negate_second else ty, out_aval)

    jvp_rules[primitive] = rule


_add_sub_jvp(ew.add_p, negate_second=False)
_add_sub_jvp(ew.sub_p, negate_second=True)
defjvp(ew.mul_p, lambda t, ans, x, y, *, out_dtype: lax.mul(t, y, out_dtype=out_dtype),
       lambda t, ans, x, y, *, out_dtype: lax.mul(x, t, out_dtype=out_dtype))
defjvp(ew.div_p, lambda t, ans, x, y: lax.div(t, y),
       lambda t, ans, x, y: lax.mul(lax.mul(lax.neg(t), x), lax.integer_pow(y, -2)))


def _rem_divisor_term(t, ans, x, y):
    negated = lax.neg(t)
    return lax.mul(negated, lax.mul(lax.sign(lax.div(x, y)), lax.floor(lax.abs(lax.div(x, y)))))


defjvp(ew.rem_p, lambda t, ans, x, y: t, _rem_divisor_term)
deflinear(ew.neg_p)
deflinear(ew.real_p)
deflinear(ew.imag_p)
deflinear(ew.conj_p)
defjvp(ew.square_p, lambda t, ans, x: lax.mul(t, lax.mul(const(x, 2.0), x)))


def _integer_pow_jvp(primals, tangents, *, y):
    (x,), (t,) = primals, tangents
    ans = ew.integer_pow_p.bind(x, y=y)
    if y == 0:
        return ans, Zero(tangent_aval(get_aval(ans)))
    power = x if y - 1 == 1 else lax.integer_pow(x, y - 1)
    return ans, lax.mul(t, lax.mul(const(x, float(y)), power))


jvp_rules[ew.integer_pow_p] = _integer_pow_jvp


def _pow_base_term(t, ans, x, y):
    exponent = y if get_aval(y).dtype == get_aval(x).dtype else lax.convert_element_type(y, get_aval(x).dtype)
    return lax.mul(t, lax.mul(exponent, lax.pow(x, lax.sub(exponent, const(exponent, 1.0)))))


def _pow_exponent_term(t, ans, x, y):
    safe_x = lax.select_n(lax.eq(x, const(x, 0.0)), x, full_like(x, 1.0))
    return lax.mul(t, lax.mul(lax.log(safe_x), ans))


defjvp(ew.pow_p, _pow_base_term, _pow_exponent_term)


def _chooser_weight(x, other, ans):
    """1 where ``x`` is the chosen value, 1/2 where both are, 0 elsewhere (JAX's balanced tie-breaking)."""
    picked = lax.select_n(lax.eq(x, ans), full_like(ans, 0.0), full_like(ans, 1.0))
    shared = lax.select_n(lax.eq(other, ans), full_like(ans, 1.0), full_like(ans, 2.0))
    return lax.div(picked, shared)


for _p in (ew.max_p, ew.min_p):
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


jvp_rules[ew.abs_p] = _abs_jvp


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


jvp_rules[ew.complex_p] = _complex_jvp

# ---------------------------------------------------------------- transcendental

defjvp(ew.exp_p, lambda t, ans, x, **_: lax.mul(t, ans))
defjvp(ew.exp2_p, lambda t, ans, x, **_: lax.mul(lax.log(const(x, 2.0)), lax.mul(t, ans)))
defjvp(ew.log_p, lambda t, ans, x, **_: lax.div(t, x))
defjvp(ew.log1p_p, lambda t, ans, x, **_: lax.div(t, lax.add(x, const(x, 1.0))))


# With accuracy HIGHEST, JAX differentiates expm1, tanh and logistic through exp/logistic of the operand (computed
# to that accuracy) rather than through the result, which loses precision where the result saturates.
def _expm1_term(t, ans, x, *, accuracy):
    if accuracy is AccuracyMode.HIGHEST:
        return lax.mul(t, lax.exp(x, accuracy=accuracy))
    return lax.mul(t, lax.add(ans, const(ans, 1.0)))


def _tanh_term(t, ans, x, *, accuracy):
    if accuracy is AccuracyMode.HIGHEST:
        rising = lax.logistic(lax.mul(const(x, 2.0), x), accuracy=accuracy)
        falling = lax.logistic(lax.mul(const(x, -2.0), x), accuracy=accuracy)
        return lax.mul(t, lax.mul(const(x, 4.0), lax.mul(rising, falling)))
    return lax.mul(lax.add(t, lax.mul(t, ans)), lax.sub(const(ans, 1.0), ans))


def _logistic_term(t, ans, x, *, accuracy):
    if accuracy is AccuracyMode.HIGHEST:
        return lax.mul(t, lax.mul(ans, lax.logistic(lax.neg(x))))
    return lax.mul(t, lax.mul(ans, lax.sub(const(ans, 1.0), ans)))


defjvp(ew.expm1_p, _expm1_term)
defjvp(ew.tanh_p, _tanh_term)
defjvp(ew.logistic_p, _logistic_term)
# sin's cosine drops the accuracy, as JAX's linearization (grad) does; cos's sine keeps it.
defjvp(ew.sin_p, lambda t, ans, x, **_: lax.mul(t, lax.cos(x)))
defjvp(ew.cos_p, lambda t, ans, x, *, accuracy: lax.neg(lax.mul(t, lax.sin(x, accuracy=accuracy))))
defjvp(ew.tan_p, lambda t, ans, x, **_: lax.mul(t, lax.add(const(ans, 1.0), lax.square(ans))))
defjvp(ew.asin_p, lambda t, ans, x: lax.mul(t, lax.rsqrt(lax.sub(const(x, 1.0), lax.square(x)))))
defjvp(ew.acos_p, lambda t, ans, x: lax.mul(t, lax.neg(lax.rsqrt(lax.sub(const(x, 1.0), lax.square(x))))))
defjvp(ew.atan_p, lambda t, ans, x: lax.div(t, lax.add(const(x, 1.0), lax.square(x))))
defjvp(ew.sinh_p, lambda t, ans, x: lax.mul(t, lax.cosh(x)))
defjvp(ew.cosh_p, lambda t, ans, x: lax.mul(t, lax.sinh(x)))
defjvp(ew.asinh_p, lambda t, ans, x: lax.mul(t, lax.rsqrt(lax.add(lax.square(x), const(x, 1.0)))))
defjvp(ew.acosh_p, lambda t, ans, x: lax.mul(t, lax.rsqrt(lax.sub(lax.square(x), const(x, 1.0)))))
defjvp(ew.atanh_p, lambda t, ans, x: lax.mul(lax.integer_pow(lax.add(const(x, 1.0), x), -1),
                                            lax.div(t, lax.sub(const(x, 1.0), x))))
defjvp(ew.sqrt_p, lambda t, ans, x, **_: lax.mul(t, lax.div(const(ans, 0.5), ans)))
defjvp(ew.rsqrt_p, lambda t, ans, x, **_: lax.mul(t, lax.mul(const(ans, -0.5), lax.div(ans, x))))
defjvp(ew.cbrt_p, lambda t, ans, x, **_: lax.mul(t, lax.mul(const(ans, 1 / 3), lax.integer_pow(ans, -2))))


def _atan2_term(numerator_sign: int):
    def term(t, ans, x, y):
        numerator = y if numerator_sign > 0 else lax.neg(x)
        return lax.mul(t, lax.div(numerator, lax.add(lax.square(x), lax.square(y))))

    return term


defjvp(ew.atan2_p, _atan2_term(1), _atan2_term(-1))

# ---------------------------------------------------------------- structure and data movement

for _p in (st.broadcast_in_dim_p, st.reshape_p, st.squeeze_p, st.transpose_p, st.rev_p, sl.slice_p,
           red.reduce_sum_p, st.reduce_precision_p, ident.copy_p, st.split_p, st.unstack_p, st.tile_p):
    deflinear(_p)
deflinear(st.concatenate_p, instantiate_zeros=True)
deflinear(st.stack_p, instantiate_zeros=True)
deflinear(st.pad_p, instantiate_zeros=True)
deflinear_first(sl.dynamic_slice_p, 1)
deflinear_first(sl.dynamic_update_slice_p, 2)


def _convert_element_type_jvp(primals, tangents, **params):
    (x,), (t,) = primals, tangents
    ans = st.convert_element_type_p.bind(x, **params)
    out_aval = tangent_aval(get_aval(ans))
    if out_aval.dtype != get_aval(ans).dtype:
        return ans, Zero(out_aval)
    return ans, st.convert_element_type_p.bind(t, **params)


jvp_rules[st.convert_element_type_p] = _convert_element_type_jvp


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    ans = st.select_n_p.bind(which, *cases)
    case_tangents = tangents[1:]
    if all(type(t) is Zero for t in case_tangents):
        return ans, Zero(tangent_aval(get_aval(ans)))
    return ans, st.select_n_p.bind(which, *[instantiate(t) for t in case_tangents])


jvp_rules[st.select_n_p] = _select_n_jvp


def _clamp_jvp(primals, tangents):
    lo, x, hi = primals
    ans = st.clamp_p.bind(lo, x, hi)
    out_aval = get_aval(ans)
    zeros = full_like(ans, 0.0)
    total = Zero(tangent_aval(out_aval))
    t_lo, t_x, t_hi = (t if type(t) is Zero else broadcast_to_aval(t, out_aval) for t in tangents)
    if type(t_lo) is not Zero:
        total = add_tangents(total, lax.select_n(lax.lt(x, lo), zeros, t_lo))
    if type(t_x) is not Zero:
        inside = lax.bitwise_and(lax.gt(x, lo), lax.lt(x, hi))
        total = add_tangents(total, lax.select_n(inside, zeros, t_x))
    if type(t_hi) is not Zero:
        total = add_tangents(total, lax.select_n(lax.lt(hi, x), zeros, t_hi))
    return ans, total


jvp_rules[st.clamp_p] = _clamp_jvp


def _chooser_reduction_jvp(primitive):
    """reduce_max/min: the tangent averaged over the positions that attain the extremum."""

    def rule(primals, tangents, *, axes, **params):
        (x,), (t,) = primals, tangents
        ans = primitive.bind(x, axes=axes, **params)
        shape = get_aval(x).shape
        kept_dims = lax.reshape(ans, tuple(1 if i in axes else d for i, d in enumerate(shape)))
        where = lax.convert_element_type(lax.eq(x, kept_dims), get_aval(t).dtype)
        counts = lax.reduce_sum(where, axes)
        return ans, lax.div(lax.reduce_sum(lax.mul(t, where), axes), counts)

    return rule


jvp_rules[red.reduce_max_p] = _chooser_reduction_jvp(red.reduce_max_p)
jvp_rules[red.reduce_min_p] = _chooser_reduction_jvp(red.reduce_min_p)


defbilinear(dot_general_p)


def _ragged_dot_general_jvp(primals, tangents, **params):
    """Bilinear in lhs and rhs; unlike dot_general's, JAX's rule fills a missing term with zeros and adds with
    ``add``."""
    lhs, rhs, group_sizes = primals
    t_lhs, t_rhs, _ = tangents
    ans = ragged_dot_general_p.bind(lhs, rhs, group_sizes, **params)
    if type(t_lhs) is Zero and type(t_rhs) is Zero:
        return ans, Zero(tangent_aval(get_aval(ans)))
    lhs_term = full_like(ans, 0) if type(t_lhs) is Zero else ragged_dot_general_p.bind(t_lhs, rhs, group_sizes,
                                                                                        **params)
    rhs_term = full_like(ans, 0) if type(t_rhs) is Zero else ragged_dot_general_p.bind(lhs, t_rhs, group_sizes,
                                                                                        **params)
    return ans, lax.add(lhs_term, rhs_term)


jvp_rules[ragged_dot_general_p] = _ragged_dot_general_jvp
