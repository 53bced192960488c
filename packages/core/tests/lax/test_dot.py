"""lax dot: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("dot")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


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
