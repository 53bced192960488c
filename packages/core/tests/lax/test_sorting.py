"""lax sorting: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("sorting")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("dtype", ["int8", "uint16", "float32"])
def test_sort_and_top_k_match_numpy(dtype):
    x = SHARED.rand((5, 7), dtype, seed=9)
    np.testing.assert_array_equal(np.asarray(lax.sort(x, dimension=0)), np.sort(x, axis=0, kind="stable"))
    keys, perm = lax.sort_key_val(x, np.broadcast_to(np.arange(7, dtype=np.int32), (5, 7)))
    np.testing.assert_array_equal(np.asarray(perm), np.argsort(x, axis=1, kind="stable"))
    values, indices = lax.top_k(x, 3)
    order = np.argsort(-x.astype(np.float64), axis=1, kind="stable")[:, :3]
    np.testing.assert_array_equal(np.asarray(indices), order)
    np.testing.assert_array_equal(np.asarray(values), np.take_along_axis(x, order, axis=1))
