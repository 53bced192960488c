"""jnp's elementwise functions against NumPy (dtypes, edge values, x64), under jit and vmap, and their gradients
against finite differences (check_grads)."""

import warnings

import ml_dtypes
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core import config
from jaxle_core.test_util import check_grads

EDGE = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, 1.5, -2.5, 2.0, -3.0, 1e-30, 7.25], np.float32)
OTHER = np.array([1.0, np.nan, -np.inf, 0.0, -0.0, -0.5, 1.5, 2.5, -2.0, 0.5, 3.0, -1.25], np.float32)

# jnp name -> NumPy's function (the same name unless given)
UNARY_FLOAT = ["abs", "fabs", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil", "cos",
               "cosh", "deg2rad", "exp", "exp2", "expm1", "floor", "isfinite", "isinf", "isnan", "isneginf",
               "isposinf", "log", "log10", "log1p", "log2", "negative", "positive", "rad2deg", "reciprocal", "rint",
               "sign", "signbit", "sin", "sinc", "sinh", "spacing", "sqrt", "square", "tan", "tanh", "trunc",
               "nan_to_num", "i0"]
BINARY_FLOAT = ["add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "fmod", "power",
                "float_power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign", "nextafter",
                "heaviside", "logaddexp", "logaddexp2", "equal", "not_equal", "less", "less_equal", "greater",
                "greater_equal", "logical_and", "logical_or", "logical_xor"]
BINARY_INT = ["add", "subtract", "multiply", "floor_divide", "remainder", "fmod", "maximum", "minimum",
              "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "gcd", "lcm", "equal", "less",
              "logical_xor"]


def _np(x):
    return np.asarray(x)


def _assert_matches(got, want, rtol=2e-6, atol=1e-6):
    got, want = _np(got), np.asarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got.astype(np.complex128 if got.dtype.kind == "c" else np.float64),
                                   want.astype(np.complex128 if want.dtype.kind == "c" else np.float64),
                                   rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


def _numpy(name, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(np, name)(*args)


@pytest.mark.parametrize("name", UNARY_FLOAT)
def test_unary_float32_edge_values_match_numpy(name):
    x = EDGE[:-2] if name == "i0" else EDGE
    want = _numpy(name, x)
    if name == "spacing":  # NumPy's spacing of -0.0 and of the infinities differ from C's nextafter step
        keep = np.isfinite(x) & (x != 0)
        x, want = x[keep], want[keep]
    if name in ("sign",):  # NumPy: sign(nan) = nan, as XLA's
        pass
    _assert_matches(getattr(jnp, name)(x), want, rtol=5e-6)


@pytest.mark.parametrize("name", BINARY_FLOAT)
def test_binary_float32_edge_values_match_numpy(name):
    want = _numpy(name, EDGE, OTHER)
    if name == "float_power":  # NumPy computes it in float64; jnp in the operands' inexact dtype
        want = want.astype(np.float32)
    got = getattr(jnp, name)(EDGE, OTHER)
    if name in ("floor_divide", "remainder", "fmod"):  # division by ±0 and by infinities: NumPy's, not C's
        keep = np.isfinite(EDGE) & np.isfinite(OTHER) & (OTHER != 0)
        got, want = _np(got)[keep], want[keep]
    _assert_matches(got, want, rtol=5e-6)


@pytest.mark.parametrize("name", BINARY_INT)
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint8])
def test_binary_integers_match_numpy(name, dtype):
    x = np.array([7, 6, 0, 5, 3, 100, 12], dtype)
    y = np.array([2, 4, 3, 1, 7, 3, 18], dtype)
    if np.issubdtype(dtype, np.signedinteger):
        x[::2] = -x[::2]
    _assert_matches(getattr(jnp, name)(x, y), _numpy(name, x, y))


def test_integer_division_by_zero_gives_xla_results():
    x, y = np.int32([7, -7, 0]), np.int32([0, 0, 0])
    _assert_matches(jnp.remainder(x, y), np.int32([0, 0, 0]))
    _assert_matches(jnp.fmod(x, y), np.int32([0, 0, 0]))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32", "complex64"])
def test_dtypes_are_kept(dtype):
    dt = np.dtype(getattr(ml_dtypes, dtype, None) or dtype)
    x = np.array([0.5, 1.5, -2.0], dt)
    for name in ("sin", "exp", "sqrt", "square", "negative", "tanh", "log1p"):
        assert jnp.__dict__[name](x).dtype == dt
    if dt.kind != "c":
        for name in ("floor", "ceil", "trunc", "rint", "round", "sign", "spacing", "nan_to_num"):
            assert jnp.__dict__[name](x).dtype == dt
    assert jnp.abs(x).dtype == (np.dtype(np.float32) if dt.kind == "c" else dt)


@pytest.mark.parametrize("name,args,want_dtype", [
    ("sin", (np.int8([1, 2]),), np.float32), ("add", (np.int8([1]), np.uint8([1])), np.int16),
    ("true_divide", (np.int32([1]), np.int32([2])), np.float32), ("floor", (np.int16([3]),), np.int16),
    ("square", (np.array([True]),), np.int32), ("sqrt", (np.array([True]),), np.float32),
    ("add", (np.float16([1]), 2.5), np.float16), ("multiply", (np.int8([1]), 2), np.int8),
    ("left_shift", (np.array([True]), np.array([True])), np.int32), ("bitwise_count", (np.int64([7]),), np.uint8),
])
def test_result_dtypes(name, args, want_dtype):
    assert getattr(jnp, name)(*args).dtype == want_dtype


def test_python_scalars_give_weak_results():
    assert jnp.add(2, 0.5).weak_type and jnp.add(2, 0.5).dtype == np.float32
    assert jnp.sin(1).weak_type
    assert not jnp.add(np.float32(1), 2).weak_type
    assert jnp.multiply(np.float16([1]), 0.3).dtype == np.float16


def test_x64_dtypes_and_values():
    with config.enable_x64(True):
        x = np.float64([0.1, 2.5, -3.25])
        for name in ("sin", "exp", "log1p", "arctan", "cbrt", "spacing", "signbit", "trunc"):
            _assert_matches(getattr(jnp, name)(x), _numpy(name, x), rtol=1e-13, atol=1e-300)
        assert jnp.sin(np.int64([1])).dtype == np.float64
        assert jnp.add(1, 2.5).dtype == np.float64
        i = np.int64([2**40 + 3, -7])
        _assert_matches(jnp.floor_divide(i, np.int64(3)), np.floor_divide(i, 3))
        _assert_matches(jnp.power(np.int64([3, -2]), np.int64([30, 41])), np.power(np.int64([3, -2]),
                                                                                   np.int64([30, 41])))
        mantissa, exponent = jnp.frexp(x)
        want_m, want_e = np.frexp(x)
        _assert_matches(mantissa, want_m)
        assert _np(exponent).tolist() == want_e.tolist()
        _assert_matches(jnp.ldexp(x, np.int64([3, -2, 1])), np.ldexp(x, [3, -2, 1]))


def test_frexp_ldexp_modf_divmod_match_numpy():
    # XLA flushes subnormals to zero before scaling them: JAX's frexp(1e-40) is (0.5, -149), not NumPy's
    subnormal_mantissa, subnormal_exponent = jnp.frexp(np.float32(1e-40))
    assert (float(subnormal_mantissa), int(subnormal_exponent)) == (0.5, -149)
    x = np.float32([0.0, -0.0, -3.5, 7.0, np.inf, np.nan, 0.75])
    mantissa, exponent = jnp.frexp(x)
    want_m, want_e = np.frexp(x)
    _assert_matches(mantissa, want_m)
    assert _np(exponent)[np.isfinite(x)].tolist() == want_e[np.isfinite(x)].tolist()
    finite = x[np.isfinite(x)]
    _assert_matches(jnp.ldexp(finite, np.int32(3)), np.ldexp(finite, 3))
    for got, want in zip(jnp.modf(finite), np.modf(finite)):
        _assert_matches(got, want)
    y = np.float32([2.0, -2.0, 0.5, -0.75, 3.0])
    for got, want in zip(jnp.divmod(finite, y), np.divmod(finite, y)):
        _assert_matches(got, want)


def test_round_and_clip_match_numpy():
    x = np.float32([0.5, 1.5, 2.5, -0.5, -1.25, 3.14159, 2.675])
    _assert_matches(jnp.round(x), np.round(x))
    _assert_matches(jnp.round(x, 2), np.round(x, 2))
    _assert_matches(jnp.around(np.float32([15, 251, -35]), -1), np.round(np.float32([15, 251, -35]), -1))
    _assert_matches(jnp.clip(x, -1, 2), np.clip(x, -1, 2))
    _assert_matches(jnp.clip(x, max=0.0), np.clip(x, None, 0.0))
    _assert_matches(jnp.clip(np.int32([1, 5, 9]), 2, 6), np.clip(np.int32([1, 5, 9]), 2, 6))


def test_closeness_and_equality_match_numpy():
    _assert_matches(jnp.isclose(EDGE, OTHER), np.isclose(EDGE, OTHER))
    _assert_matches(jnp.isclose(EDGE, EDGE, equal_nan=True), np.isclose(EDGE, EDGE, equal_nan=True))
    assert bool(jnp.allclose(EDGE[3:], EDGE[3:] + 1e-9)) == np.allclose(EDGE[3:], EDGE[3:] + 1e-9)
    assert not bool(jnp.array_equal(EDGE, EDGE)) and bool(jnp.array_equal(EDGE, EDGE, equal_nan=True))
    assert bool(jnp.array_equal([1, 2], np.int32([1, 2])))
    unequal_shapes = jnp.array_equal(np.ones(2), np.ones(3))
    assert isinstance(unequal_shapes, jaxle_core.Array) and not bool(unequal_shapes)  # an array, as JAX's
    assert bool(jnp.array_equiv(np.ones((2, 2)), np.ones(2)))
    with pytest.raises(TypeError, match="eq got incompatible shapes for broadcasting"):  # JAX's, unlike NumPy's False
        jnp.array_equiv(np.ones(2), np.ones(3))


def test_complex_functions_match_numpy():
    z = np.array([1 + 2j, -3 - 0.5j, 0.25j, -2 + 0j], np.complex64)
    for name in ("real", "imag", "conj", "angle", "abs", "iscomplex", "isreal", "sqrt", "exp", "log", "log2",
                 "log10", "sign", "isfinite"):
        _assert_matches(getattr(jnp, name)(z), _numpy(name, z), rtol=5e-6)
    _assert_matches(jnp.angle(z, deg=True), np.angle(z, deg=True), rtol=5e-6)
    _assert_matches(jnp.arccosh(z), np.arccosh(z), rtol=5e-6)
    _assert_matches(jnp.logaddexp(z, z[::-1]), np.log(np.exp(z) + np.exp(z[::-1])), rtol=5e-6)


def test_where_matches_numpy():
    c = np.array([[True, False, True]])
    x, y = np.float32([[1], [2]]), np.int8([5, 6, 7])
    _assert_matches(jnp.where(c, x, y), np.where(c, x, y))
    _assert_matches(jnp.where(np.int32([0, 3]), 1.5, np.float16(2)), np.float16([2, 1.5]))
    with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
        jnp.where(np.ones(2, bool), np.ones(3), np.ones(2))


def test_functions_under_jit_and_vmap_match_eager():
    x, y = np.float32([[0.5, -1.5, 2.0], [3.0, -0.25, 0.0]]), np.float32([[1.0, 2.0, -3.0], [0.5, 0.5, 4.0]])
    for name in ("hypot", "arctan2", "remainder", "copysign", "heaviside", "logaddexp", "fmax", "floor_divide"):
        fn = getattr(jnp, name)
        eager = fn(x, y)
        _assert_matches(jaxle_core.jit(fn)(x, y), _np(eager))
        _assert_matches(jaxle_core.vmap(fn)(x, y), _np(eager))
        _assert_matches(jaxle_core.vmap(fn, in_axes=(1, 1), out_axes=1)(x, y), _np(eager))
    for name in ("sinc", "spacing", "signbit", "trunc", "i0", "nan_to_num"):
        fn = getattr(jnp, name)
        _assert_matches(jaxle_core.vmap(fn)(x), _np(fn(x)))


def test_functions_inside_scan_and_cond():
    def body(carry, x):
        return jnp.logaddexp(carry, x), jnp.clip(x, -1, 1)

    carry, ys = jaxle_core.lax.scan(body, np.float32(-np.inf), np.float32([0.5, -2.0, 3.0]))
    np.testing.assert_allclose(float(carry), np.logaddexp.reduce(np.float32([0.5, -2.0, 3.0])), rtol=1e-6)
    _assert_matches(ys, np.float32([0.5, -1.0, 1.0]))
    out = jaxle_core.lax.cond(True, lambda v: jnp.hypot(v, 4.0), lambda v: jnp.sqrt(v), np.float32(3.0))
    assert float(out) == 5.0


DIFFERENTIABLE_UNARY = ["sin", "cos", "tan", "arcsin", "arctan", "sinh", "cosh", "tanh", "arcsinh", "exp", "exp2",
                        "expm1", "log", "log1p", "log2", "log10", "sqrt", "cbrt", "square", "reciprocal", "deg2rad",
                        "rad2deg", "sinc", "i0", "abs", "fabs", "negative", "arctanh"]
DIFFERENTIABLE_BINARY = ["add", "subtract", "multiply", "divide", "power", "float_power", "arctan2", "hypot",
                         "logaddexp", "logaddexp2", "maximum", "minimum", "fmax", "fmin", "copysign", "remainder"]


@pytest.mark.parametrize("name", DIFFERENTIABLE_UNARY)
def test_unary_gradients(name):
    x = np.float64([0.3, 0.7]) if name in ("arcsin", "arctanh") else np.float64([0.3, 1.7])
    with config.enable_x64(True):
        check_grads(getattr(jnp, name), (x,), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("name", DIFFERENTIABLE_BINARY)
def test_binary_gradients(name):
    with config.enable_x64(True):
        check_grads(getattr(jnp, name), (np.float64([0.3, 1.7]), np.float64([1.2, 0.9])), order=2,
                    modes=("fwd", "rev"))


def test_gradients_at_kinks_are_jax_s():
    grad = jaxle_core.grad
    assert float(grad(jnp.abs)(np.float32(0.0))) == 1.0  # JAX's abs'(0) = sign(0) convention: 1 for +0
    assert float(grad(lambda x: jnp.maximum(x, 1.0))(np.float32(1.0))) == 0.5  # ties share the gradient
    assert float(grad(lambda x: jnp.clip(x, -1.0, 1.0))(np.float32(1.0))) == 0.5  # clip is a minimum: a tie
    assert float(grad(jnp.sinc)(np.float32(0.0))) == 0.0
    np.testing.assert_allclose(float(jaxle_core.grad(jaxle_core.grad(jnp.sinc))(np.float32(0.0))),
                               -np.pi ** 2 / 3, rtol=1e-6)


def test_ufunc_methods_match_numpy():
    a = np.float32([[0.5, -1.0, 2.0], [3.0, 0.25, -0.5]])
    for name in ("add", "multiply", "maximum", "minimum", "subtract", "logaddexp", "logaddexp2"):
        for axis in (0, 1):
            _assert_matches(getattr(jnp, name).reduce(a, axis=axis), getattr(np, name).reduce(a, axis=axis),
                            rtol=5e-6)
        _assert_matches(getattr(jnp, name).reduce(a, axis=None), getattr(np, name).reduce(a.ravel()), rtol=5e-6)
        _assert_matches(getattr(jnp, name).accumulate(a, axis=1), getattr(np, name).accumulate(a, axis=1),
                        rtol=5e-6)
        _assert_matches(getattr(jnp, name).outer(a[0], a[1]), getattr(np, name).outer(a[0], a[1]), rtol=5e-6)
        want = a[0].copy()
        getattr(np, name).at(want, np.array([0, 0, 2]), np.float32(1.5))
        _assert_matches(getattr(jnp, name).at(a[0], np.array([0, 0, 2]), 1.5, inplace=False), want, rtol=5e-6)
        _assert_matches(getattr(jnp, name).reduceat(a, np.array([0, 2, 1]), axis=1),
                        getattr(np, name).reduceat(a, np.array([0, 2, 1]), axis=1), rtol=5e-6)
    _assert_matches(jnp.add.reduce(a, axis=1, keepdims=True, initial=1.0), np.add.reduce(a, 1, keepdims=True,
                                                                                        initial=1.0))
    _assert_matches(jnp.maximum.reduce(a, where=a > 0, initial=0.0), np.maximum.reduce(a, where=a > 0, initial=0.0))
    _assert_matches(jnp.negative.at(a[0], np.array([1]), inplace=False), np.float32([0.5, 1.0, 2.0]))
    i = np.int32([[5, 3, 6], [12, 10, 7]])
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "logical_and", "logical_or", "logical_xor"):
        _assert_matches(getattr(jnp, name).reduce(i), getattr(np, name).reduce(i))


def test_user_ufunc():
    fma = jnp.ufunc(lambda x, y: x * y + 1, 2, 1, name="fma")
    assert repr(fma) == "<jnp.ufunc 'fma'>" and fma.nin == 2 and fma.nargs == 2 and fma.identity is None
    x = np.float32([1.0, 2.0, 3.0])
    _assert_matches(fma(x, x), x * x + 1)
    _assert_matches(fma.reduce(x), np.float32(((1 * 2 + 1) * 3) + 1))
    _assert_matches(fma.accumulate(x), np.float32([1, 3, 10]))
    assert jnp.add == jnp.add and jnp.add != jnp.multiply and hash(jnp.add) == hash(jnp.add)
    with pytest.raises(AttributeError):
        jnp.add.nin = 3


def test_errors():
    with pytest.raises(TypeError, match="sin requires ndarray or scalar arguments"):
        jnp.sin([1.0])
    with pytest.raises(NotImplementedError, match="out argument of <jnp.ufunc 'add'>"):
        jnp.add(1, 2, out=np.zeros(()))
    with pytest.raises(ValueError, match="Arguments to jax.numpy.gcd must be integers."):
        jnp.gcd(1.0, 2)
    with pytest.raises(ValueError, match="Complex values have no ordering"):
        jnp.clip(np.complex64([1j]), 0, 1)
    with pytest.raises(NotImplementedError, match="cannot operate inplace"):
        jnp.add.at(np.zeros(2), np.array([0]), 1.0)
    with pytest.raises(ValueError, match="reduce only supported for binary ufuncs"):
        jnp.negative.reduce(np.zeros(2))
