"""Elementwise functions (NumPy's ufuncs): arithmetic, powers, exponentials and logarithms, trigonometry, rounding,
comparisons, logic and bits, floating-point classification, complex parts, ``clip``, ``isclose`` and friends.

Each function promotes its operands as JAX's ``jnp`` does (weak types respected; integer inputs of the inexact
functions become the default float) and stages the same primitives. Where JAX wraps a function in ``jit`` the
function here is a ``jit`` of the same name, so jaxprs print alike; the others are plain functions (JAX's
``inline=True`` jits). The fourteen names that are ``jnp.ufunc`` objects in JAX are built at the end of the module.
"""

from __future__ import annotations

import operator
from typing import Any

import ml_dtypes
import numpy as np

from jaxle_core import core, custom_jvp, dtypes, jvp, lax
from jaxle_core.avals import get_aval
from jaxle_core.backend import current_backend
from jaxle_core.lax import logaddexp as lax_logaddexp
from jaxle_core.lax.creation import filled_like
from jaxle_core.lax.structural import convert_keeping_weak_type
from jaxle_numpy import util
from jaxle_numpy.conditional import _where, broadcast_together, where
from jaxle_numpy.ufunc import ufunc

__all__ = [
    "abs", "absolute", "acos", "acosh", "add", "allclose", "angle", "arccos", "arccosh", "arcsin", "arcsinh",
    "arctan", "arctan2", "arctanh", "around", "array_equal", "array_equiv", "asin", "asinh", "atan", "atan2",
    "atanh", "bitwise_and", "bitwise_count", "bitwise_invert", "bitwise_left_shift", "bitwise_not", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "cbrt", "ceil", "clip", "conj", "conjugate", "copysign", "cos", "cosh",
    "deg2rad", "degrees", "divide", "divmod", "equal", "exp", "exp2", "expm1", "fabs", "float_power", "floor",
    "floor_divide", "fmax", "fmin", "fmod", "frexp", "gcd", "greater", "greater_equal", "heaviside", "hypot", "i0",
    "imag", "invert", "isclose", "iscomplex", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "lcm",
    "ldexp", "left_shift", "less", "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logaddexp2",
    "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "modf", "multiply",
    "nan_to_num", "negative", "nextafter", "not_equal", "positive", "pow", "power", "rad2deg", "radians", "real",
    "reciprocal", "remainder", "right_shift", "rint", "round", "sign", "signbit", "sin", "sinc", "sinh", "spacing",
    "sqrt", "square", "subtract", "tan", "tanh", "true_divide", "trunc", "ufunc", "where",
]


# ---------------------------------------------------------------- helpers


def _dtype(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _is(x: Any, kind: Any) -> bool:
    return dtypes.issubdtype(_dtype(x), kind)


def _is_integral(x: Any) -> bool:
    """Booleans and integers: the dtypes on which rounding is the identity."""
    return _dtype(x) == np.bool_ or _is(x, np.integer)


def _real_dtype(dtype: np.dtype) -> np.dtype:
    return np.finfo(dtype).dtype if dtypes.issubdtype(dtype, np.complexfloating) else dtype


def _finfo(dtype: np.dtype) -> Any:
    return ml_dtypes.finfo(dtype)


def _named(fn: Any, name: str, doc: str) -> Any:
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _unary_inexact(name: str, lax_fn: Any, doc: str) -> Any:
    """``lax_fn`` of the operand promoted to an inexact dtype (integers and booleans become the default float)."""
    def fn(x: Any, /) -> Any:
        x, = util.promote_args_inexact(name, x)
        return lax_fn(x)
    return util.compiled_when_eager(_named(fn, name, doc))


def _binary(name: str, lax_fn: Any, doc: str, promote: Any = util.promote_args, numbered: bool = False) -> Any:
    """``lax_fn`` of the operands promoted to a common dtype and rank with ``promote``; its parameters are named
    ``x1`` and ``x2`` when ``numbered`` (as JAX's errors name them), else ``x`` and ``y``."""
    def fn(x: Any, y: Any, /) -> Any:
        return lax_fn(*promote(name, x, y))

    def numbered_fn(x1: Any, x2: Any, /) -> Any:
        return lax_fn(*promote(name, x1, x2))
    return util.compiled_when_eager(_named(numbered_fn if numbered else fn, name, doc))


def _unary_alias(name: str, fun: Any) -> Any:
    """``fun`` under another name, as a function of its own: JAX's aliases are (its errors name ``x of abs``)."""
    def alias(x: Any, /) -> Any:
        return fun(x)
    return util.compiled_when_eager(_named(alias, name, f"``{fun.__name__}`` under the name ``{name}``."))


def _reject_out(name: str, out: Any) -> None:
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")


# ---------------------------------------------------------------- arithmetic


@util.compiled_when_eager
def add(x: Any, y: Any, /) -> Any:
    """Elementwise ``x + y`` (logical or for booleans)."""
    x, y = util.promote_args("add", x, y)
    return lax.bitwise_or(x, y) if _dtype(x) == np.bool_ else lax.add(x, y)


@util.compiled_when_eager
def multiply(x: Any, y: Any, /) -> Any:
    """Elementwise ``x * y`` (logical and for booleans)."""
    x, y = util.promote_args("multiply", x, y)
    return lax.bitwise_and(x, y) if _dtype(x) == np.bool_ else lax.mul(x, y)


subtract = _binary("subtract", lax.sub, "Elementwise ``x - y``.")
maximum = _binary("maximum", lax.max, "Elementwise maximum (NaN propagates).")
minimum = _binary("minimum", lax.min, "Elementwise minimum (NaN propagates).")
true_divide = _binary("true_divide", lax.div, "Elementwise ``x1 / x2`` in an inexact dtype.", util.promote_args_inexact,
                      numbered=True)
divide = true_divide


@util.compiled_when_eager
def negative(x: Any, /) -> Any:
    """Elementwise ``-x``."""
    x, = util.promote_args("negative", x)
    return lax.neg(x)


@util.compiled_when_eager
def positive(x: Any, /) -> Any:
    """Elementwise ``+x``: the operand's values, as a new array."""
    x, = util.promote_args("positive", x)
    return util.passed_through(x)


@util.compiled_when_eager
def sign(x: Any, /) -> Any:
    """-1, 0 or 1 by the sign of each element (``x / |x|`` for complex)."""
    x, = util.promote_args("sign", x)
    return lax.sign(x)


@util.compiled_when_eager
def absolute(x: Any, /) -> Any:
    """Elementwise absolute value (the modulus for complex; booleans and unsigned integers are returned as is)."""
    x, = util.promote_args("absolute", x)
    if _dtype(x) == np.bool_ or _is(x, np.unsignedinteger):
        return util.as_array(x)
    return lax.abs(x)


abs = _unary_alias("abs", absolute)  # noqa: A001 - NumPy's name


@util.compiled_when_eager
def fabs(x: Any, /) -> Any:
    """Elementwise absolute value in an inexact dtype; complex input is refused."""
    x, = util.promote_args_inexact("fabs", x)
    if _is(x, np.complexfloating):
        raise TypeError("ufunc 'fabs' does not support complex dtypes")
    return lax.abs(x)


@util.compiled_when_eager
def square(x: Any, /) -> Any:
    """Elementwise ``x * x`` (booleans become the default integer)."""
    x, = util.promote_args_numeric("square", x)
    return lax.square(x)


@util.compiled_when_eager
def reciprocal(x: Any, /) -> Any:
    """Elementwise ``1 / x`` in an inexact dtype."""
    x, = util.promote_args_inexact("reciprocal", x)
    return lax.integer_pow(x, -1)


def _float_divmod(x1: Any, x2: Any) -> tuple[Any, Any]:
    """Python's floor division and modulo of floats: the quotient rounded down, the remainder with ``x2``'s sign."""
    mod = lax.rem(x1, x2)
    div = lax.div(_where(lax.eq(x2, util.zero_of(x2)), x1, lax.sub(x1, mod)), x2)
    ind = lax.bitwise_and(lax.ne(mod, util.zero_of(mod)), lax.ne(lax.sign(x2), lax.sign(mod)))
    mod = lax.select_n(ind, mod, lax.add(mod, x2))
    div = lax.select_n(ind, div, subtract(div, 1))
    return lax.round(div, lax.RoundingMethod.AWAY_FROM_ZERO), mod


@util.named_jit("floor_divide")
def floor_divide(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``x1 // x2`` (Python's rounding towards minus infinity)."""
    util.check_arraylike("floor_divide", x1, x2)
    x1, x2 = util.promote_args_numeric("floor_divide", x1, x2)
    if _is(x1, np.unsignedinteger):
        return lax.div(x1, x2)
    if _is(x1, np.integer):
        quotient = lax.div(x1, x2)
        # the comparisons of weak operands are weak booleans, made strong for the logical and (as in JAX)
        signs_differ = lax.ne(lax.sign(x1), lax.sign(x2))
        inexact = lax.ne(lax.rem(x1, x2), util.weak_scalar_like(x1, 0))
        select = lax.bitwise_and(lax.convert_element_type(signs_differ, np.bool_),
                                 lax.convert_element_type(inexact, np.bool_))
        # JAX subtracts a weak 1 from a weak quotient of any rank (the result stays weak)
        one = 1 if get_aval(quotient).weak_type else util.scalar_like(quotient, 1)
        return _where(select, lax.sub(quotient, one), quotient)
    if _is(x1, np.complexfloating):
        raise TypeError("floor_divide does not support complex-valued inputs")
    return _float_divmod(x1, x2)[0]




def _integer_divisor(x2: Any) -> Any:
    """``x2`` with zeros replaced by ones, so an integer division by zero gives what XLA's does (no trap)."""
    return _where(lax.eq(x2, util.weak_scalar_like(x2, 0)), lax.full_like(x2, 1), x2)


@util.named_jit("remainder")
def remainder(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``x1 % x2`` with the sign of ``x2`` (Python's modulo)."""
    util.check_arraylike("remainder", x1, x2)
    x1, x2 = util.promote_args_numeric("remainder", x1, x2)
    if _is(x1, np.integer):
        x2 = _integer_divisor(x2)
    trunc_mod = lax.rem(x1, x2)
    trunc_mod_not_zero = lax.ne(trunc_mod, util.zero_of(trunc_mod))
    do_plus = lax.bitwise_and(lax.ne(lax.lt(trunc_mod, util.zero_of(trunc_mod)), lax.lt(x2, util.zero_of(x2))),
                              trunc_mod_not_zero)
    return lax.select_n(do_plus, trunc_mod, lax.add(trunc_mod, x2))


mod = remainder


@util.named_jit("divmod")
def divmod(x1: Any, x2: Any, /) -> tuple[Any, Any]:
    """``(x1 // x2, x1 % x2)`` elementwise."""
    util.check_arraylike("divmod", x1, x2)
    x1, x2 = util.promote_args_numeric("divmod", x1, x2)
    if _is(x1, np.integer):
        return floor_divide(x1, x2), remainder(x1, x2)
    return _float_divmod(x1, x2)




@util.named_jit("fmod")
def fmod(x1: Any, x2: Any, /) -> Any:
    """Elementwise remainder of ``x1 / x2`` with the sign of ``x1`` (C's fmod)."""
    util.check_arraylike("fmod", x1, x2)
    if dtypes.issubdtype(dtypes.result_type(x1, x2), np.integer):
        x2 = _integer_divisor(x2)
    return lax.rem(*util.promote_args_numeric("fmod", x1, x2))




# ---------------------------------------------------------------- powers


def _pow_int_int(x1: Any, x2: Any) -> Any:
    """Integer power by squaring over the exponent's low bits (larger exponents overflow any base above 1)."""
    acc = _where(lax.bitwise_and(lax.eq(x1, util.zero_of(x1)), lax.ne(x2, util.zero_of(x2))),
                 util.zero_of(x1), util.scalar_like(x1, 1))
    one = util.scalar_like(x2, 1)
    for _ in range(6):
        acc = _where(lax.bitwise_and(x2, one), lax.mul(acc, x1), acc)
        x1 = lax.mul(x1, x1)
        x2 = lax.shift_right_logical(x2, one)
    return acc


def power(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``x1 ** x2``; a concrete integer exponent stages ``integer_pow``."""
    util.check_arraylike("power", x1, x2)
    for x in (x1, x2):
        if isinstance(x, (str, bytes)):  # JAX reads both dtypes first: its TypeError for a string or bytes
            dtypes.dtype(x)
    try:
        exponent = operator.index(x2)
    except TypeError:
        pass
    else:
        x1, = util.promote_dtypes_numeric(util.eager_array(x1))
        return lax.integer_pow(x1, exponent)
    return _power(x1, x2)


@util.compiled_when_eager
def _power(x1: Any, x2: Any) -> Any:
    """``x1 ** x2`` for an exponent that is not a concrete integer."""
    base, promoted_exponent = util.promote_args_numeric("power", x1, x2)
    if _is(base, np.integer):
        return _pow_int_int(base, promoted_exponent)
    if _is(x2, np.integer):
        return lax.pow(*util.promote_shapes("power", base, x2))
    return lax.pow(base, promoted_exponent)


pow = power  # noqa: A001 - NumPy's name
float_power = _binary("float_power", lax.pow, "Elementwise ``x ** y`` in an inexact dtype.",
                      util.promote_args_inexact)


# ---------------------------------------------------------------- exponentials, logarithms, trigonometry

sin = _unary_inexact("sin", lax.sin, "Elementwise sine.")
cos = _unary_inexact("cos", lax.cos, "Elementwise cosine.")
tan = _unary_inexact("tan", lax.tan, "Elementwise tangent.")
arcsin = _unary_inexact("arcsin", lax.asin, "Elementwise inverse sine.")
arccos = _unary_inexact("arccos", lax.acos, "Elementwise inverse cosine.")
arctan = _unary_inexact("arctan", lax.atan, "Elementwise inverse tangent.")
sinh = _unary_inexact("sinh", lax.sinh, "Elementwise hyperbolic sine.")
cosh = _unary_inexact("cosh", lax.cosh, "Elementwise hyperbolic cosine.")
tanh = _unary_inexact("tanh", lax.tanh, "Elementwise hyperbolic tangent.")
arcsinh = _unary_inexact("arcsinh", lax.asinh, "Elementwise inverse hyperbolic sine.")
arctanh = _unary_inexact("arctanh", lax.atanh, "Elementwise inverse hyperbolic tangent.")


@util.named_jit("arccosh")
def arccosh(x: Any, /) -> Any:
    """Elementwise inverse hyperbolic cosine (for complex input, the branch with a non-negative real part)."""
    x, = util.promote_args_inexact("arccosh", x)
    result = lax.acosh(x)
    if _is(x, np.complexfloating):
        re = lax.real(result)
        result = _where(lax.lt(re, util.zero_of(re)), lax.neg(result), result)
    return result


exp = _unary_inexact("exp", lax.exp, "Elementwise ``e ** x``.")
exp2 = _unary_inexact("exp2", lax.exp2, "Elementwise ``2 ** x``.")
expm1 = _unary_inexact("expm1", lax.expm1, "Elementwise ``e ** x - 1``, accurate near zero.")
log = _unary_inexact("log", lax.log, "Elementwise natural logarithm.")
log1p = _unary_inexact("log1p", lax.log1p, "Elementwise ``log(1 + x)``, accurate near zero.")
sqrt = _unary_inexact("sqrt", lax.sqrt, "Elementwise square root.")
cbrt = _unary_inexact("cbrt", lax.cbrt, "Elementwise cube root.")
asin, acos, atan = _unary_alias("asin", arcsin), _unary_alias("acos", arccos), _unary_alias("atan", arctan)
asinh, acosh, atanh = _unary_alias("asinh", arcsinh), _unary_alias("acosh", arccosh), _unary_alias("atanh", arctanh)
arctan2 = _binary("arctan2", lax.atan2, "Elementwise angle of the point ``(x2, x1)``.", util.promote_args_inexact,
                  numbered=True)


@util.compiled_when_eager
def atan2(x1: Any, x2: Any, /) -> Any:
    """``arctan2`` under the array API's name (which promotes the operands to a common dtype first)."""
    return arctan2(*util.promote_args("atan2", x1, x2))


nextafter = _binary("nextafter", lax.nextafter, "The next representable value after ``x`` towards ``y``.",
                    util.promote_args_inexact)


@util.compiled_when_eager
def log2(x: Any, /) -> Any:
    """Elementwise base-2 logarithm."""
    x, = util.promote_args_inexact("log2", x)
    if _is(x, np.complexfloating):
        r = lax.log(x)
        re, im = lax.real(r), lax.imag(r)
        ln2 = lax.log(util.scalar_like(re, 2))
        return lax.complex(lax.div(re, ln2), lax.div(im, ln2))
    return lax.div(lax.log(x), lax.log(util.scalar_like(x, 2)))


@util.compiled_when_eager
def log10(x: Any, /) -> Any:
    """Elementwise base-10 logarithm."""
    x, = util.promote_args_inexact("log10", x)
    if _is(x, np.complexfloating):
        r = lax.log(x)
        re, im = lax.real(r), lax.imag(r)
        scale = util.scalar_like(re, 1 / np.log(10))
        return lax.complex(lax.mul(re, scale), lax.mul(im, scale))
    return lax.mul(lax.log(x), util.scalar_like(x, 1 / np.log(10)))


@util.compiled_when_eager
def deg2rad(x: Any, /) -> Any:
    """Degrees to radians."""
    x, = util.promote_args_inexact("deg2rad", x)
    return lax.mul(x, util.weak_scalar_like(x, np.pi / 180))


@util.compiled_when_eager
def rad2deg(x: Any, /) -> Any:
    """Radians to degrees."""
    x, = util.promote_args_inexact("rad2deg", x)
    return lax.mul(x, util.weak_scalar_like(x, 180 / np.pi))


radians, degrees = deg2rad, rad2deg


@util.compiled_when_eager
def logaddexp(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``log(exp(x1) + exp(x2))`` without overflow."""
    x1, x2 = util.promote_args_inexact("logaddexp", x1, x2)
    return lax_logaddexp.logaddexp(x1, x2)


@util.compiled_when_eager
def logaddexp2(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``log2(2**x1 + 2**x2)`` without overflow."""
    x1, x2 = util.promote_args_inexact("logaddexp2", x1, x2)
    return lax_logaddexp.logaddexp2(x1, x2)


# ---------------------------------------------------------------- rounding


@util.compiled_when_eager
def floor(x: Any, /) -> Any:
    """Elementwise floor (booleans and integers are returned as is)."""
    util.check_arraylike("floor", x)
    x, = util.promote_args("floor", x)
    return util.as_array(x) if _is_integral(x) else lax.floor(x)


@util.compiled_when_eager
def ceil(x: Any, /) -> Any:
    """Elementwise ceiling (booleans and integers are returned as is)."""
    util.check_arraylike("ceil", x)
    x, = util.promote_args("ceil", x)
    return util.as_array(x) if _is_integral(x) else lax.ceil(x)


@util.named_jit("trunc")
def trunc(x: Any) -> Any:
    """Elementwise rounding towards zero."""
    util.check_arraylike("trunc", x)
    x, = util.promote_args("trunc", x)
    if _is_integral(x):
        return x
    return _where(lax.lt(x, util.zero_of(x)), lax.ceil(x), lax.floor(x))




@util.named_jit("rint")
def rint(x: Any, /) -> Any:
    """Elementwise rounding to the nearest integer, ties to even, in an inexact dtype."""
    util.check_arraylike("rint", x)
    x, = util.promote_args("rint", x)
    if _is_integral(x):
        return lax.convert_element_type(x, dtypes.default_float_dtype())
    if _is(x, np.complexfloating):
        return lax.complex(rint(lax.real(x)), rint(lax.imag(x)))
    return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)




def _round_float(x: Any, decimals: int) -> Any:
    if decimals == 0:
        return lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)
    dtype = _dtype(x)
    if dtype in (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16)):  # scaled in float32, as JAX does
        x = lax.convert_element_type(x, np.float32)
    factor = util.weak_scalar_like(x, 10.0 ** decimals)
    rounded = lax.div(lax.round(lax.mul(x, factor), lax.RoundingMethod.TO_NEAREST_EVEN), factor)
    return lax.convert_element_type(rounded, dtype) if _dtype(rounded) != dtype else rounded


@util.named_jit("round", ("decimals",))
def round(a: Any, decimals: int = 0, out: None = None) -> Any:
    """Elementwise rounding to ``decimals`` decimal places, ties to even."""
    util.check_arraylike("round", a)
    decimals = operator.index(decimals)
    _reject_out("round", out)
    a, = util.promote_args("round", a)
    if _dtype(a) == np.bool_:
        raise ValueError(f"data type {np.bool_!r} not inexact")
    if _is_integral(a):
        if decimals < 0:
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return a
    if _is(a, np.complexfloating):
        return lax.complex(_round_float(lax.real(a), decimals), _round_float(lax.imag(a), decimals))
    return _round_float(a, decimals)




@util.named_jit("around", ("decimals",))
def around(a: Any, decimals: int = 0, out: None = None) -> Any:
    """``round`` under NumPy's older name."""
    return round(a, decimals, out)




@util.named_jit("modf")
def modf(x: Any, /, out: None = None) -> tuple[Any, Any]:
    """The fractional and integral parts of each element, both with its sign."""
    util.check_arraylike("modf", x)
    _reject_out("modf", out)
    x, = util.promote_args_inexact("modf", x)
    whole = _where(lax.ge(x, util.zero_of(x)), lax.floor(x), lax.ceil(x))
    return lax.sub(x, whole), whole




# ---------------------------------------------------------------- floating-point classification


@util.compiled_when_eager
def isnan(x: Any, /) -> Any:
    """Whether each element is NaN."""
    util.check_arraylike("isnan", x)
    x, = util.promote_args("isnan", x)
    return lax.ne(x, x)


@util.compiled_when_eager
def isfinite(x: Any, /) -> Any:
    """Whether each element is neither infinite nor NaN."""
    util.check_arraylike("isfinite", x)
    x, = util.promote_args("isfinite", x)
    if _is(x, np.floating):
        return lax.is_finite(x)
    if _is(x, np.complexfloating):
        return lax.bitwise_and(lax.is_finite(lax.real(x)), lax.is_finite(lax.imag(x)))
    return lax.full_like(x, True, dtype=np.bool_)


@util.named_jit("isinf")
def isinf(x: Any, /) -> Any:
    """Whether each element is positive or negative infinity (either part, for complex)."""
    util.check_arraylike("isinf", x)
    x, = util.promote_args("isinf", x)
    if _is(x, np.floating):
        return lax.eq(lax.abs(x), util.scalar_like(x, np.inf))
    if _is(x, np.complexfloating):
        re, im = lax.real(x), lax.imag(x)
        return lax.bitwise_or(lax.eq(lax.abs(re), util.scalar_like(re, np.inf)),
                              lax.eq(lax.abs(im), util.scalar_like(im, np.inf)))
    return lax.full_like(x, False, dtype=np.bool_)




def _is_signed_infinity(name: str, infinity: float, x: Any, out: Any) -> Any:
    util.check_arraylike(name, x)
    _reject_out(name, out)
    x, = util.promote_args(name, x)
    if _is(x, np.complexfloating):
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    if _is(x, np.floating):
        return lax.eq(x, util.scalar_like(x, infinity))
    return lax.full_like(x, False, dtype=np.bool_)


def isposinf(x: Any, /, out: None = None) -> Any:
    """Whether each element is positive infinity."""
    return _is_signed_infinity("isposinf", np.inf, x, out)


def isneginf(x: Any, /, out: None = None) -> Any:
    """Whether each element is negative infinity."""
    return _is_signed_infinity("isneginf", -np.inf, x, out)


@util.named_jit("signbit")
def signbit(x: Any, /) -> Any:
    """Whether each element's sign bit is set (true for -0.0 and negative NaNs)."""
    util.check_arraylike("signbit", x)
    x, = util.promote_args("signbit", x)
    dtype = _dtype(x)
    if dtype == np.bool_:
        return lax.full_like(x, False, dtype=np.bool_)
    if _is(x, np.integer):
        return lax.lt(x, util.zero_of(x))
    if _is(x, np.complexfloating):
        raise ValueError(f"jax.numpy.signbit is not well defined for {dtype}")
    int_dtype = np.dtype(f"int{dtype.itemsize * 8}")
    bits = lax.bitcast_convert_type(x, int_dtype)
    return lax.convert_element_type(lax.shift_right_arithmetic(bits, np.array(dtype.itemsize * 8 - 1, int_dtype)[()]),
                                    np.bool_)




@util.named_jit("nan_to_num", ("copy",))
def nan_to_num(x: Any, copy: bool = True, nan: Any = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
    """NaNs replaced by ``nan`` and infinities by ``posinf``/``neginf`` (default: the dtype's extremes)."""
    del copy
    util.check_arraylike("nan_to_num", x)
    x, = util.promote_args("nan_to_num", x)
    dtype = _dtype(x)
    if not _is(x, np.inexact):
        return x
    if _is(x, np.complexfloating):
        return lax.complex(nan_to_num(lax.real(x), nan=nan, posinf=posinf, neginf=neginf),
                           nan_to_num(lax.imag(x), nan=nan, posinf=posinf, neginf=neginf))
    info = _finfo(dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = _where(isnan(x), lax.convert_element_type(nan, dtype), x)
    out = _where(isposinf(out), lax.convert_element_type(posinf, dtype), out)
    return _where(isneginf(out), lax.convert_element_type(neginf, dtype), out)




# ---------------------------------------------------------------- complex parts


@util.compiled_when_eager
def real(val: Any, /) -> Any:
    """The real part of each element (the values themselves, as a new array, for real dtypes)."""
    util.check_arraylike("real", val)
    val, = util.promote_args("real", val)
    return lax.real(val) if _is(val, np.complexfloating) else util.passed_through(val)


@util.compiled_when_eager
def imag(val: Any, /) -> Any:
    """The imaginary part of each element (zeros for real dtypes)."""
    util.check_arraylike("imag", val)
    val, = util.promote_args("imag", val)
    # zeros like a real operand, as JAX's jitted imag makes them (its errors name no line)
    return lax.imag(val) if _is(val, np.complexfloating) else filled_like(val, 0, located=False)


@util.compiled_when_eager
def conjugate(x: Any, /) -> Any:
    """The complex conjugate of each element (the values themselves, as a new array, for real dtypes)."""
    util.check_arraylike("conjugate", x)
    x, = util.promote_args("conjugate", x)
    return lax.conj(x) if _is(x, np.complexfloating) else util.passed_through(x)


conj = conjugate


@util.named_jit("angle", ("deg",))
def angle(z: Any, deg: bool = False) -> Any:
    """The argument (phase) of each element, in radians unless ``deg``."""
    util.check_arraylike("angle", z)
    re, im = real(z), imag(z)
    if not _is(z, np.complexfloating):  # real input is made a strongly typed float, as JAX's
        float_dtype = _dtype(re) if _is(re, np.inexact) else dtypes.default_float_dtype()
        re, im = (x if _dtype(x) == float_dtype and not get_aval(x).weak_type else
                  lax.convert_element_type(x, float_dtype) for x in (re, im))
    phase = lax.atan2(im, re)
    return lax.mul(phase, util.scalar_like(phase, 180 / np.pi)) if deg else phase




@util.named_jit("iscomplex")
def iscomplex(x: Any) -> Any:
    """Whether each element has a nonzero imaginary part."""
    i = imag(x)
    return lax.ne(i, util.weak_scalar_like(i, 0))


@util.named_jit("isreal")
def isreal(x: Any) -> Any:
    """Whether each element has a zero imaginary part."""
    i = imag(x)
    return lax.eq(i, util.weak_scalar_like(i, 0))




# ---------------------------------------------------------------- comparisons


def _comparison(name: str, lax_fn: Any, ordered: bool) -> Any:
    """A comparison; complex operands are ordered lexicographically (real parts, then imaginary ones)."""
    def fn(x: Any, y: Any, /) -> Any:
        x, y = util.promote_args(name, x, y)
        if ordered and _is(x, np.complexfloating):
            same_real = lax.eq(lax.real(x), lax.real(y))
            by_imag = lax_fn(lax.imag(x), lax.imag(y))
            return lax.select_n(same_real, lax_fn(lax.real(x), lax.real(y)), by_imag)
        return lax_fn(x, y)
    return util.compiled_when_eager(_named(fn, name, f"Elementwise ``{name}`` comparison."))


equal = _comparison("equal", lax.eq, False)
not_equal = _comparison("not_equal", lax.ne, False)
less = _comparison("less", lax.lt, True)
less_equal = _comparison("less_equal", lax.le, True)
greater = _comparison("greater", lax.gt, True)
greater_equal = _comparison("greater_equal", lax.ge, True)


@util.named_jit("fmax")
def fmax(x1: Any, x2: Any) -> Any:
    """Elementwise maximum ignoring NaNs (NaN only where both are)."""
    return _where(bitwise_or(greater(x1, x2), isnan(x2)), x1, x2)


@util.named_jit("fmin")
def fmin(x1: Any, x2: Any) -> Any:
    """Elementwise minimum ignoring NaNs (NaN only where both are)."""
    return _where(bitwise_or(less(x1, x2), isnan(x2)), x1, x2)




# ---------------------------------------------------------------- logic and bits


def _as_bool(x: Any) -> Any:
    return x if _dtype(x) == np.bool_ else lax.ne(x, util.weak_scalar_like(x, 0))


def _logical(name: str, lax_fn: Any) -> Any:
    def fn(x: Any, y: Any, /) -> Any:
        x, y = util.promote_args(name, x, y)
        return lax_fn(_as_bool(x), _as_bool(y))
    return util.compiled_when_eager(_named(fn, name, f"Elementwise ``{name.removeprefix('logical_')}`` of the "
                                                     "operands' truth values."))


logical_and = _logical("logical_and", lax.bitwise_and)
logical_or = _logical("logical_or", lax.bitwise_or)
logical_xor = _logical("logical_xor", lax.bitwise_xor)


@util.compiled_when_eager
def logical_not(x: Any, /) -> Any:
    """Elementwise negation of the operand's truth values."""
    x, = util.promote_args("logical_not", x)
    return lax.bitwise_not(_as_bool(x))


bitwise_and = _binary("bitwise_and", lax.bitwise_and, "Elementwise bitwise and (logical and for booleans).")
bitwise_or = _binary("bitwise_or", lax.bitwise_or, "Elementwise bitwise or (logical or for booleans).")
bitwise_xor = _binary("bitwise_xor", lax.bitwise_xor, "Elementwise bitwise xor (logical xor for booleans).")


@util.compiled_when_eager
def invert(x: Any, /) -> Any:
    """Elementwise bitwise not (logical not for booleans)."""
    x, = util.promote_args("invert", x)
    return lax.bitwise_not(x)


bitwise_not, bitwise_invert = _unary_alias("bitwise_not", invert), _unary_alias("bitwise_invert", invert)


@util.compiled_when_eager
def left_shift(x: Any, y: Any, /) -> Any:
    """Elementwise ``x << y`` (booleans become the default integer)."""
    return lax.shift_left(*util.promote_args_numeric("left_shift", x, y))


@util.compiled_when_eager
def right_shift(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``x1 >> x2``: arithmetic for signed integers, logical for unsigned ones."""
    x1, x2 = util.promote_args_numeric("right_shift", x1, x2)
    shift = lax.shift_right_logical if _is(x1, np.unsignedinteger) else lax.shift_right_arithmetic
    return shift(x1, x2)


@util.compiled_when_eager
def bitwise_left_shift(x: Any, y: Any, /) -> Any:
    """``left_shift`` under the array API's name."""
    return left_shift(x, y)


@util.compiled_when_eager
def bitwise_right_shift(x1: Any, x2: Any, /) -> Any:
    """``right_shift`` under the array API's name."""
    return right_shift(x1, x2)


@util.named_jit("bitwise_count")
def bitwise_count(x: Any, /) -> Any:
    """The number of set bits in each element's absolute value, as uint8."""
    x, = util.promote_args_numeric("bitwise_count", x)
    return lax.convert_element_type(lax.population_count(absolute(x)), np.uint8)




# ---------------------------------------------------------------- floating-point manipulation


@util.named_jit("copysign")
def copysign(x1: Any, x2: Any, /) -> Any:
    """``x1``'s magnitude with ``x2``'s sign bit, elementwise."""
    x1, x2 = util.promote_args_inexact("copysign", x1, x2)
    if _is(x1, np.complexfloating):
        raise TypeError("copysign does not support complex-valued inputs")
    return _where(signbit(x2), lax.neg(lax.abs(x1)), lax.abs(x1))




@util.compiled_when_eager
def spacing(x: Any, /) -> Any:
    """The distance from each element to the next representable value away from zero."""
    x, = util.promote_args_inexact("spacing", x)
    if _is(x, np.complexfloating):
        raise ValueError("jnp.spacing is not defined for complex inputs.")
    dtype = _dtype(x)
    if dtype == np.float16:  # JAX's float16 spacing: the step towards +inf, whatever the sign
        return lax.sub(lax.nextafter(x, util.scalar_like(x, np.inf)), x)
    result = lax.sub(lax.nextafter(x, copysign(util.scalar_like(x, np.inf), x)), x)
    is_zero = lax.eq(result, util.zero_of(result))
    return _where(is_zero, copysign(util.scalar_like(x, _finfo(dtype).smallest_subnormal), x), result)


def _frexp_body(x: Any) -> tuple[Any, Any]:
    dtype = _dtype(x)
    info = _finfo(dtype)
    int_dtype = np.dtype(f"int{dtype.itemsize * 8}")

    def int_literal(value: int) -> np.generic:
        return np.array(value, np.int64).astype(int_dtype)[()]

    mask = (1 << info.nexp) - 1
    bias = 1 - info.minexp
    is_subnormal = lax.lt(lax.abs(x), util.scalar_like(x, info.smallest_normal))
    x_normal = _where(is_subnormal, lax.mul(x, util.scalar_like(x, 2.0 ** info.nmant)), x)
    offset = _where(is_subnormal, int_literal(-info.nmant), int_literal(0))
    bits = lax.bitcast_convert_type(x_normal, int_dtype)
    biased = lax.bitwise_and(lax.shift_right_arithmetic(bits, int_literal(info.nmant)), int_literal(mask))
    exponent = lax.add(offset, lax.add(lax.sub(biased, int_literal(bias)), int_literal(1)))
    cleared = lax.bitwise_and(bits, int_literal(~(mask << info.nmant)))
    mantissa = lax.bitcast_convert_type(lax.bitwise_or(cleared, int_literal((bias - 1) << info.nmant)), dtype)
    special = lax.bitwise_or(lax.bitwise_or(isinf(x), lax.ne(x, x)), lax.eq(x, util.zero_of(x)))
    exponent = _where(special, lax.full_like(exponent, 0), exponent)
    return _where(special, x, mantissa), lax.convert_element_type(exponent, np.int32)


_frexp_body.__name__ = _frexp_body.__qualname__ = "_frexp"
_frexp = custom_jvp(_frexp_body)


def _frexp_jvp(primals, tangents):
    x, = primals
    t, = tangents
    mantissa, exponent = frexp(x)
    scale = lax.exp2(lax.neg(lax.convert_element_type(exponent, _dtype(x))))
    return (mantissa, exponent), (lax.mul(t, scale), np.zeros(get_aval(exponent).shape, dtypes.float0))


_frexp.defjvp(_frexp_jvp)


@util.named_jit("frexp")
def frexp(x: Any, /) -> tuple[Any, Any]:
    """Each element as ``mantissa * 2 ** exponent`` with ``0.5 <= |mantissa| < 1``."""
    util.check_arraylike("frexp", x)
    x, = util.promote_args_inexact("frexp", x)
    if _is(x, np.complexfloating):
        raise TypeError("frexp does not support complex-valued inputs")
    return _frexp(x)




@util.named_jit("ldexp")
def ldexp(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``x1 * 2 ** x2`` for an integer ``x2``."""
    util.check_arraylike("ldexp", x1, x2)
    x1_dtype, x2_dtype = _dtype(x1), _dtype(x2)
    if dtypes.issubdtype(x1_dtype, np.complexfloating) or dtypes.issubdtype(x2_dtype, np.inexact):
        raise ValueError(f"ldexp not supported for input types {(x1_dtype, x2_dtype)}")
    # the dtype is x1's made inexact, as JAX's (with x64, ldexp(bool, 1) is float32 and ldexp(1, uint8) float64)
    x1, = util.promote_dtypes_inexact(x1)
    x2 = util.ensure_array(x2)
    x2 = convert_keeping_weak_type(x2, _dtype(x1), get_aval(x1).weak_type and get_aval(x2).weak_type)
    x1, x2 = util.promote_shapes("ldexp", x1, x2)
    mantissa, exponent = frexp(x1)
    exponent = lax.add(lax.convert_element_type(exponent, _dtype(x1)), x2)
    positive_exponent = lax.gt(exponent, util.zero_of(exponent))
    mantissa = _where(positive_exponent, lax.mul(mantissa, util.scalar_like(mantissa, 2)), mantissa)
    positive_exponent = lax.gt(exponent, util.zero_of(exponent))
    exponent = _where(positive_exponent, lax.sub(exponent, util.scalar_like(exponent, 1)), exponent)
    x = lax.mul(mantissa, lax.pow(util.scalar_like(exponent, 2), exponent))
    return _where(lax.bitwise_or(isinf(x1), lax.eq(x1, util.zero_of(x1))), x1, x)




@util.named_jit("heaviside")
def heaviside(x1: Any, x2: Any, /) -> Any:
    """0 for negative ``x1``, 1 for positive, ``x2`` where ``x1`` is zero."""
    util.check_arraylike("heaviside", x1, x2)
    x1, x2 = util.promote_dtypes_inexact(x1, x2)
    negative = lax.lt(x1, util.weak_scalar_like(x1, 0))
    positive = lax.gt(x1, util.weak_scalar_like(x1, 0))
    nan = lax.ne(x1, x1)
    one = util.weak_scalar_like(x1, 1)
    return _where(negative, util.weak_scalar_like(x1, 0), _where(positive, one, _where(nan, x1, x2)))




@util.named_jit("hypot")
def hypot(x1: Any, x2: Any, /) -> Any:
    """Elementwise ``sqrt(x1**2 + x2**2)`` without overflow or underflow."""
    x1, x2 = util.promote_args_inexact("hypot", x1, x2)
    if _is(x1, np.complexfloating):
        raise ValueError("jnp.hypot is not well defined for complex-valued inputs. Please convert to real values "
                         "first, such as by using abs(x)")
    x1, x2 = lax.abs(x1), lax.abs(x2)
    inf = util.scalar_like(x1, np.inf)
    idx_inf = lax.bitwise_or(lax.eq(x1, inf), lax.eq(x2, inf))
    x1, x2 = lax.max(x1, x2), lax.min(x1, x2)
    zero = lax.eq(x1, util.weak_scalar_like(x1, 0))
    safe = _where(lax.eq(x1, util.weak_scalar_like(x1, 0)), lax.full_like(x1, 1), x1)
    ratio = lax.square(lax.div(x2, safe))
    x = _where(zero, x1, lax.mul(x1, lax.sqrt(add(1, ratio))))
    return _where(idx_inf, util.weak_scalar_like(x1, np.inf), x)




def _sinc_maclaurin_body(k: int, x: Any) -> Any:
    # the k-th derivative of sinc at zero: 0 for odd k, (-1)^(k/2) / (k + 1) for even k (x * 0 keeps x's shape)
    zero = lax.mul(x, util.weak_scalar_like(x, 0))
    if k % 2:
        return zero
    return lax.add(zero, util.weak_scalar_like(x, (-1) ** (k // 2) / (k + 1)))


_sinc_maclaurin_body.__name__ = _sinc_maclaurin_body.__qualname__ = "_sinc_maclaurin"
_sinc_maclaurin = custom_jvp(_sinc_maclaurin_body, nondiff_argnums=(0,))


def _sinc_maclaurin_jvp(k: int, primals, tangents):
    x, = primals
    t, = tangents
    return _sinc_maclaurin(k, x), lax.mul(_sinc_maclaurin(k + 1, x), t)


_sinc_maclaurin.defjvp(_sinc_maclaurin_jvp)


@util.named_jit("sinc")
def sinc(x: Any, /) -> Any:
    """Elementwise ``sin(pi x) / (pi x)``, 1 at zero (with every derivative exact there)."""
    x, = util.promote_args_inexact("sinc", x)
    eq_zero = lax.eq(x, util.weak_scalar_like(x, 0))
    pi_x = lax.mul(util.weak_scalar_like(x, np.pi), x)
    safe_pi_x = _where(eq_zero, util.weak_scalar_like(x, 1), pi_x)
    return _where(eq_zero, _sinc_maclaurin(0, pi_x), lax.div(lax.sin(safe_pi_x), safe_pi_x))




def _i0_body(x: Any) -> Any:
    magnitude = lax.abs(x)
    return lax.mul(lax.exp(magnitude), lax.bessel_i0e(magnitude))


_i0_body.__name__ = _i0_body.__qualname__ = "_i0"
_i0_custom = custom_jvp(_i0_body)


def _i0_jvp(primals, tangents):
    x, = primals
    # the derivative of exp(|x|) i0e(|x|) as differentiation gives it, except at 0 where |x| has no derivative
    primal_out, tangent_out = jvp(_i0_body, primals, tangents)
    return primal_out, _where(lax.eq(x, util.zero_of(x)), 0.0, tangent_out)


_i0_custom.defjvp(_i0_jvp)


@util.named_jit("i0")
def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind, order zero."""
    x, = util.promote_args_inexact("i0", x)
    if _is(x, np.complexfloating):
        raise ValueError(f"Unsupported input type to jax.numpy.i0: {_dtype(x)}")
    return _i0_custom(x)




# ---------------------------------------------------------------- gcd, lcm


def _gcd_cond(xs: tuple[Any, Any]) -> Any:
    _, x2 = xs
    nonzero = lax.ne(x2, util.weak_scalar_like(x2, 0))
    return lax.reduce_or(util.strip_weak_type(nonzero), tuple(range(get_aval(nonzero).ndim)))


def _gcd_body(xs: tuple[Any, Any]) -> tuple[Any, Any]:
    x1, x2 = xs
    x1, x2 = (_where(lax.ne(x2, util.weak_scalar_like(x2, 0)), x2, x1),
              _where(lax.ne(x2, util.weak_scalar_like(x2, 0)), lax.rem(x1, x2), util.weak_scalar_like(x2, 0)))
    return _where(lax.lt(x1, x2), x2, x1), _where(lax.lt(x1, x2), x1, x2)


def _integer_args(name: str, x1: Any, x2: Any) -> list[Any]:
    util.check_arraylike(name, x1, x2)
    if not dtypes.issubdtype(dtypes.result_type(x1, x2), np.integer):
        raise ValueError(f"Arguments to jax.numpy.{name} must be integers.")
    return util.promote_args_numeric(name, x1, x2)


@util.named_jit("gcd")
def gcd(x1: Any, x2: Any) -> Any:
    """Elementwise greatest common divisor of the absolute values."""
    x1, x2 = broadcast_together("gcd", *_integer_args("gcd", x1, x2))
    result, _ = lax.while_loop(_gcd_cond, _gcd_body, (absolute(x1), absolute(x2)))
    return result


@util.named_jit("lcm")
def lcm(x1: Any, x2: Any) -> Any:
    """Elementwise least common multiple of the absolute values (0 where either is 0)."""
    x1, x2 = _integer_args("lcm", x1, x2)
    x1, x2 = absolute(x1), absolute(x2)
    divisor = gcd(x1, x2)
    is_zero = lax.eq(divisor, util.weak_scalar_like(divisor, 0))
    return _where(is_zero, util.weak_scalar_like(x1, 0), lax.mul(x1, floor_divide(x2, divisor)))




# ---------------------------------------------------------------- clip, closeness, equality

_CLIP_COMPLEX = ("Clip received a complex value either through the input or the min/max keywords. Complex values "
                 "have no ordering and cannot be clipped. Please convert to a real value or array by taking the "
                 "real or imaginary components via jax.numpy.real/imag respectively.")


@util.named_jit("clip")
def clip(arr: Any = None, /, min: Any = None, max: Any = None) -> Any:  # noqa: A002 - NumPy's names
    """``arr`` with elements below ``min`` raised to it and those above ``max`` lowered to it."""
    util.check_arraylike("clip", arr)
    bounds = [b for b in (min, max) if b is not None]
    util.check_arraylike("clip", *bounds)
    if any(_is(b, np.complexfloating) for b in (arr, *bounds)):
        raise ValueError(_CLIP_COMPLEX)
    if min is not None:
        arr = maximum(min, arr)
    if max is not None:
        arr = minimum(max, arr)
    return util.as_array(arr)




@util.named_jit("isclose", ("equal_nan",))
def isclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """Whether ``|a - b| <= atol + rtol * |b|`` elementwise (infinities close only to themselves)."""
    util.check_arraylike("isclose", a, b)
    a, b = util.promote_args_inexact("isclose", a, b)
    tolerance_dtype = _real_dtype(_dtype(a))
    rtol = lax.convert_element_type(rtol, tolerance_dtype)
    atol = lax.convert_element_type(atol, tolerance_dtype)
    both_nan = lax.bitwise_and(isnan(a), isnan(b))
    finite_b = isfinite(b)
    within = lax.le(lax.abs(lax.sub(a, b)), lax.add(atol, lax.mul(rtol, lax.abs(b))))
    out = lax.bitwise_or(lax.eq(a, b), lax.bitwise_and(finite_b, within))
    return lax.bitwise_or(out, both_nan) if equal_nan else out




def _all(x: Any) -> Any:
    return lax.reduce_and(util.strip_weak_type(x), tuple(range(get_aval(x).ndim)))


@util.named_jit("allclose", ("equal_nan",))
def allclose(a: Any, b: Any, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: bool = False) -> Any:
    """Whether every element of ``a`` is close to ``b`` (``isclose``)."""
    util.check_arraylike("allclose", a, b)
    return _all(isclose(a, b, rtol, atol, equal_nan))




def _array_like(x: Any) -> Any:
    """``x`` as an array, lists and tuples included (NumPy's conversion); None if it is not array data. Strings
    and lists of them get JAX's TypeError (it converts both operands before comparing)."""
    if isinstance(x, (list, tuple)):
        try:
            x = np.asarray(x)
        except ValueError:
            return None
        if x.dtype.kind in "US":
            raise util.invalid_value_error(x, x.dtype)
    return util.ensure_array(x) if util.is_arraylike(x) or isinstance(x, (str, bytes)) else None


def array_equal(a1: Any, a2: Any, equal_nan: bool = False) -> Any:
    """Whether ``a1`` and ``a2`` have the same shape and elements (NaNs equal if ``equal_nan``)."""
    a1, a2 = _array_like(a1), _array_like(a2)
    if a1 is None or a2 is None:
        return np.bool_(False)
    if get_aval(a1).shape != get_aval(a2).shape:
        # JAX's answer is an array: computed now outside transformations, a literal of the jaxpr inside them
        unequal = np.bool_(False)
        return current_backend().device_put(unequal) if core.evaluates_eagerly([a1, a2]) else unequal
    eq = equal(a1, a2)
    if equal_nan:
        eq = lax.bitwise_or(eq, lax.bitwise_and(isnan(a1), isnan(a2)))
    return _all(eq)


def array_equiv(a1: Any, a2: Any) -> Any:
    """Whether ``a1`` and ``a2`` broadcast to each other and are equal everywhere."""
    a1, a2 = _array_like(a1), _array_like(a2)
    if a1 is None or a2 is None:
        return np.bool_(False)
    try:
        eq = equal(a1, a2)
    except ValueError:
        return np.bool_(False)
    return _all(eq)


# ---------------------------------------------------------------- the ufunc objects and their fast methods


def _jnp_reduction(name: str) -> Any:
    """The fast ``reduce`` of a ufunc that is one of jnp's reductions (``add.reduce`` is ``jnp.sum``,
    ``logical_and.reduce`` JAX's ``_reduce_logical_and``)."""
    def reduce(a: Any, *, axis: Any, dtype: Any, keepdims: bool, initial: Any, where: Any) -> Any:
        from jaxle_numpy import reductions  # noqa: PLC0415 - the reductions build on the elementwise functions

        kwargs = dict(axis=axis, keepdims=keepdims, initial=initial, where=where)
        reduction = getattr(reductions, name)
        if name == "min" and dtype is not None:  # JAX's _reduce_min takes a dtype (jnp.min does not)
            reduction = reductions.reduce_min
        if name == "max" and dtype is not None:  # JAX's jitted _reduce_max takes none: refused as an argument
            util.check_jitted_arguments(reductions.max, traced_name="_reduce_max", dtype=dtype)
        elif name not in ("max", "min") or dtype is not None:
            kwargs["dtype"] = dtype
        return reduction(a, **kwargs)
    return reduce


_LN2 = float(np.log(2))


def _logsumexp(base2: bool) -> Any:
    """The fast ``reduce`` of ``logaddexp`` (of ``logaddexp2``: of the operand times ln 2, divided by ln 2), as
    JAX's: ``log(sum(exp(a)))`` shifted by the finite maximum, in an inexact dtype; a ``dtype`` given is checked
    (a 64-bit one with x64 off warns, naming the method) and then unused."""
    def reduce(a: Any, *, axis: Any, dtype: Any, keepdims: bool, initial: Any, where: Any) -> Any:
        from jaxle_numpy import reductions  # noqa: PLC0415 - the reductions build on the elementwise functions

        if dtype is not None:
            util.requested_dtype(dtype, f"jnp.{'logaddexp2' if base2 else 'logaddexp'}.reduce")
        if base2:
            initial = None if initial is None else initial * _LN2
            a = util.as_array(a) * _LN2
        a, = util.promote_dtypes_inexact(a)
        axes = reductions.reduction_axes(axis, get_aval(a).ndim)
        amax = reductions.max(real(a), axis=axes, keepdims=keepdims, where=where, initial=-np.inf)
        amax = lax.stop_gradient(lax.select_n(lax.is_finite(amax), lax.full_like(amax, 0), amax))
        shift = _converted(amax if keepdims else lax.expand_dims(amax, axes), get_aval(a).dtype)
        total = reductions.sum(lax.exp(lax.sub(a, shift)), axis=axes, keepdims=keepdims, where=where)
        result = lax.add(lax.log(total), _converted(amax, get_aval(total).dtype))
        if initial is not None:  # unpromoted, as JAX's
            result = lax_logaddexp.logaddexp(initial, result)
        return result / _LN2 if base2 else result
    return reduce


def _converted(x: Any, dtype: np.dtype) -> Any:
    return x if get_aval(x).dtype == dtype else lax.convert_element_type(x, dtype)


def _jnp_cumulative(name: str) -> Any:
    """The fast ``accumulate`` of a ufunc that is one of jnp's cumulative reductions (``jnp.cumsum``)."""
    def accumulate(a: Any, *, axis: int | None, dtype: Any) -> Any:
        from jaxle_numpy import cumulative  # noqa: PLC0415 - the reductions build on the elementwise functions

        return getattr(cumulative, name)(a, axis=axis, dtype=dtype)
    return accumulate


def _add_at(a: Any, indices: Any, b: Any) -> Any:
    return a.at[indices].add(b)


def _subtract_at(a: Any, indices: Any, b: Any) -> Any:
    return a.at[indices].subtract(b)


def _multiply_at(a: Any, indices: Any, b: Any) -> Any:
    return a.at[indices].multiply(b)


add = ufunc(add, name="add", nin=2, nout=1, identity=0, call=add,
            reduce=_jnp_reduction("sum"),
            accumulate=_jnp_cumulative("cumsum"), at=_add_at)
multiply = ufunc(multiply, name="multiply", nin=2, nout=1, identity=1, call=multiply,
                 reduce=_jnp_reduction("prod"),
                 accumulate=_jnp_cumulative("cumprod"), at=_multiply_at)
subtract = ufunc(subtract, name="subtract", nin=2, nout=1, call=subtract, at=_subtract_at)
maximum = ufunc(maximum, name="maximum", nin=2, nout=1, call=maximum,
                reduce=_jnp_reduction("max"))
minimum = ufunc(minimum, name="minimum", nin=2, nout=1, call=minimum,
                reduce=_jnp_reduction("min"))
negative = ufunc(negative, name="negative", nin=1, nout=1, call=negative)
logaddexp = ufunc(logaddexp, name="logaddexp", nin=2, nout=1, identity=-np.inf, call=logaddexp,
                  reduce=_logsumexp(base2=False))
logaddexp2 = ufunc(logaddexp2, name="logaddexp2", nin=2, nout=1, identity=-np.inf, call=logaddexp2,
                   reduce=_logsumexp(base2=True))
logical_and = ufunc(logical_and, name="logical_and", nin=2, nout=1, identity=True, call=logical_and,
                    reduce=_jnp_reduction("reduce_logical_and"))
logical_or = ufunc(logical_or, name="logical_or", nin=2, nout=1, identity=False, call=logical_or,
                   reduce=_jnp_reduction("reduce_logical_or"))
logical_xor = ufunc(logical_xor, name="logical_xor", nin=2, nout=1, identity=False, call=logical_xor,
                    reduce=_jnp_reduction("reduce_logical_xor"))
bitwise_and = ufunc(bitwise_and, name="bitwise_and", nin=2, nout=1, identity=-1, call=bitwise_and,
                    reduce=_jnp_reduction("reduce_bitwise_and"))
bitwise_or = ufunc(bitwise_or, name="bitwise_or", nin=2, nout=1, identity=0, call=bitwise_or,
                   reduce=_jnp_reduction("reduce_bitwise_or"))
bitwise_xor = ufunc(bitwise_xor, name="bitwise_xor", nin=2, nout=1, identity=0, call=bitwise_xor,
                    reduce=_jnp_reduction("reduce_bitwise_xor"))
