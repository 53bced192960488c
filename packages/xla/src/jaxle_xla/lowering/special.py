"""Lowering of the special functions (lax/special.py).

erf, erfc, erf_inv, lgamma, digamma, polygamma, zeta and bessel_i1e are CHLO ops, which XLA expands itself (as
JAX lowers them). The others have no op; they are computed here from their series, continued fractions and
asymptotic expansions:

- ``bessel_i0e``: staged as lax operations, as JAX 0.10.2 lowers it (the same text and bits): Cephes' Chebyshev
  series of exp(-x) I0(x) on [0, 8] and of exp(-x) I0(x) sqrt(x) beyond, summed by Clenshaw's recurrence.
- ``igamma``, ``igammac``, ``igamma_grad_a``: staged as JAX lowers them, in incomplete_gamma.py.
- ``regularized_incomplete_beta``: the continued fraction of I_x(a, b), or of 1 - I_{1-x}(b, a) past the mean.

The prefactor x^a (1-x)^b / (a B(a, b)) is written with the Stirling series and
log1p(u) - u so that the large, nearly cancelling terms of its logarithm never meet in floating point.
float16 and bfloat16 are computed in float32.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partialmethod
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax.creation import full_like
from jaxle_core.lax.special import (
    bessel_i0e_p,
    bessel_i1e_p,
    digamma_p,
    erf_inv_p,
    erf_p,
    erfc_p,
    lgamma_p,
    polygamma_p,
    regularized_incomplete_beta_p,
    zeta_p,
)
from jaxle_core.lax.structural import convert_element_type, select_n
from jaxle_xla.lowering.context import LoweringContext, Value, comparison_type, i64_array
from jaxle_xla.lowering.module import elementwise_op, register_lowering

for _primitive, _op in [
    (erf_p, "chlo.erf"), (erfc_p, "chlo.erfc"), (erf_inv_p, "chlo.erf_inv"),
    (lgamma_p, "chlo.lgamma"), (digamma_p, "chlo.digamma"),
    (polygamma_p, "chlo.polygamma"), (zeta_p, "chlo.zeta"), (bessel_i1e_p, "chlo.bessel_i1e"),
]:
    elementwise_op(_primitive, _op)


# ---------------------------------------------------------------- formulas that emit ops


class _Tensor:
    """A value being computed, whose arithmetic operators emit elementwise StableHLO ops into its context.

    The other operand of an operator may be a Python number (a constant of this value's shape and dtype).
    """

    __slots__ = ("ctx", "value")

    def __init__(self, ctx: LoweringContext, value: Value):
        self.ctx = ctx
        self.value = value

    @property
    def aval(self) -> ShapedArray:
        return self.value.aval

    def like(self, constant: float | bool) -> _Tensor:
        """``constant`` with this value's shape (and dtype, unless it is a bool)."""
        dtype = np.bool_ if isinstance(constant, bool) else self.aval.dtype
        # A scalar broadcast rather than a constant of the full shape, which XLA would materialize.
        return _Tensor(self.ctx, self.ctx.broadcast_to(self.ctx.constant(constant, dtype), self.aval.shape))

    def apply(self, op: str, *others: _Tensor | float, dtype: np.dtype | None = None,
              attributes: dict[str, str] | None = None) -> _Tensor:
        operands = [self.value] + [o.value if isinstance(o, _Tensor) else self.like(o).value for o in others]
        aval = self.aval if dtype is None else self.aval.update(dtype=dtype)
        return _Tensor(self.ctx, self.ctx.op1(op, operands, aval, attributes))

    def _compare(self, direction: str, other: _Tensor | float) -> _Tensor:
        return self.apply("stablehlo.compare", other, dtype=np.dtype(np.bool_), attributes={
            "comparison_direction": f"#stablehlo<comparison_direction {direction}>",
            "compare_type": f"#stablehlo<comparison_type {comparison_type(self.aval.dtype)}>"})

    __add__ = __radd__ = partialmethod(apply, "stablehlo.add")
    __mul__ = __rmul__ = partialmethod(apply, "stablehlo.multiply")
    __sub__ = partialmethod(apply, "stablehlo.subtract")
    __truediv__ = partialmethod(apply, "stablehlo.divide")
    __neg__ = partialmethod(apply, "stablehlo.negate")
    __and__ = partialmethod(apply, "stablehlo.and")
    __or__ = partialmethod(apply, "stablehlo.or")
    __invert__ = partialmethod(apply, "stablehlo.not")
    __lt__ = partialmethod(_compare, "LT")
    __le__ = partialmethod(_compare, "LE")
    __gt__ = partialmethod(_compare, "GT")
    __ge__ = partialmethod(_compare, "GE")
    __eq__ = partialmethod(_compare, "EQ")  # type: ignore[assignment]
    __ne__ = partialmethod(_compare, "NE")  # type: ignore[assignment]
    __hash__ = None  # type: ignore[assignment]

    def __rsub__(self, other: float) -> _Tensor:
        return self.like(other) - self

    def __rtruediv__(self, other: float) -> _Tensor:
        return self.like(other) / self


def _unary(op: str) -> Callable[[_Tensor], _Tensor]:
    return lambda x: x.apply(op)


_abs, _exp, _log = map(_unary, ["stablehlo.abs", "stablehlo.exponential", "stablehlo.log"])
_lgamma = _unary("chlo.lgamma")


def _is_finite(x: _Tensor) -> _Tensor:
    return x.apply("stablehlo.is_finite", dtype=np.dtype(np.bool_))


def _where(condition: _Tensor, on_true: _Tensor | float, on_false: _Tensor | float) -> _Tensor:
    """``on_true`` where ``condition`` holds, else ``on_false`` (at least one of them a tensor)."""
    like = on_true if isinstance(on_true, _Tensor) else on_false
    assert isinstance(like, _Tensor)
    operands = [v.value if isinstance(v, _Tensor) else like.like(v).value for v in (on_true, on_false)]
    return _Tensor(condition.ctx, condition.ctx.op1("stablehlo.select", [condition.value, *operands], like.aval))


def _horner(x: _Tensor, coefficients: Sequence[float]) -> _Tensor:
    """c0 + c1 x + c2 x^2 + ... for ``coefficients`` c0, c1, c2, ..."""
    result = x.like(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        result = result * x + c
    return result


def _any(flags: _Tensor) -> Value:
    """A scalar i1: whether any element of ``flags`` is true."""
    ctx, scalar = flags.ctx, ShapedArray((), np.bool_)
    if not flags.aval.shape:
        return flags.value
    combine = ctx.region([scalar, scalar], lambda inner, args: [inner.op1("stablehlo.or", args, scalar)])
    return ctx.op1("stablehlo.reduce", [flags.value, ctx.constant(False, np.bool_)], scalar,
                   {"dimensions": i64_array(range(flags.aval.ndim))}, [combine])


Step = Callable[[_Tensor, list[_Tensor], list[_Tensor]], tuple[list[_Tensor], _Tensor]]
# A bound on the steps of every loop, well above what any input needs (< 2000: the incomplete beta function with
# b < 1 near x = 1), so that an element that never converges cannot hold the loop forever.
_MAX_STEPS = 5000


def _iterate(invariants: list[_Tensor], state: list[_Tensor], step: Step) -> list[_Tensor]:
    """``state`` after ``step(n, invariants, state) -> (state, converged)`` for n = 1, 2, ... in a while loop.

    The loop runs until every element has converged or for ``_MAX_STEPS``; an element's state stops changing once
    it has converged, so each element's result does not depend on the others.
    """
    ctx = state[0].ctx
    carried = [state[0].like(0.0), state[0].like(True), *invariants, *state]
    avals = [t.aval for t in carried]

    def wrap(inner: LoweringContext, args: list[Value]) -> tuple[_Tensor, _Tensor, list[_Tensor], list[_Tensor]]:
        n, active, *rest = (_Tensor(inner, a) for a in args)
        return n, active, rest[:len(invariants)], rest[len(invariants):]

    def cond(inner: LoweringContext, args: list[Value]) -> list[Value]:
        n, active, _, _ = wrap(inner, args)
        return [_any(active & (n < float(_MAX_STEPS)))]

    def body(inner: LoweringContext, args: list[Value]) -> list[Value]:
        n, active, inv, old = wrap(inner, args)
        n = n + 1.0
        new, converged = step(n, inv, old)
        new = [_where(active, v, o) for v, o in zip(new, old)]
        return [t.value for t in [n, active & ~converged, *inv, *new]]

    outs = ctx.op("stablehlo.while", [t.value for t in carried], avals,
                  regions=[ctx.region(avals, cond), ctx.region(avals, body)])
    return [_Tensor(ctx, v) for v in outs[2 + len(invariants):]]


def _computed(primitive) -> Callable[[Callable[..., _Tensor]], Callable[..., _Tensor]]:
    """Register ``formula(*operands)`` as the lowering of ``primitive``, computing float16 and bfloat16 in float32."""

    def register(formula: Callable[..., _Tensor]) -> Callable[..., _Tensor]:
        @register_lowering(primitive)
        def rule(ctx: LoweringContext, *operands: Value) -> Value:
            out = ctx.avals_out[0]
            compute = out.update(dtype=np.float32, weak_type=False) if out.dtype.itemsize < 4 else out
            args = [_convert(ctx, ctx.broadcast_to(v, out.shape), compute) for v in operands]
            return _convert(ctx, formula(*(_Tensor(ctx, a) for a in args)).value, out)

        return formula

    return register


def _convert(ctx: LoweringContext, value: Value, aval: ShapedArray) -> Value:
    if value.aval.dtype == aval.dtype:
        return value
    return ctx.op1("stablehlo.convert", [value], aval)


def _eps(x: _Tensor) -> float:
    return float(np.finfo(x.aval.dtype).eps)


def _is_double(x: _Tensor) -> bool:
    return x.aval.dtype == np.float64


# ---------------------------------------------------------------- pieces of the beta function

_HALF_LOG_TWO_PI = 0.5 * math.log(2 * math.pi)
_EULER_GAMMA = 0.5772156649015329
# B_2k / (2k (2k - 1)): lgamma(z) = (z - 1/2) log z - z + log(2 pi) / 2 + sum_k c_k / z^(2k - 1).
_STIRLING = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156]
# zeta(k) - 1 for k = 2, 3, ...: lgamma(1 + a) = -gamma a + sum_k (-1)^k zeta(k) a^k / k.
_ZETA_MINUS_ONE = [
    0.6449340668482264, 0.2020569031595943, 0.08232323371113819, 0.03692775514336993, 0.01734306198444914,
    0.008349277381922827, 0.00407735619794434, 0.0020083928260822143, 0.0009945751278180853, 0.0004941886041194645,
    0.0002460865533080483, 0.00012271334757848915, 6.124813505870483e-05, 3.058823630702049e-05,
    1.528225940865187e-05, 7.637197637899763e-06, 3.81729326499984e-06, 1.908212716553939e-06,
    9.539620338727962e-07, 4.769329867878064e-07, 2.38450502727733e-07, 1.1921992596531106e-07,
    5.960818905125948e-08, 2.980350351465228e-08]


def _stirling_from(x: _Tensor) -> float:
    """Where the Stirling series (7 terms) is used: its error there is below 1e-17 (float64), 1e-8 (float32)."""
    return 10.0 if _is_double(x) else 3.0


def _clamp_below(x: _Tensor, low: float) -> _Tensor:
    """``x`` where ``x >= low``, else ``low`` (so a formula valid from ``low`` on can be evaluated everywhere)."""
    return _where(x < low, low, x)


def _log1pmx(u: _Tensor) -> _Tensor:
    """log(1 + u) - u for -1/2 < u < 1, where the two terms may nearly cancel."""
    # With z = u / (2 + u): log(1 + u) = 2 (z + z^3/3 + z^5/5 + ...) and 2z - u = -u z; here |z| <= 1/3.
    z = u / (u + 2.0)
    z2 = z * z
    terms = 17 if _is_double(u) else 8
    return 2.0 * z * z2 * _horner(z2, [1 / (2 * k + 3) for k in range(terms)]) - u * z


def _weighted_log1pmx(w: _Tensor, u: _Tensor, log_one_plus_u: _Tensor, wu: _Tensor) -> _Tensor:
    """w (log(1 + u) - u), given log(1 + u) and w u as the caller computes them best (u may overflow)."""
    return _where((u > -0.5) & (u < 1.0), w * _log1pmx(u), w * log_one_plus_u - wu)


def _log_ratio(x: _Tensor, y: _Tensor) -> _Tensor:
    """log(x / y), also where x / y overflows or underflows."""
    ratio = x / y
    in_range = (ratio >= float(np.finfo(x.aval.dtype).tiny)) & _is_finite(ratio)
    return _where(in_range, _log(ratio), _log(x) - _log(y))


def _stirling_deficit(z: _Tensor) -> _Tensor:
    """z log z - z - lgamma(z + 1) + log(2 pi)/2: small for every z > 0, from the Stirling series for large z.

    It is what the logarithms of the incomplete gamma and beta prefactors need of lgamma once their large terms
    z log z - z have been cancelled analytically.
    """
    large = _clamp_below(z, _stirling_from(z))
    r = 1.0 / large
    series = -0.5 * _log(large) - r * _horner(r * r, _STIRLING)
    direct = z * _log(z) - z - _lgamma1p(z) + _HALF_LOG_TWO_PI
    return _where(z < _stirling_from(z), direct, series)


def _lgamma1p(a: _Tensor) -> _Tensor:
    """lgamma(1 + a) for a >= 0, with relative accuracy as a -> 0.

    From the Taylor series at 0 for small a; in float32 also up to a = 3 (through lgamma(1 + a) = log(a) +
    lgamma(a)), where XLA's float32 lgamma is only good to ~1e-6 absolutely around its zeros at 1 and 2.
    """
    series_to, terms = (0.2, 16) if _is_double(a) else (1.0, 24)
    reduce_to = 0.2 if _is_double(a) else 3.0
    shift = _where(a < series_to, 0.0, _where(a < 2.0, a.like(1.0), 2.0))
    w = _where(a < reduce_to, a - shift, 0.0)
    logs = _where(shift > 0.0, _log(a), 0.0) + _where(shift > 1.0, _log(a - 1.0), 0.0)
    # -gamma w + (w - log(1 + w)) + sum_k (-1)^k (zeta(k) - 1) w^k / k, whose terms fall like (w/2)^k.
    tail = _horner(-w, [c / (k + 2) for k, c in enumerate(_ZETA_MINUS_ONE[:terms])])
    series = logs + w * (w * tail - _EULER_GAMMA) - _log1pmx(w)
    return _where(a < reduce_to, series, _lgamma(a + 1.0))


def _fraction_start(b0: _Tensor) -> list[_Tensor]:
    """The state of ``_fraction_step`` for 1 / (b0 + ...)."""
    r = 1.0 / b0
    return [r, r, r]


def _fraction_step(old: list[_Tensor], a_n: _Tensor, b_n: _Tensor) -> tuple[list[_Tensor], _Tensor]:
    """One more term of F = 1 / (b0 + a1/(b1 + a2/(b2 + ...))), summed as F = sum_n delta_n.

    With A_n the numerators of the convergents, r_n = A_n-1 / A_n = 1 / (b_n + a_n r_n-1) and
    delta_n = -a_n r_n-1 r_n delta_n-1 (Steed's method): the terms, not differences of nearly equal convergents,
    decide convergence. The state is (r, delta, F).
    """
    eps = _eps(b_n)
    r, delta, total = old
    new_r = 1.0 / (b_n + a_n * r)
    new_delta = -a_n * r * new_r * delta
    new_total = total + new_delta
    return [new_r, new_delta, new_total], _abs(new_delta) <= eps * _abs(new_total)


# ---------------------------------------------------------------- Bessel


# Cephes' Chebyshev coefficients of exp(-x) I0(x) in x/2 - 2 on [0, 8] (A) and of exp(-x) I0(x) sqrt(x) in
# 32/x - 2 on (8, inf) (B): its float tables for float32, its double tables for float64.
_I0E_A = {
    np.dtype(np.float32): [
        -1.30002498e-8, 6.04699508e-8, -2.67079372e-7, 1.11738757e-6, -4.41673819e-6, 1.64484482e-5,
        -5.75419508e-5, 1.88502891e-4, -5.76375576e-4, 0.00163947558, -4.324310e-03, 0.0105464607,
        -0.0237374157, 0.0493052825, -9.490110e-02, 0.171620905, -0.304682672, 0.676795303],
    np.dtype(np.float64): [
        -4.4153416464793395e-18, 3.3307945188222384e-17, -2.4312798465479549e-16, 1.7153912855551331e-15,
        -1.1685332877993451e-14, 7.6761854986049361e-14, -4.856446783111929e-13, 2.9550526631296399e-12,
        -1.7268262914415559e-11, 9.6758090353732369e-11, -5.1897956016352627e-10, 2.6598237246823866e-9,
        -1.300025009986248e-8, 6.0469950225419186e-8, -2.6707938539406119e-7, 1.1173875391201037e-6,
        -4.4167383584587505e-6, 1.6448448070728896e-5, -5.754195010082104e-5, 1.8850288509584165e-4,
        -5.7637557453858236e-4, 0.0016394756169413357, -0.0043243099950505759, 0.010546460394594998,
        -0.023737414805899471, 0.049305284239670712, -0.094901097048047639, 0.17162090152220877,
        -0.3046826723431984, 0.67679527440947607],
}
_I0E_B = {
    np.dtype(np.float32): [
        3.39623196e-9, 2.26666899e-8, 2.04891862e-7, 2.89137051e-6, 6.88975852e-5, 0.00336911646, 0.804490387],
    np.dtype(np.float64): [
        -7.2331804878747538e-18, -4.8305044859441819e-18, 4.4656214202967598e-17, 3.4612228676974612e-17,
        -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
        -9.5548466988283073e-15, -4.1505693472872222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
        1.1889147107846439e-11, 4.9406023882249701e-10, 3.3962320257083865e-9, 2.266668990498178e-8,
        2.0489185894690638e-7, 2.8913705208347567e-6, 6.8897583469168245e-5, 0.0033691164782556943,
        0.80449041101410879],
}


def _literal(x: Any, value: float) -> Any:
    """``value`` as a scalar of ``x``'s dtype (a literal in the jaxpr)."""
    return np.asarray(value, get_aval(x).dtype)[()]


def _chebyshev(t: Any, coefficients: Sequence[float]) -> Any:
    """Clenshaw's sum b0 - b2 of the Chebyshev series with ``coefficients`` (highest degree first) at t / 2,
    halved."""
    b0, b1, b2 = full_like(t, 0.0), full_like(t, 0.0), full_like(t, 0.0)
    for c in coefficients:
        b0, b1, b2 = ew.add(ew.sub(ew.mul(t, b0), b1), _literal(t, c)), b0, b1
    return ew.mul(_literal(t, 0.5), ew.sub(b0, b2))


def _staged_bessel_i0e(x: Any) -> Any:
    """exp(-|x|) I0(x) staged as lax operations, as JAX 0.10.2 lowers it (16-bit floats computed in float32)."""
    dtype = get_aval(x).dtype
    if dtype.itemsize < 4:
        x = convert_element_type(x, np.float32)
    compute = get_aval(x).dtype
    x = ew.abs(x)
    half, two, thirty_two = full_like(x, 0.5), full_like(x, 2.0), full_like(x, 32.0)
    small = _chebyshev(ew.sub(ew.mul(half, x), two), _I0E_A[compute])
    large = ew.div(_chebyshev(ew.sub(ew.div(thirty_two, x), two), _I0E_B[compute]), ew.sqrt(x))
    out = select_n(ew.le(x, _literal(x, 8.0)), large, small)
    return convert_element_type(out, dtype) if dtype != compute else out


@register_lowering(bessel_i0e_p)
def _bessel_i0e(ctx: LoweringContext, x: Value) -> Value:
    return ctx.lower_fun(_staged_bessel_i0e, x, reuse=True)[0]


# ---------------------------------------------------------------- incomplete beta


def _beta_fraction(a: _Tensor, b: _Tensor, x: _Tensor) -> _Tensor:
    """F with I_x(a, b) = F x^a (1-x)^b / (a B(a, b)): 1 / (1 + d1 / (1 + d2 / (1 + ...))), where
    d_2m+1 = -(a+m)(a+b+m) x / ((a+2m)(a+2m+1)) and d_2m = m (b-m) x / ((a+2m-1)(a+2m)), two terms a step."""

    def step(m: _Tensor, inv: list[_Tensor], old: list[_Tensor]) -> tuple[list[_Tensor], _Tensor]:
        a, b, x = inv
        one = m.like(1.0)
        k = m - 1.0
        odd = -(a + k) * (a + b + k) * x / ((a + k * 2.0) * (a + k * 2.0 + 1.0))
        even = m * (b - m) * x / ((a + m * 2.0 - 1.0) * (a + m * 2.0))
        return _fraction_step(_fraction_step(old, odd, one)[0], even, one)

    return _iterate([a, b, x], _fraction_start(a.like(1.0)), step)[2]


@_computed(regularized_incomplete_beta_p)
def _betainc(a: _Tensor, b: _Tensor, x: _Tensor) -> _Tensor:
    inf = math.inf
    valid = ((a >= 0.0) & (b >= 0.0) & (x >= 0.0) & (x <= 1.0) & ~((a == 0.0) & (b == 0.0))
             & ~((a == inf) & (b == inf)))
    zero = (x == 0.0) | (((a == inf) | (b == 0.0)) & (x < 1.0))
    one = (x == 1.0) | (((a == 0.0) | (b == inf)) & (x > 0.0))
    interior = valid & ~zero & ~one
    a, b, x = _where(interior, a, 1.0), _where(interior, b, 1.0), _where(interior, x, 0.5)
    y = 1.0 - x
    # x^a y^b / B(a, b) = exp(log_scale) a b / (a + b), written with p = a/(a+b), q = b/(a+b) and
    # t = (a+b)(x - p) = b x - a y: a log(x/p) + b log(y/q) is a log1pmx(t/a) + b log1pmx(-t/b), and
    # lgamma(a+b) - lgamma(a) - lgamma(b) goes through the Stirling series.
    t, p, q = b * x - a * y, a / (a + b), b / (a + b)
    log_scale = (_weighted_log1pmx(a, t / a, _log_ratio(x, p), t) + _weighted_log1pmx(b, -t / b, _log_ratio(y, q), -t)
                 + _stirling_deficit(a) + _stirling_deficit(b) - _stirling_deficit(a + b) - _HALF_LOG_TWO_PI)
    scale = _exp(log_scale)
    # I_x(a, b) = q scale F(a, b, x) with F the continued fraction, which converges slowly past the mean: there
    # I_x(a, b) = 1 - J, J = p scale F(b, a, 1 - x), instead. Unless J is close to 1 (I_x(a, b) < ~0.1, which
    # needs b < 1), where 1 - J would lose I_x(a, b) to cancellation while F(a, b, x) still converges in < 2000
    # steps up to x = 1 - 1e-4; J is estimated from the first convergent of F(b, a, 1 - x).
    estimate = p * scale / (1.0 - (a + b) * y / (b + 1.0))
    flip = (x > (a + 1.0) / (a + b + 2.0)) & ((b >= 1.0) | (x > 0.9999) | (estimate < 0.9))
    fraction = _beta_fraction(_where(flip, b, a), _where(flip, a, b), _where(flip, y, x))
    value = _where(flip, 1.0 - p * (scale * fraction), q * (scale * fraction))
    value = _where(value < 0.0, 0.0, value)  # 1 - p scale F, where I_x(a, b) is below its rounding error
    return _where(valid, _where(zero, 0.0, _where(one, 1.0, value)), math.nan)
