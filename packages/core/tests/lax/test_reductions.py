"""lax reductions: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("reductions")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("dtype", [np.int16, np.uint32, np.float32, np.float64])
def test_sum_prod_max_min_match_numpy(dtype):
    x = SHARED.rand((4, 5, 3), np.dtype(dtype).name, seed=3)
    for name, ref in [("reduce_sum", np.sum), ("reduce_prod", np.prod), ("reduce_max", np.max),
                      ("reduce_min", np.min)]:
        got = np.asarray(getattr(lax, name)(x, (0, 2)))
        want = ref(x, axis=(0, 2)).astype(got.dtype)
        np.testing.assert_allclose(got, want, rtol=1e-5)


def test_logical_reductions_match_numpy():
    x = SHARED.rand((6, 4), "int32", seed=5)
    np.testing.assert_array_equal(np.asarray(lax.reduce_and(x, (0,))), np.bitwise_and.reduce(x, axis=0))
    np.testing.assert_array_equal(np.asarray(lax.reduce_or(x, (1,))), np.bitwise_or.reduce(x, axis=1))
    np.testing.assert_array_equal(np.asarray(lax.reduce_xor(x, (0, 1))), np.bitwise_xor.reduce(x.ravel()))


def test_max_prefers_positive_zero_and_nan():
    x = np.array([-0.0, 0.0, -0.0], np.float32)
    assert not np.signbit(np.asarray(lax.reduce_max(x, (0,))))
    assert np.signbit(np.asarray(lax.reduce_min(x[::-1].copy(), (0,))))
    assert np.isnan(np.asarray(lax.reduce_min(np.array([1.0, np.nan], np.float32), (0,))))


def test_argmax_picks_first_nan():
    x = np.array([1.0, np.nan, 5.0, np.nan], np.float32)
    assert int(np.asarray(lax.argmax(x, 0, np.int32))) == 1
    assert int(np.asarray(lax.argmin(x, 0, np.int32))) == 1


def test_generic_reduce_evaluates_its_jaxpr():
    x = SHARED.rand((3, 4), "float32", seed=2)
    got = lax.reduce(x, 0.0, lambda a, b: a + b * b, (0,))
    np.testing.assert_allclose(np.asarray(got), np.sum(x * x, axis=0), rtol=1e-5)
    closed = jaxle_core.make_jaxpr(lambda x: lax.reduce(x, 0.0, lambda a, b: a + b * b, (0,)))(x)
    (eqn,) = closed.eqns
    assert eqn.primitive.name == "reduce"
    assert list(eqn.params) == ["computation", "jaxpr", "dimensions"]
    assert [str(e.primitive) for e in eqn.params["jaxpr"].eqns] == ["mul", "add"]
