"""lax's elementwise primitives against JAX 0.10.2 goldens (golden/make_elementwise_golden.py) and NumPy."""

import json
import pathlib

import ml_dtypes
import numpy as np
import pytest

from jaxle_core import lax, make_jaxpr

GOLDEN = json.loads((pathlib.Path(__file__).parent.parent / "golden" / "elementwise_golden.json").read_text())
SPECIAL = {"erf", "erfc", "erf_inv", "lgamma", "digamma", "bessel_i0e", "bessel_i1e", "igamma", "igammac",
           "igamma_grad_a", "random_gamma_grad", "polygamma", "zeta"}
# Ops whose float results XLA computes exactly (correctly rounded), so ours must agree bit for bit.
EXACT = {"add", "sub", "div", "rem", "neg", "sign", "floor", "ceil", "round", "nextafter", "is_finite", "abs",
         "max", "min", "real", "imag", "complex", "conj", "eq", "ne", "lt", "le", "gt", "ge", "sqrt", "mul",
         "square", "integer_pow"}
# Complex operations that are exact on infinities and NaNs; on the others XLA's special-value rules are not modelled.
COMPLEX_ANY_VALUE = {"add", "sub", "neg", "eq", "ne", "real", "imag", "conj", "max", "min"}


def decode(entry):
    dtype = np.dtype(getattr(ml_dtypes, entry["dtype"], None) or entry["dtype"])
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[dtype.itemsize]
    return np.array(entry["bits"], bits).view(dtype).reshape(entry["shape"])


def case_id(case):
    kwargs = "".join(f"-{k}={v}" for k, v in case["kwargs"].items())
    return f"{case['op']}-{case['output']['dtype']}-{'-'.join(e['dtype'] for e in case['inputs'])}{kwargs}"


def comparable(op, inputs):
    """Elements whose golden values the reference is meant to reproduce."""
    keep = np.ones(inputs[0].shape, bool)
    for x in inputs:
        if x.dtype.kind == "c" and op not in COMPLEX_ANY_VALUE:
            keep &= np.isfinite(x)
    if op == "atan2" and inputs[0].dtype.kind == "c":
        keep &= (inputs[0] != 0) & (inputs[1].real != 0)  # XLA's complex atan2 branch for zeros differs
    if op == "cbrt":
        keep &= (inputs[0] == 0) | (np.abs(inputs[0].astype(np.float32)) >= np.finfo(np.float32).tiny)
    return keep


def assert_matches(op, got, want, keep):
    assert got.dtype == want.dtype and got.shape == want.shape
    got, want = got[keep], want[keep]
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(got, want)
        return
    eps = float(ml_dtypes.finfo(want.real.dtype).eps)
    rtol = 4 * eps if eps > 1e-4 else 32 * eps
    for g, w in [(got.real, want.real), (got.imag, want.imag)] if want.dtype.kind == "c" else [(got, want)]:
        np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
    finite = ~np.isnan(want)
    got, want = got[finite], want[finite]
    if op in EXACT and want.dtype.kind != "c":
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    elif want.dtype.kind == "c":  # XLA's complex results carry errors relative to the magnitude, not per part
        got, want = got.astype(np.complex128), want.astype(np.complex128)
        same = got == want
        with np.errstate(invalid="ignore"):
            assert np.all(same | (np.abs(got - want) <= rtol * np.abs(want) + rtol)), (got[~same], want[~same])
    else:
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=1e-30)


VALUE_CASES = [c for c in GOLDEN["values"] if c["op"] not in SPECIAL]


@pytest.mark.parametrize("case", VALUE_CASES, ids=[case_id(c) for c in VALUE_CASES])
def test_values_match_jax(case):
    inputs = [decode(e) for e in case["inputs"]]
    got = np.asarray(getattr(lax, case["op"])(*inputs, **case["kwargs"]))
    assert_matches(case["op"], got, decode(case["output"]), comparable(case["op"], inputs))


SHORT = {"f16": np.float16, "bf16": ml_dtypes.bfloat16, "f32": np.float32, "i8": np.int8, "i32": np.int32,
         "u8": np.uint8, "u32": np.uint32, "bool": np.bool_, "c64": np.complex64}
PY_SCALARS = {"f32": 1.5, "i32": 3, "bool": True, "c64": 1j}


def spec_arg(spec):
    if spec.startswith("*"):
        return PY_SCALARS[spec[1:]]
    short, _, dims = spec.partition("[")
    return np.zeros(tuple(int(d) for d in dims.rstrip("]").split(",") if d), SHORT[short])


def norm_param(v):
    if isinstance(v, lax.RoundingMethod):
        return f"RoundingMethod.{v.name}"
    if isinstance(v, np.dtype):
        return f"dtype:{v.name}"
    return v


# random_gamma_grad stages dozens of equations and two while loops (golden/random_gamma_grad_golden.json compares
# their text): only its errors are replayed here.
AVAL_CASES = [c for c in GOLDEN["avals"] if c["op"] != "random_gamma_grad" or "error" in c["result"]]


@pytest.mark.parametrize("case", AVAL_CASES, ids=[f"{c['op']}-{'-'.join(c['args'])}-{c['kwargs']}" for c in AVAL_CASES])
def test_staging_matches_jax(case):
    """Output aval, emitted equations and params, or the error JAX raises."""
    fn = getattr(lax, case["op"])
    args = [spec_arg(s) for s in case["args"]]
    want = case["result"]
    if "error" in want:
        with pytest.raises(Exception) as info:
            make_jaxpr(lambda *xs: fn(*xs, **case["kwargs"]))(*args)
        assert type(info.value).__name__ == want["error"]
        # The "(Tip: ...)" suffix of same-dtype errors is standard.py's; compare the message before it.
        assert str(info.value).split(" (Tip:")[0] == want["message"].split(" (Tip:")[0]
        return
    closed = make_jaxpr(lambda *xs: fn(*xs, **case["kwargs"]))(*args)
    eqns = [[e.primitive.name, {k: norm_param(v) for k, v in e.params.items()}] for e in closed.eqns]
    assert eqns == [[name, params] for name, params in want["eqns"]]
    assert [list(eqn[1]) for eqn in eqns] == [list(p) for _, p in want["eqns"]]  # param order
    out = closed.jaxpr.outvars[0].aval
    assert [list(out.shape), out.dtype.name, out.weak_type] == want["out"]


# ---------------------------------------------------------------- semantics, as examples


def test_integer_division_rounds_toward_zero_and_defines_division_by_zero():
    x = np.array([7, -7, 7, -7, 5, np.iinfo(np.int32).min, np.iinfo(np.int32).min], np.int32)
    y = np.array([2, 2, -2, -2, 0, -1, 2], np.int32)
    np.testing.assert_array_equal(lax.div(x, y), [3, -3, -3, 3, -1, np.iinfo(np.int32).min, -2**30])
    np.testing.assert_array_equal(lax.rem(x, y), [1, -1, 1, -1, 5, 0, 0])
    np.testing.assert_array_equal(lax.div(np.uint8(9), np.uint8(0)), 255)


def test_shifts_past_the_bit_width():
    x = np.array([-8, -8, -8, 5], np.int8)
    y = np.array([1, 8, 100, -1], np.int8)
    np.testing.assert_array_equal(lax.shift_left(x, y), [-16, 0, 0, 0])
    np.testing.assert_array_equal(lax.shift_right_logical(x, y), [124, 0, 0, 0])
    np.testing.assert_array_equal(lax.shift_right_arithmetic(x, y), [-4, -1, -1, 0])


def test_round_methods():
    x = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.2], np.float32)
    away = np.asarray(lax.round(x))
    np.testing.assert_array_equal(away, [1, 2, 3, -1, -3, 0, -0.0])
    assert np.signbit(away[-1])
    np.testing.assert_array_equal(lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN), np.rint(x))


def test_bits_against_python_ints():
    x = np.array([0, 1, 5, -1, np.iinfo(np.int32).min, 2**20 + 3], np.int32)
    np.testing.assert_array_equal(lax.population_count(x), [bin(int(v) & 0xFFFFFFFF).count("1") for v in x])
    np.testing.assert_array_equal(lax.clz(x), [32 - (int(v) & 0xFFFFFFFF).bit_length() for v in x])


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float32, np.complex64])
def test_integer_pow_wraps_like_repeated_multiplication(dtype):
    x = np.array([3, 7, 11, 2], dtype)
    with np.errstate(all="ignore"):
        want = x * x * x * x * x * x * x
    np.testing.assert_array_equal(lax.integer_pow(x, 7), want)


def test_transcendentals_against_numpy():
    x = np.linspace(-3, 3, 101, dtype=np.float32)
    for fn, ref in [(lax.exp, np.exp), (lax.sin, np.sin), (lax.tanh, np.tanh), (lax.atan, np.arctan),
                    (lax.logistic, lambda v: 1 / (1 + np.exp(-v.astype(np.float64)))), (lax.cbrt, np.cbrt)]:
        np.testing.assert_allclose(fn(x), ref(x), rtol=2e-6, atol=1e-7)


def test_empty_and_scalar_operands():
    empty = np.zeros((0, 3), np.float32)
    assert np.asarray(lax.add(empty, np.float32(1))).shape == (0, 3)
    assert np.asarray(lax.lt(empty, empty)).dtype == np.bool_
    assert float(np.asarray(lax.mul(2.0, 3.0))) == 6.0


def test_mul_out_dtype_widens_before_multiplying():
    x = np.array([100, -100], np.int8)
    np.testing.assert_array_equal(lax.mul(x, x, out_dtype=np.int32), [10000, 10000])
