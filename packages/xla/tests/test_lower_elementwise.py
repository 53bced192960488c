"""XLA lowering of the elementwise primitives, ``copy`` and ``stop_gradient``, checked against core's reference.

Each test stages several primitives into one function, so that one compilation covers them, and runs it on
random values and on special values (zeros of both signs, infinities, NaN, integer extremes, zero divisors).
"""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.lax.identity import copy_p

SIGNED = [np.int8, np.int16, np.int32, np.int64]
UNSIGNED = [np.uint8, np.uint16, np.uint32, np.uint64]
INTEGERS = SIGNED + UNSIGNED
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
# Parts of the complex special values. Complex infinities and NaNs are left out: the reference follows NumPy's
# C99 rules there (exp(inf+infj) = inf+nanj, |inf+nanj| = inf, ...), where XLA and JAX give other values.
COMPLEX_PARTS = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.5])


@pytest.fixture(autouse=True)
def x64():
    with enable_x64(True):
        yield


def eager_for(dtype) -> bool:
    """Whether to also run op by op: each eager op compiles on its own, so only for float32 and int32."""
    return np.dtype(dtype) in (np.dtype(np.float32), np.dtype(np.int32))


def _name(dtype) -> str:
    return np.dtype(dtype).name


def floats(dtype, n: int = 64, seed: int = 0) -> np.ndarray:
    """Random values of a float dtype followed by FLOAT_EDGES (1e30 overflows to inf in 16-bit types)."""
    with np.errstate(over="ignore"):
        edges = FLOAT_EDGES.astype(dtype)
    return np.concatenate([random_values(np.random.default_rng(seed), (n,), dtype), edges])


def float_pairs(dtype) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of FLOAT_EDGES, then random pairs."""
    x, y = floats(dtype, seed=1), floats(dtype, seed=2)
    edges = x[-len(FLOAT_EDGES):]
    return np.concatenate([np.repeat(edges, len(edges)), x]), np.concatenate([np.tile(edges, len(edges)), y])


def complexes(dtype, n: int = 64, seed: int = 0) -> np.ndarray:
    """Random complex values, then every complex number whose parts are in COMPLEX_PARTS."""
    n_parts = len(COMPLEX_PARTS)
    special = np.empty(n_parts**2, dtype)
    special.real, special.imag = np.repeat(COMPLEX_PARTS, n_parts), np.tile(COMPLEX_PARTS, n_parts)
    return np.concatenate([random_values(np.random.default_rng(seed), (n,), dtype), special])


def integers(dtype, n: int = 64, seed: int = 0) -> np.ndarray:
    """Random integers of the full range followed by the extremes and small values."""
    info = np.iinfo(dtype)
    special = [0, 1, 2, 7, info.max, info.max - 1] + ([-1, -2, info.min, info.min + 1] if info.min else [])
    return np.concatenate([random_values(np.random.default_rng(seed), (n,), dtype), np.array(special, dtype)])


def integer_pairs(dtype) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of the special integers (zero divisors, INT_MIN and -1 among them), then random pairs."""
    x, y = integers(dtype, seed=1), integers(dtype, seed=2)
    special = x[64:]
    return np.concatenate([np.repeat(special, len(special)), x]), np.concatenate([np.tile(special, len(special)), y])


# ---------------------------------------------------------------- real floats


def _float_math(x):
    return (lax.neg(x), lax.sign(x), lax.abs(x), lax.floor(x), lax.ceil(x), lax.round(x, 0), lax.round(x, 1),
            lax.is_finite(x), lax.exp(x), lax.expm1(x), lax.log(x), lax.log1p(x), lax.sin(x), lax.cos(x),
            lax.tan(x), lax.asin(x), lax.acos(x), lax.atan(x), lax.sinh(x), lax.cosh(x), lax.tanh(x),
            lax.asinh(x), lax.acosh(x), lax.atanh(x), lax.sqrt(x), lax.rsqrt(x), lax.cbrt(x), lax.square(x))


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
def test_unary_float_math(dtype):
    check_against_reference(_float_math, floats(dtype), eager=eager_for(dtype))


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
def test_exp2_and_logistic(dtype):
    # JAX computes exp2 as exp(x * log 2) and logistic as 1 / (1 + exp(-x)) in the operand's own dtype, where the
    # reference computes 16-bit floats in float32: float16's exp2 is off by up to 0.3% here, and its logistic(x)
    # underflows to 0 below x = -11 (exp(-x) overflows), so the values stay above -11.
    x = floats(dtype)
    x = x[~(x.astype(np.float32) < -11)]
    rtol = 5e-3 if dtype == np.float16 else None
    check_against_reference(lambda x: (lax.exp2(x), lax.logistic(x)), x, rtol=rtol, eager=eager_for(dtype))


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
def test_integer_pow_floats(dtype):
    powers = [0, 1, 2, 3, 4, 7, 12, -1, -2, -3, -5]
    check_against_reference(lambda x: [lax.integer_pow(x, y) for y in powers], floats(dtype), eager=eager_for(dtype))


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
def test_binary_float(dtype):
    def f(x, y):
        return (lax.add(x, y), lax.sub(x, y), lax.mul(x, y), lax.div(x, y), lax.rem(x, y), lax.pow(x, y),
                lax.max(x, y), lax.min(x, y), lax.nextafter(x, y), lax.atan2(x, y), lax.eq(x, y), lax.ne(x, y),
                lax.lt(x, y), lax.le(x, y), lax.gt(x, y), lax.ge(x, y))

    check_against_reference(f, *float_pairs(dtype), eager=eager_for(dtype))


def test_signed_zeros():
    # atan2 picks the quadrant from the signs of zeros; max/min order -0 below +0; rem keeps the dividend's sign.
    zeros = np.array([0.0, -0.0, 0.0, -0.0], np.float32)
    others = np.array([0.0, 0.0, -0.0, -0.0], np.float32)

    def f(x, y):
        return lax.atan2(x, y), lax.max(x, y), lax.min(x, y), lax.sign(x), lax.rem(x, lax.add(y, np.float32(1.5)))

    check_against_reference(f, zeros, others)
    check_against_reference(lambda x: lax.rem(x, lax.neg(x)), np.array([-5.5, 5.5, -0.0, 7.0], np.float64))


def test_round_breaks_ties_by_method():
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.0, 2.0**23 + 1], np.float32)
    check_against_reference(lambda x: (lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
                                       lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN)), x)


def test_nextafter_steps_one_ulp():
    x = np.array([0.0, 0.0, -0.0, 1.0, 1.0, np.inf, -np.inf, np.nan, 3.0, np.finfo(np.float32).max], np.float32)
    y = np.array([1.0, -1.0, 1.0, 2.0, 0.0, 0.0, 0.0, 1.0, 3.0, np.inf], np.float32)
    check_against_reference(lax.nextafter, x, y)


@pytest.mark.parametrize("dtype", FLOATS, ids=_name)
def test_pow_with_integer_exponents(dtype):
    x = floats(dtype)
    signed = np.resize(np.array([0, 1, 2, 3, 5, -1, -2, 100]), x.shape)
    unsigned = np.resize(np.array([0, 1, 3, 200]), x.shape)
    exponents = [signed.astype(np.int8), signed.astype(np.int32), signed.astype(np.int64), unsigned.astype(np.uint8)]
    check_against_reference(lambda x, *ys: [lax.pow(x, y) for y in ys], x, *exponents, eager=eager_for(dtype))


def test_is_finite_and_classification():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308, -1e-300], np.float64)
    check_against_reference(lambda x: (lax.is_finite(x), lax.sign(x), lax.abs(x)), x)


# ---------------------------------------------------------------- complex


def _complex_math(x):
    return (lax.neg(x), lax.sign(x), lax.abs(x), lax.real(x), lax.imag(x), lax.conj(x), lax.exp(x), lax.exp2(x),
            lax.expm1(x), lax.log(x), lax.log1p(x), lax.logistic(x), lax.sin(x), lax.cos(x), lax.tan(x),
            lax.asin(x), lax.acos(x), lax.atan(x), lax.sinh(x), lax.cosh(x), lax.tanh(x), lax.asinh(x),
            lax.acosh(x), lax.atanh(x), lax.sqrt(x), lax.rsqrt(x), lax.square(x), lax.integer_pow(x, 3),
            lax.integer_pow(x, 6), lax.integer_pow(x, -2), lax.integer_pow(x, 0))


@pytest.mark.parametrize("dtype", COMPLEX, ids=_name)
def test_unary_complex_math(dtype):
    check_against_reference(_complex_math, complexes(dtype), eager=eager_for(dtype))


@pytest.mark.parametrize("dtype", COMPLEX, ids=_name)
def test_binary_complex(dtype):
    x, y = complexes(dtype, seed=1), complexes(dtype, seed=2)
    y = np.where(y == 0, np.array(1 + 1j, dtype), y)  # division by a complex zero: signs of the infinities differ

    def f(x, y):
        return (lax.add(x, y), lax.sub(x, y), lax.mul(x, y), lax.div(x, y), lax.max(x, y), lax.min(x, y),
                lax.eq(x, y), lax.ne(x, y))

    check_against_reference(f, x, y, eager=eager_for(dtype))
    # Complex atan2 is -i log((y + ix) / sqrt(x^2 + y^2)): XLA loses the last bits near a zero result.
    check_against_reference(lax.atan2, x, y, atol=10 * np.finfo(dtype).eps, eager=eager_for(dtype))
    # Exponents kept small: XLA computes complex powers as exp(y log x) and the error grows with y.
    check_against_reference(lax.pow, x, y * np.array(0.5, dtype))
    check_against_reference(lax.pow, x, np.resize(np.array([0, 1, 2, 3, -1, -3], np.int32), x.shape))


def test_complex_max_min_compare_lexicographically():
    x = np.array([1 + 5j, 1 + 2j, 2 - 9j, -0.0 + 1j, np.nan + 0j, 3 + 0j], np.complex64)
    y = np.array([1 + 2j, 1 + 5j, 1 + 9j, 0.0 + 1j, 3 + 0j, np.nan + 0j], np.complex64)
    check_against_reference(lambda x, y: (lax.max(x, y), lax.min(x, y), lax.eq(x, y), lax.ne(x, y)), x, y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=_name)
def test_complex_from_and_conj_of_real_parts(dtype):
    x, y = float_pairs(dtype)
    check_against_reference(lambda x, y: (lax.complex(x, y), lax.conj(x), lax.conj(lax.complex(x, y))), x, y)


def test_complex_results_that_overflow():
    # With a zero real part, the real part of sin (imaginary part of cos) is exactly 0 even when cosh overflows;
    # x ** 3 is (x * x) * x, whose infinities differ from x * (x * x)'s.
    x = np.array([1e30j, -1e30j, 100j, -0.0 + 100j, 1e-30j, 0j, 65504 - 1e30j], np.complex64)
    check_against_reference(lambda x: (lax.sin(x), lax.cos(x), lax.integer_pow(x, 3)), x)


# ---------------------------------------------------------------- integers and booleans


@pytest.mark.parametrize("dtype", INTEGERS, ids=_name)
def test_integer_arithmetic(dtype):
    def f(x, y):
        return (lax.add(x, y), lax.sub(x, y), lax.mul(x, y), lax.div(x, y), lax.rem(x, y), lax.max(x, y),
                lax.min(x, y), lax.mulhi(x, y), lax.eq(x, y), lax.ne(x, y), lax.lt(x, y), lax.le(x, y),
                lax.gt(x, y), lax.ge(x, y), lax.bitwise_and(x, y), lax.bitwise_or(x, y), lax.bitwise_xor(x, y))

    check_against_reference(f, *integer_pairs(dtype), eager=eager_for(dtype))


@pytest.mark.parametrize("dtype", INTEGERS, ids=_name)
def test_integer_unary(dtype):
    def f(x):
        outs = (lax.neg(x), lax.sign(x), lax.square(x), lax.bitwise_not(x), lax.population_count(x), lax.clz(x),
                lax.integer_pow(x, 0), lax.integer_pow(x, 1), lax.integer_pow(x, 3), lax.integer_pow(x, 5))
        return outs + ((lax.abs(x),) if np.issubdtype(dtype, np.signedinteger) else ())

    check_against_reference(f, integers(dtype), eager=eager_for(dtype))


def test_integer_division_by_zero_and_overflow():
    # x / 0 is -1 (all ones unsigned), x % 0 is x, INT_MIN / -1 wraps to INT_MIN and INT_MIN % -1 is 0.
    x = np.array([7, -7, 0, -128, -128, 127, -128, 5], np.int8)
    y = np.array([0, 0, 0, -1, 1, -1, 0, -3], np.int8)
    check_against_reference(lambda x, y: (lax.div(x, y), lax.rem(x, y), lax.abs(x), lax.neg(x)), x, y)
    u, v = np.array([7, 0, 255, 200], np.uint8), np.array([0, 0, 0, 7], np.uint8)
    check_against_reference(lambda x, y: (lax.div(x, y), lax.rem(x, y), lax.sign(x)), u, v)


@pytest.mark.parametrize("dtype", INTEGERS, ids=_name)
def test_shifts_past_the_bit_width(dtype):
    bits = np.dtype(dtype).itemsize * 8
    amounts = np.arange(-3, bits + 3).astype(dtype)  # negative amounts read as huge unsigned ones
    x = np.resize(integers(dtype), amounts.shape)

    def f(x, y):
        return lax.shift_left(x, y), lax.shift_right_logical(x, y), lax.shift_right_arithmetic(x, y)

    check_against_reference(f, x, amounts, eager=eager_for(dtype))
    check_against_reference(f, np.full(amounts.shape, np.iinfo(dtype).min, dtype), amounts, eager=False)


def test_booleans():
    x = np.array([False, False, True, True])
    y = np.array([False, True, False, True])

    def f(x, y):
        return (lax.bitwise_and(x, y), lax.bitwise_or(x, y), lax.bitwise_xor(x, y), lax.bitwise_not(x),
                lax.eq(x, y), lax.ne(x, y), lax.lt(x, y), lax.le(x, y), lax.gt(x, y), lax.ge(x, y), lax.max(x, y),
                lax.min(x, y))

    check_against_reference(f, x, y)


def test_mul_with_out_dtype():
    x = np.array([1, -2, 127, -128], np.int8)
    y = np.array([3, 100000, -7, 2**30], np.int32)
    check_against_reference(lambda x, y: (lax.mul(x, y, out_dtype=np.float32), lax.mul(x, y, out_dtype=np.int8),
                                          lax.mul(x, y, out_dtype=np.int64)), x, y)


# ---------------------------------------------------------------- shapes


def test_scalar_operands_and_size_one_dimensions_broadcast():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    row = np.array([[1.0, -2.0, 0.5]], np.float32)
    check_against_reference(lambda x, r: (lax.add(x, np.float32(2)), lax.pow(x, np.int32(2)), lax.lt(r, x),
                                          lax.atan2(np.float32(1), x), lax.sub(r, x), lax.complex(x, r)), x, row)


def test_rank_zero_and_empty_operands():
    scalar = np.float32(-1.5)
    empty = np.zeros((0, 3), np.float32)
    check_against_reference(lambda x: (lax.exp(x), lax.sign(x), lax.integer_pow(x, 3), lax.lt(x, x)), scalar)
    check_against_reference(lambda x: (lax.exp(x), lax.sin(x), lax.integer_pow(x, -2), lax.eq(x, x),
                                       lax.complex(x, x), lax.max(x, x)), empty)


# ---------------------------------------------------------------- identity


def test_copy_and_stop_gradient_return_the_operand():
    rng = np.random.default_rng(0)
    xs = [random_values(rng, (2, 3), dtype) for dtype in [np.bool_, np.int8, np.uint64, np.float16, np.complex64]]
    check_against_reference(lambda *xs: [f(x) for x in xs for f in (copy_p.bind, lax.stop_gradient)], *xs)


@pytest.mark.parametrize("dtype", FLOATS + [np.int8, np.uint16, np.bool_], ids=_name)
def test_total_order_comparisons(dtype):
    """eq_to/le_to/lt_to compare floats in the total order: -NaN < -inf < -0.0 < 0.0 < inf < NaN."""
    if np.dtype(dtype).kind == "f" or dtype == ml_dtypes.bfloat16:
        values = np.array([-np.nan, -np.inf, -1.5, -0.0, 0.0, 1.5, np.inf, np.nan], dtype)
        rank = np.arange(len(values))
    else:
        values = np.unique(random_values(np.random.default_rng(3), (12,), dtype))
        rank = np.argsort(values, kind="stable")
    x, y = np.repeat(values, len(values)), np.tile(values, len(values))
    rx, ry = np.repeat(rank, len(values)), np.tile(rank, len(values))
    f = lambda x, y: (lax.eq_to_p.bind(x, y), lax.le_to_p.bind(x, y), lax.lt_to_p.bind(x, y))
    check_against_reference(f, x, y)
    for got, want in zip(jc.jit(f)(x, y), (rx == ry, rx <= ry, rx < ry), strict=True):
        np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("accuracy", [lax.AccuracyMode.HIGHEST, lax.AccuracyMode.DEFAULT,
                                      lax.Tolerance(atol=1e-5, ulps=2), lax.Tolerance(rtol=1e-3)],
                         ids=["highest", "default", "atol-ulps", "rtol"])
def test_accuracy_reaches_stablehlo(accuracy):
    """Each math op carries JAX's ``result_accuracy`` attribute (none for DEFAULT) and computes the same values."""
    names = ["exp", "exp2", "log", "log1p", "expm1", "tanh", "sin", "cos", "tan", "sqrt", "rsqrt", "cbrt"]
    x = np.linspace(0.25, 2.0, 5, dtype=np.float32)
    f = lambda x: [getattr(lax, name)(x, accuracy=accuracy) for name in names]
    check_against_reference(f, x)
    text = jc.jit(f).lower(x).as_text()
    if accuracy is lax.AccuracyMode.DEFAULT:
        assert "result_accuracy" not in text
    elif isinstance(accuracy, lax.Tolerance):
        assert text.count("#stablehlo.result_accuracy_mode<TOLERANCE>") == len(names)
    else:
        assert text.count("#stablehlo.result_accuracy<mode = #stablehlo.result_accuracy_mode<HIGHEST>>") == len(names)


def test_unknown_accuracy_fails_when_compiled():
    with pytest.raises(NotImplementedError, match="Accuracy x not supported"):
        jc.jit(lambda x: lax.exp(x, accuracy="x"))(np.float32(1.0))
