"""lax.scaled_dot: jaxprs, values, vmap and errors against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import ml_dtypes
import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("scaled_dot")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def test_scales_multiply_their_blocks():
    rng = np.random.default_rng(0)
    lhs, rhs = rng.integers(-3, 4, (3, 8)).astype(np.float32), rng.integers(-3, 4, (8, 2)).astype(np.float32)
    lhs_scale, rhs_scale = 2.0 ** rng.integers(-2, 3, (3, 2)), 2.0 ** rng.integers(-2, 3, (4, 2))
    out = lax.scaled_dot(lhs, rhs, lhs_scale=lhs_scale.astype(np.float32), rhs_scale=rhs_scale.astype(np.float32),
                         preferred_element_type=np.float32)
    expected = (lhs * np.repeat(lhs_scale, 4, axis=1)) @ (rhs * np.repeat(rhs_scale, 2, axis=0))
    np.testing.assert_array_equal(np.asarray(out), expected.astype(np.float32))
    assert lax.scaled_dot(lhs, rhs).dtype == ml_dtypes.bfloat16
