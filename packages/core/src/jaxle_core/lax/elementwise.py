"""Elementwise primitives: arithmetic, math functions, comparisons and bitwise ops.

Each primitive pairs a dtype/shape rule (from ``standard``) with a NumPy
reference implementation; the public ``lax`` function binds it. The reference
follows XLA on CPU: 16-bit floats are computed in float32 and rounded back,
integer arithmetic wraps, and division, remainders and shifts use XLA's rules
for the cases C leaves undefined.
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.accuracy import check_accuracy
from jaxle_core.lax.standard import (
    BOOL,
    COMPLEX,
    FLOATING,
    INEXACT,
    INTEGER,
    NUMBER,
    SIGNED,
    broadcast_shapes,
    check_dtype,
    elementwise_aval,
    elementwise_primitive,
)
from jaxle_core.pretty import pp_eqn_rules, pp_hiding_none

__all__ = [
    "RoundingMethod", "abs", "abs_p", "acos", "acos_p", "acosh", "acosh_p", "add", "add_p", "and_p", "asin", "asin_p",
    "asinh", "asinh_p", "atan", "atan2", "atan2_p", "atan_p", "atanh", "atanh_p", "bitwise_and", "bitwise_not",
    "bitwise_or", "bitwise_xor", "cbrt", "cbrt_p", "ceil", "ceil_p", "clz", "clz_p", "complex", "complex_p", "conj",
    "conj_p", "cos", "cos_p", "cosh", "cosh_p", "div", "div_p", "eq", "eq_p", "eq_to_p", "exp", "exp2", "exp2_p",
    "exp_p", "expm1", "expm1_p", "floor", "floor_p", "ge", "ge_p", "gt", "gt_p", "imag", "imag_p", "integer_pow",
    "integer_pow_p", "is_finite", "is_finite_p", "le", "le_p", "le_to_p", "log", "log1p", "log1p_p", "log_p",
    "logistic", "logistic_p", "lt", "lt_p", "lt_to_p", "max", "max_p", "min", "min_p", "mul", "mul_p", "mulhi",
    "mulhi_p", "ne", "ne_p", "neg", "neg_p", "nextafter", "nextafter_p", "not_p", "or_p", "population_count",
    "population_count_p", "pow", "pow_p", "real", "real_p", "reciprocal", "rem", "rem_p", "round", "round_p", "rsqrt",
    "rsqrt_p", "shift_left", "shift_left_p", "shift_right_arithmetic", "shift_right_arithmetic_p",
    "shift_right_logical", "shift_right_logical_p", "sign", "sign_p", "sin", "sin_p", "sinh", "sinh_p", "sqrt",
    "sqrt_p", "square", "square_p", "sub", "sub_p", "tan", "tan_p", "tanh", "tanh_p", "xor_p",
]

# Dtype categories as JAX's error messages list them for these primitives.
_FLOAT32 = ("float32", lambda d: d == np.float32)
_FLOAT64 = ("float64", lambda d: d == np.float64)
_BITWISE = (INTEGER, BOOL)
_ORDERED = (INTEGER, FLOATING, BOOL)
_ANY = (INTEGER, FLOATING, COMPLEX, BOOL)


class RoundingMethod(enum.IntEnum):
    """How ``lax.round`` breaks ties."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def float_semantics(fn: Callable, keeps_denormals: bool = False) -> Callable:
    """``fn`` on NumPy arrays with XLA's CPU float behaviour.

    16-bit floats are computed in float32 and rounded back, and denormal operands
    and results of float32/float64 computations are flushed to (signed) zero;
    ``keeps_denormals`` says ``fn(x) == x`` for denormal ``x`` instead (XLA's
    small-argument shortcut for sin, tanh and the like).
    """

    def impl(*args, **_params):
        dtype = args[0].dtype
        narrow = dtypes.issubdtype(dtype, np.floating) and dtype.itemsize < 4
        with np.errstate(all="ignore"):
            wide = [a.astype(np.float32) if narrow else a for a in args]
            out = _flush_denormals(np.asarray(fn(*[_flush_denormals(a) for a in wide])))
            if keeps_denormals and out.dtype.kind == "f":
                out = np.where(_flush_denormals(wide[0]) != wide[0], wide[0], out)
            return out.astype(dtype) if narrow else out

    return impl


def _flush_denormals(x: np.ndarray) -> np.ndarray:
    if x.dtype.kind == "c":
        return _complex_impl(_flush_denormals(x.real), _flush_denormals(x.imag))
    if x.dtype.kind != "f" or x.dtype.itemsize < 4:
        return x
    return np.where(np.abs(x) < np.finfo(x.dtype).tiny, np.copysign(np.zeros((), x.dtype), x), x)


def _unsigned(dtype: np.dtype) -> np.dtype:
    return np.dtype(f"uint{dtype.itemsize * 8}")


def _primitive(name: str, impl: Callable, accepted, out_dtype: Callable | None = None) -> Primitive:
    """An elementwise primitive whose reference ``impl`` runs with NumPy's floating point warnings silenced."""

    def quiet_impl(*args, **params):
        with np.errstate(all="ignore"):
            return impl(*args, **params)

    return elementwise_primitive(name, quiet_impl, accepted, out_dtype)


# ---------------------------------------------------------------- arithmetic


def _div_impl(x, y):
    """Integer division rounds toward zero; x/0 is -1 (signed) or all ones (unsigned), as in XLA."""
    if not np.issubdtype(x.dtype, np.integer):
        return float_semantics(np.true_divide)(x, y)
    udtype = _unsigned(x.dtype)
    with np.errstate(all="ignore"):
        magnitude = np.abs(x).view(udtype) // np.where(y == 0, 1, np.abs(y)).view(udtype)
        negative = (x < 0) != (y < 0)
        q = np.where(negative, -magnitude, magnitude).view(x.dtype)
    return np.where(y == 0, np.array(-1).astype(x.dtype), q)


def _rem_impl(x, y):
    """Remainder with the sign of the dividend; x % 0 is x for integers."""
    if not np.issubdtype(x.dtype, np.integer):
        return float_semantics(np.fmod)(x, y)
    with np.errstate(all="ignore"):
        return np.where(y == 0, x, x - _div_impl(x, y) * y)


def _sign_impl(x):
    if np.issubdtype(x.dtype, np.complexfloating):
        with np.errstate(all="ignore"):
            magnitude = np.abs(x)
            return np.where(magnitude == 0, x, x / magnitude)
    if np.issubdtype(x.dtype, np.unsignedinteger):
        return (x != 0).astype(x.dtype)
    return np.where(x == 0, x, np.sign(x))  # keeps -0.0


def _round_impl(x, *, rounding_method):
    if rounding_method == RoundingMethod.TO_NEAREST_EVEN:
        return np.rint(x)
    return float_semantics(_round_half_away_from_zero)(x)


def _round_half_away_from_zero(x):
    truncated = np.trunc(x)
    return np.where(np.abs(x - truncated) >= 0.5, truncated + np.sign(x), truncated)


def _integer_pow_impl(x, *, y):
    """``x ** y`` by repeated squaring in ``x``'s dtype (integers wrap)."""
    if y == 0:
        return np.ones_like(x)
    with np.errstate(all="ignore"):
        result, base, n = None, x, -y if y < 0 else y
        while n:
            if n & 1:
                result = base if result is None else _mul_same(result, base)
            n >>= 1
            if n:
                base = _mul_same(base, base)
        return float_semantics(np.true_divide)(np.ones_like(result), result) if y < 0 else result


def _extremum(numpy_fn: Callable, beats: Callable, negative_zero_wins: bool) -> Callable:
    """Elementwise max/min: NaN wins and -0.0 < 0.0; complex numbers compare lexicographically and a NaN
    part does not win."""

    def impl(x, y):
        if np.issubdtype(x.dtype, np.complexfloating):
            wins = beats(x.real, y.real) | ((x.real == y.real) & beats(x.imag, y.imag))
            return np.where(wins, x, y)
        out = numpy_fn(x, y)
        if not dtypes.issubdtype(x.dtype, np.inexact):
            return out
        x_wins = np.signbit(x) == negative_zero_wins
        return np.where((x == 0) & (y == 0), np.where(x_wins, x, y), out)

    return impl


def _mul_same(x, y):
    return float_semantics(np.multiply)(x, y)


def _pow_impl(x, y):
    if y.dtype != x.dtype:
        y = y.astype(x.dtype)  # XLA converts an integer exponent to the base's dtype
    if np.issubdtype(x.dtype, np.complexfloating):
        # 0 ** y is undefined (NaN) in XLA unless y is real and not negative.
        return np.where((x == 0) & (y.imag != 0), np.array(complex(np.nan, np.nan), x.dtype), np.power(x, y))
    return np.power(x, y)


def _mul_impl(x, y, *, out_dtype):
    if out_dtype is not None:
        dtype = dtypes.canonicalize_dtype(dtypes.dtype(out_dtype))
        x, y = x.astype(dtype), y.astype(dtype)
    return _mul_same(x, y)


add_p = _primitive("add", float_semantics(np.add), NUMBER)
sub_p = _primitive("sub", float_semantics(np.subtract), NUMBER)
div_p = _primitive("div", _div_impl, NUMBER)
rem_p = _primitive("rem", _rem_impl, (INTEGER, FLOATING))
neg_p = _primitive("neg", np.negative, NUMBER)
sign_p = _primitive("sign", float_semantics(_sign_impl), NUMBER)
max_p = _primitive("max", _extremum(np.maximum, np.greater, negative_zero_wins=False), _ANY)
min_p = _primitive("min", _extremum(np.minimum, np.less, negative_zero_wins=True), _ANY)
floor_p = _primitive("floor", float_semantics(np.floor), (FLOATING,))
ceil_p = _primitive("ceil", float_semantics(np.ceil), (FLOATING,))
round_p = _primitive("round", _round_impl, (FLOATING,))
nextafter_p = _primitive("nextafter", lambda x, y: np.where(x == y, y, np.nextafter(x, y)), (FLOATING,))
is_finite_p = _primitive("is_finite", np.isfinite, (FLOATING,), lambda _: np.dtype(np.bool_))
square_p = _primitive("square", lambda x: _mul_same(x, x), NUMBER)

mul_p = Primitive("mul")


@mul_p.def_abstract_eval
def _mul_aval(x, y, *, out_dtype):
    if out_dtype is None:
        return elementwise_aval("mul", (x, y), NUMBER)
    aval = elementwise_aval("mul", (x, y), NUMBER, same_dtypes=False)
    return aval.update(dtype=dtypes.canonicalize_dtype(dtypes.dtype(out_dtype)))


mul_p.def_impl(_mul_impl)
pp_eqn_rules[mul_p] = pp_hiding_none("out_dtype")

pow_p = Primitive("pow")


@pow_p.def_abstract_eval
def _pow_aval(x, y):
    check_dtype("pow", x.dtype, INEXACT, 0)
    check_dtype("pow", y.dtype, NUMBER, 1)
    if x.dtype != y.dtype and not np.issubdtype(y.dtype, np.integer):
        raise TypeError("the first argument to pow must have an inexact dtype (float or complex), and the second "
                        "argument must have an inexact or integer dtype, and two inexact dtypes must match, but got "
                        f"{x.dtype} and {y.dtype} respectively.")
    return ShapedArray(broadcast_shapes("pow", x.shape, y.shape), x.dtype, x.weak_type and y.weak_type)


pow_p.def_impl(float_semantics(_pow_impl))

integer_pow_p = Primitive("integer_pow")


@integer_pow_p.def_abstract_eval
def _integer_pow_aval(x, *, y):
    check_dtype("integer_pow", x.dtype, NUMBER)
    if y < 0 and np.issubdtype(x.dtype, np.integer):
        raise TypeError(f"Integers cannot be raised to negative powers, got integer_pow({x}, {y})")
    return x


integer_pow_p.def_impl(_integer_pow_impl)

# ---------------------------------------------------------------- transcendental


def _logistic(x):
    return 1 / (1 + np.exp(-x))


def _exp2(x):
    return np.exp2(x) if not np.issubdtype(x.dtype, np.complexfloating) else np.exp(x * np.log(2).astype(x.dtype))


def _atan2(x, y):
    """``atan(x / y)`` in the right quadrant; for complex operands ``-i log((y + i x) / sqrt(x² + y²))``."""
    if not np.issubdtype(x.dtype, np.complexfloating):
        return np.arctan2(x, y)
    wide_x, wide_y = x.astype(np.complex128), y.astype(np.complex128)
    return (-1j * np.log((wide_y + 1j * wide_x) / np.sqrt(wide_x * wide_x + wide_y * wide_y))).astype(x.dtype)


def _unsigned_zeros(fn: Callable) -> Callable:
    """``fn`` with complex operands' -0.0 parts read as +0.0: XLA puts branch cuts' zeros on one side."""
    return lambda x: fn(x + np.zeros((), x.dtype)) if np.issubdtype(x.dtype, np.complexfloating) else fn(x)


def _math_primitive(name: str, fn: Callable, accepted=INEXACT, keeps_denormals: bool = False,
                    checks_accuracy: bool = True) -> Primitive:
    """A unary (or atan2's binary) math primitive; ``checks_accuracy`` is off where JAX's lowering (an expansion)
    never reads the ``accuracy`` parameter, so that no value of it fails."""
    compute = float_semantics(fn, keeps_denormals)

    def impl(*args, accuracy=None):
        if checks_accuracy:
            check_accuracy(accuracy)  # an unknown accuracy fails when run, as in JAX (not when traced)
        return compute(*args)

    return _primitive(name, impl, accepted)


exp_p = _math_primitive("exp", np.exp)
exp2_p = _math_primitive("exp2", _exp2)
log_p = _math_primitive("log", np.log)
log1p_p = _math_primitive("log1p", np.log1p)
expm1_p = _math_primitive("expm1", np.expm1, keeps_denormals=True)
tanh_p = _math_primitive("tanh", np.tanh, keeps_denormals=True)
logistic_p = _math_primitive("logistic", _logistic, checks_accuracy=False)
sin_p = _math_primitive("sin", np.sin, keeps_denormals=True)
cos_p = _math_primitive("cos", np.cos)
tan_p = _math_primitive("tan", np.tan, keeps_denormals=True)
asin_p = _math_primitive("asin", _unsigned_zeros(np.arcsin))
acos_p = _math_primitive("acos", _unsigned_zeros(np.arccos))
atan_p = _math_primitive("atan", np.arctan, keeps_denormals=True)
atan2_p = _math_primitive("atan2", _atan2)
sinh_p = _math_primitive("sinh", np.sinh)
cosh_p = _math_primitive("cosh", np.cosh)
asinh_p = _math_primitive("asinh", _unsigned_zeros(np.arcsinh))
acosh_p = _math_primitive("acosh", _unsigned_zeros(np.arccosh))
atanh_p = _math_primitive("atanh", np.arctanh)
sqrt_p = _math_primitive("sqrt", _unsigned_zeros(np.sqrt))
rsqrt_p = _math_primitive("rsqrt", lambda x: 1 / np.sqrt(x))
cbrt_p = _math_primitive("cbrt", np.cbrt, (FLOATING,))

# These print without ``accuracy=None``, as JAX's do (the other math functions show it).
pp_eqn_rules.update(dict.fromkeys((exp_p, exp2_p, log_p, expm1_p, log1p_p, tanh_p, logistic_p, sin_p, cos_p, tan_p,
                                    sqrt_p, rsqrt_p, cbrt_p), pp_hiding_none("accuracy")))

# ---------------------------------------------------------------- complex numbers


def _complex_dtype(dtype: np.dtype) -> np.dtype:
    return np.result_type(dtype, np.complex64)


def _complex_impl(x, y):
    x, y = np.broadcast_arrays(x, y)
    out = np.empty(x.shape, _complex_dtype(x.dtype))
    out.real, out.imag = x, y
    return out


def _real_dtype(dtype: np.dtype) -> np.dtype:
    return np.finfo(dtype).dtype if np.issubdtype(dtype, np.complexfloating) else dtype


abs_p = _primitive("abs", np.abs, (FLOATING, COMPLEX, SIGNED), _real_dtype)
real_p = _primitive("real", np.real, (COMPLEX,), _real_dtype)
imag_p = _primitive("imag", np.imag, (COMPLEX,), _real_dtype)
complex_p = _primitive("complex", _complex_impl, (_FLOAT32, _FLOAT64), _complex_dtype)
conj_p = _primitive("conj", lambda x, *, input_dtype: np.conj(x).astype(_complex_dtype(x.dtype)),
                               (_FLOAT32, COMPLEX, _FLOAT64), _complex_dtype)

# ---------------------------------------------------------------- bits


def _bit_length(x):
    """The number of significant bits of each element, reading its bit pattern as unsigned."""
    bits = x.dtype.itemsize * 8
    u = x.view(_unsigned(x.dtype))
    return sum(((u >> np.array(i, u.dtype)) != 0).astype(x.dtype) for i in range(bits))


def _clz_impl(x):
    return (x.dtype.itemsize * 8 - _bit_length(x)).astype(x.dtype)


def _population_count_impl(x):
    u = x.view(_unsigned(x.dtype))
    one = np.array(1, u.dtype)
    return sum((u >> np.array(i, u.dtype)) & one for i in range(x.dtype.itemsize * 8)).astype(u.dtype).view(x.dtype)


def _shift_impl(kind: str) -> Callable:
    """Shifts by amounts read as unsigned; amounts past the bit width give 0 (or the sign, arithmetically)."""

    def impl(x, y):
        x, y = np.broadcast_arrays(x, y)
        bits = x.dtype.itemsize * 8
        udtype = _unsigned(x.dtype)
        amount = y.view(udtype)
        too_far = amount >= bits
        amount = np.where(too_far, 0, amount).astype(udtype)
        if kind == "arithmetic":
            signed = x.view(np.dtype(f"int{bits}"))
            fill = np.array(bits - 1, udtype).astype(signed.dtype)
            out = np.where(too_far, signed >> fill, signed >> amount.astype(signed.dtype))
        else:
            shifted = x.view(udtype) << amount if kind == "left" else x.view(udtype) >> amount
            out = np.where(too_far, np.zeros((), udtype), shifted)
        return np.asarray(out).view(x.dtype)

    return impl


def _mulhi_impl(x, y):
    """The high half of the double-width product, computed exactly with Python integers."""
    x, y = np.broadcast_arrays(x, y)
    bits = x.dtype.itemsize * 8
    mask = (1 << bits) - 1
    high = [((int(a) * int(b)) >> bits) & mask for a, b in zip(x.ravel(), y.ravel())]
    unsigned = np.array(high, dtype=_unsigned(x.dtype)).reshape(x.shape)
    return unsigned.view(x.dtype)


mulhi_p = _primitive("mulhi", _mulhi_impl, (INTEGER,))
clz_p = _primitive("clz", _clz_impl, (INTEGER,))
population_count_p = _primitive("population_count", _population_count_impl, (INTEGER,))
not_p = _primitive("not", np.invert, _BITWISE)
and_p = _primitive("and", np.bitwise_and, _BITWISE)
or_p = _primitive("or", np.bitwise_or, _BITWISE)
xor_p = _primitive("xor", np.bitwise_xor, _BITWISE)
shift_left_p = _primitive("shift_left", _shift_impl("left"), (INTEGER,))
shift_right_logical_p = _primitive("shift_right_logical", _shift_impl("logical"), (INTEGER,))
shift_right_arithmetic_p = _primitive("shift_right_arithmetic", _shift_impl("arithmetic"), (INTEGER,))

# ---------------------------------------------------------------- comparisons

_to_bool = lambda _: np.dtype(np.bool_)  # noqa: E731
eq_p = _primitive("eq", np.equal, _ANY, _to_bool)
ne_p = _primitive("ne", np.not_equal, _ANY, _to_bool)
lt_p = _primitive("lt", np.less, _ORDERED, _to_bool)
le_p = _primitive("le", np.less_equal, _ORDERED, _to_bool)
gt_p = _primitive("gt", np.greater, _ORDERED, _to_bool)
ge_p = _primitive("ge", np.greater_equal, _ORDERED, _to_bool)


def _total_order_keys(x: np.ndarray) -> np.ndarray:
    """Integers that order floats totally: -NaN < -inf < ... < -0.0 < 0.0 < ... < inf < NaN (by sign and payload).

    A float's bits read as a signed integer order the non-negative floats; for negative ones (sign bit set) the
    other bits count the wrong way, so they are flipped. Integers and booleans are their own keys.
    """
    if not dtypes.issubdtype(x.dtype, np.inexact):
        return x
    if np.issubdtype(x.dtype, np.complexfloating):  # no total order; compared part by part for equality only
        return np.stack([_total_order_keys(x.real), _total_order_keys(x.imag)], -1)
    signed = x.view(np.dtype(f"int{8 * x.dtype.itemsize}"))
    return np.where(signed < 0, signed ^ np.iinfo(signed.dtype).max, signed)


def _total_order(compare: Callable):
    def impl(x, y):
        x, y = np.broadcast_arrays(x, y)
        keys_x, keys_y = _total_order_keys(x), _total_order_keys(y)
        result = compare(keys_x, keys_y)
        return result.all(-1) if keys_x.ndim > x.ndim else result

    return impl


# Comparisons in the total order (JAX's primitives behind sorting keys; XLA's TOTALORDER comparison type).
eq_to_p = _primitive("eq_to", _total_order(np.equal), _ANY, _to_bool)
le_to_p = _primitive("le_to", _total_order(np.less_equal), _ORDERED, _to_bool)
lt_to_p = _primitive("lt_to", _total_order(np.less), _ORDERED, _to_bool)

# ---------------------------------------------------------------- public functions


def add(x, y):
    """Elementwise ``x + y``."""
    return add_p.bind(x, y)


def sub(x, y):
    """Elementwise ``x - y``."""
    return sub_p.bind(x, y)


def mul(x, y, *, out_dtype=None):
    """Elementwise ``x * y``; ``out_dtype`` multiplies in that dtype instead of the operands' common one."""
    return mul_p.bind(x, y, out_dtype=out_dtype)


def div(x, y):
    """Elementwise ``x / y``; integer division rounds toward zero."""
    return div_p.bind(x, y)


def rem(x, y):
    """Elementwise remainder of ``x / y``, with the sign of ``x``."""
    return rem_p.bind(x, y)


def pow(x, y):  # noqa: A001 - lax's name
    """Elementwise ``x ** y``; ``y`` may be an integer array for an inexact ``x``."""
    return pow_p.bind(x, y)


def integer_pow(x, y: int):
    """Elementwise ``x ** y`` for a static Python integer ``y``."""
    return integer_pow_p.bind(x, y=operator.index(y))


def square(x):
    """Elementwise ``x * x``."""
    return square_p.bind(x)


def reciprocal(x):
    """Elementwise ``1 / x``."""
    return integer_pow(x, -1)


def neg(x):
    """Elementwise ``-x``."""
    return neg_p.bind(x)


def sign(x):
    """Elementwise sign: -1, 0 or 1 (``x / |x|`` for complex numbers)."""
    return sign_p.bind(x)


def floor(x):
    """Elementwise floor."""
    return floor_p.bind(x)


def ceil(x):
    """Elementwise ceiling."""
    return ceil_p.bind(x)


def round(x, rounding_method: RoundingMethod = RoundingMethod.AWAY_FROM_ZERO):  # noqa: A001 - lax's name
    """Elementwise rounding to the nearest integer, ties broken by ``rounding_method``."""
    return round_p.bind(x, rounding_method=RoundingMethod(rounding_method))


def nextafter(x1, x2):
    """The next representable value after ``x1`` in the direction of ``x2``."""
    return nextafter_p.bind(x1, x2)


def is_finite(x):
    """Elementwise test for a value that is neither infinite nor NaN."""
    return is_finite_p.bind(x)


def exp(x, *, accuracy=None):
    """Elementwise ``e ** x``."""
    return exp_p.bind(x, accuracy=accuracy)


def exp2(x, *, accuracy=None):
    """Elementwise ``2 ** x``."""
    return exp2_p.bind(x, accuracy=accuracy)


def log(x, *, accuracy=None):
    """Elementwise natural logarithm."""
    return log_p.bind(x, accuracy=accuracy)


def log1p(x, *, accuracy=None):
    """Elementwise ``log(1 + x)``, accurate for small ``x``."""
    return log1p_p.bind(x, accuracy=accuracy)


def expm1(x, *, accuracy=None):
    """Elementwise ``exp(x) - 1``, accurate for small ``x``."""
    return expm1_p.bind(x, accuracy=accuracy)


def tanh(x, *, accuracy=None):
    """Elementwise hyperbolic tangent."""
    return tanh_p.bind(x, accuracy=accuracy)


def logistic(x, *, accuracy=None):
    """Elementwise logistic sigmoid ``1 / (1 + exp(-x))``."""
    return logistic_p.bind(x, accuracy=accuracy)


def sin(x, *, accuracy=None):
    """Elementwise sine."""
    return sin_p.bind(x, accuracy=accuracy)


def cos(x, *, accuracy=None):
    """Elementwise cosine."""
    return cos_p.bind(x, accuracy=accuracy)


def tan(x, *, accuracy=None):
    """Elementwise tangent."""
    return tan_p.bind(x, accuracy=accuracy)


def asin(x):
    """Elementwise arc sine."""
    return asin_p.bind(x)


def acos(x):
    """Elementwise arc cosine."""
    return acos_p.bind(x)


def atan(x):
    """Elementwise arc tangent."""
    return atan_p.bind(x)


def atan2(x, y):
    """Elementwise arc tangent of ``x / y``, in the quadrant of the point ``(y, x)``."""
    return atan2_p.bind(x, y)


def sinh(x):
    """Elementwise hyperbolic sine."""
    return sinh_p.bind(x)


def cosh(x):
    """Elementwise hyperbolic cosine."""
    return cosh_p.bind(x)


def asinh(x):
    """Elementwise inverse hyperbolic sine."""
    return asinh_p.bind(x)


def acosh(x):
    """Elementwise inverse hyperbolic cosine."""
    return acosh_p.bind(x)


def atanh(x):
    """Elementwise inverse hyperbolic tangent."""
    return atanh_p.bind(x)


def sqrt(x, *, accuracy=None):
    """Elementwise square root."""
    return sqrt_p.bind(x, accuracy=accuracy)


def rsqrt(x, *, accuracy=None):
    """Elementwise ``1 / sqrt(x)``."""
    return rsqrt_p.bind(x, accuracy=accuracy)


def cbrt(x, *, accuracy=None):
    """Elementwise cube root."""
    return cbrt_p.bind(x, accuracy=accuracy)


def abs(x):  # noqa: A001 - lax's name
    """Elementwise absolute value (the magnitude, of the real dtype, for complex numbers)."""
    return abs_p.bind(x)


def max(x, y):  # noqa: A001 - lax's name
    """Elementwise maximum; NaN if either operand is NaN."""
    return max_p.bind(x, y)


def min(x, y):  # noqa: A001 - lax's name
    """Elementwise minimum; NaN if either operand is NaN."""
    return min_p.bind(x, y)


def real(x):
    """Elementwise real part of a complex array."""
    return real_p.bind(x)


def imag(x):
    """Elementwise imaginary part of a complex array."""
    return imag_p.bind(x)


def complex(x, y):  # noqa: A001 - lax's name
    """Elementwise ``x + i y`` from float32 or float64 parts."""
    return complex_p.bind(x, y)


def conj(x):
    """Elementwise complex conjugate; a real input becomes complex."""
    return conj_p.bind(x, input_dtype=get_aval(x).dtype)


def clz(x):
    """Elementwise count of leading zero bits."""
    return clz_p.bind(x)


def mulhi(x, y):
    """Elementwise high half of the double-width integer product ``x * y``."""
    return mulhi_p.bind(x, y)


def population_count(x):
    """Elementwise count of set bits."""
    return population_count_p.bind(x)


def bitwise_not(x):
    """Elementwise NOT (logical for booleans)."""
    return not_p.bind(x)


def bitwise_and(x, y):
    """Elementwise AND (logical for booleans)."""
    return and_p.bind(x, y)


def bitwise_or(x, y):
    """Elementwise OR (logical for booleans)."""
    return or_p.bind(x, y)


def bitwise_xor(x, y):
    """Elementwise exclusive OR (logical for booleans)."""
    return xor_p.bind(x, y)


def shift_left(x, y):
    """Elementwise ``x << y``; shifting by the bit width or more gives 0."""
    return shift_left_p.bind(x, y)


def shift_right_logical(x, y):
    """Elementwise ``x >> y`` filling with zeros; shifting by the bit width or more gives 0."""
    return shift_right_logical_p.bind(x, y)


def shift_right_arithmetic(x, y):
    """Elementwise ``x >> y`` filling with the sign bit."""
    return shift_right_arithmetic_p.bind(x, y)


def eq(x, y):
    """Elementwise ``x == y``."""
    return eq_p.bind(x, y)


def ne(x, y):
    """Elementwise ``x != y``."""
    return ne_p.bind(x, y)


def lt(x, y):
    """Elementwise ``x < y``."""
    return lt_p.bind(x, y)


def le(x, y):
    """Elementwise ``x <= y``."""
    return le_p.bind(x, y)


def gt(x, y):
    """Elementwise ``x > y``."""
    return gt_p.bind(x, y)


def ge(x, y):
    """Elementwise ``x >= y``."""
    return ge_p.bind(x, y)
