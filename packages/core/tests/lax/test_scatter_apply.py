"""lax.scatter_apply: jaxprs, values, vmap and errors against JAX 0.10.2 goldens, and the reference against a
NumPy loop."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("scatter_apply")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def test_applies_once_per_index():
    x = np.arange(6, dtype=np.float32)
    indices = np.array([[0], [4], [0], [0], [2]], np.int32)
    dn = lax.ScatterDimensionNumbers((), (0,), (0,))
    out = lax.scatter_apply(x, indices, lambda v: v * 3 + 1, dn, update_shape=(5,))
    expected = x.copy()
    for (i,) in indices:
        expected[i] = expected[i] * 3 + 1
    np.testing.assert_array_equal(np.asarray(out), expected)
