"""lax dot: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import ml_dtypes
import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("dot")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


# Cases whose values must equal JAX's bit for bit (rounding through the compute type, float-to-int conversion).
EXACT = sorted(name for name in GEN.CASES if name.startswith(("f8-", "f32-preferred-", "f16-preferred-",
                                                               "bf16-preferred-", "mixed-f32-", "c64-preferred-int",
                                                               "uint8-preferred", "int8-preferred"))
               and not name.endswith("c64"))


@pytest.mark.parametrize("name", EXACT)
def test_values_exactly_match_jax(name):
    got, want = SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name]
    for g, w in zip(got["values"], want["values"], strict=True):
        assert g["dtype"] == w["dtype"]
        np.testing.assert_array_equal(np.asarray(g["values"], np.float64), np.asarray(w["values"], np.float64))


@pytest.mark.parametrize("name", sorted(n for n in GEN.CASES if "error" in GOLDEN[n]))
def test_error_messages_match_jax(name):
    assert SHARED.run_case(jaxle_core, GEN.CASES[name]) == GOLDEN[name]


def test_float_sum_converted_to_int_result():
    lhs = np.array([[1.7, -2.6, 0.9], [2.5, 2.5, 0.0], [np.nan, 1.0, 1.0]], np.float32)
    got = lax.dot(lhs, np.ones(3, np.float32), preferred_element_type=np.int32)
    np.testing.assert_array_equal(np.asarray(got), np.array([0, 5, 0], np.int32))  # not -1 + 4: summed, then cut
    as_bool = lax.dot(lhs[:, :1], np.zeros(1, np.float32) - 0.5, preferred_element_type=np.bool_)
    np.testing.assert_array_equal(np.asarray(as_bool), [True, True, True])


def test_mixed_float8_computes_in_the_more_precise_float8():
    lhs = np.array([1.125, 0.0625], ml_dtypes.float8_e4m3fn)
    rhs = np.ones(2, ml_dtypes.float8_e5m2)
    got = lax.dot(lhs, rhs)  # 1.125 becomes 1.0 in float8_e5m2 before the products are summed
    assert got.dtype == ml_dtypes.float8_e5m2 and float(np.asarray(got)) == 1.0


@pytest.mark.parametrize("dtype", ["int16", "float32", "complex64"])
def test_dot_general_matches_einsum(dtype):
    lhs = SHARED.rand((2, 3, 4, 5), dtype, seed=1)
    rhs = SHARED.rand((5, 2, 6, 3), dtype, seed=2)
    got = lax.dot_general(lhs, rhs, (((3, 1), (0, 3)), ((0,), (1,))))
    want = np.einsum("abcd,daeb->ace", lhs, rhs)
    np.testing.assert_allclose(np.asarray(got), want.astype(lhs.dtype), rtol=1e-5)


def test_precision_names():
    assert lax.Precision("highest") is lax.Precision.HIGHEST
    assert lax.Precision("tensorfloat32") is lax.Precision.HIGH
    assert repr(lax.Precision.DEFAULT) == "Precision.DEFAULT" and str(lax.Precision.HIGH) == "HIGH"
