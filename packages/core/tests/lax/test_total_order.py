"""The total-order comparisons eq_to_p, le_to_p, lt_to_p: jaxprs, values and errors against JAX 0.10.2 goldens,
and the reference against NumPy's sort order (which is total for floats apart from the sign of zeros and NaNs)."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("total_order")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_text_matches(SHARED.run_text_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_order_of_distinct_finite_values_is_numpys(dtype):
    x = np.array([-3.5, -1.0, -1e-3, 0.0, 2.0, 1e4], dtype)
    a, b = np.repeat(x, len(x)), np.tile(x, len(x))
    with jaxle_core.config.enable_x64(True):
        np.testing.assert_array_equal(np.asarray(lax.lt_to_p.bind(a, b)), a < b)
        np.testing.assert_array_equal(np.asarray(lax.le_to_p.bind(a, b)), a <= b)
        np.testing.assert_array_equal(np.asarray(lax.eq_to_p.bind(a, b)), a == b)


def test_signed_zeros_and_nans_are_ordered():
    order = np.array([-np.nan, -np.inf, -0.0, 0.0, np.inf, np.nan], np.float32)
    rank = np.arange(len(order))
    a, b = np.repeat(order, len(order)), np.tile(order, len(order))
    ra, rb = np.repeat(rank, len(order)), np.tile(rank, len(order))
    np.testing.assert_array_equal(np.asarray(lax.lt_to_p.bind(a, b)), ra < rb)
    np.testing.assert_array_equal(np.asarray(lax.eq_to_p.bind(a, b)), ra == rb)
