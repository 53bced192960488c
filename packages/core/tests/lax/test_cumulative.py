"""lax cumulative: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("cumulative")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("dtype", ["int16", "uint32", "float32"])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumulative_match_numpy(dtype, reverse):
    x = SHARED.rand((4, 6), dtype, seed=7)
    flip = (lambda a: a[:, ::-1]) if reverse else (lambda a: a)
    for name, ref in [("cumsum", np.cumsum), ("cumprod", np.cumprod), ("cummax", np.maximum.accumulate),
                      ("cummin", np.minimum.accumulate)]:
        got = np.asarray(getattr(lax, name)(x, 1, reverse=reverse))
        np.testing.assert_allclose(got, flip(ref(flip(x), axis=1)).astype(x.dtype), rtol=1e-5)
    if dtype == "float32":
        want = flip(np.logaddexp.accumulate(flip(x).astype(np.float64), axis=1))
        np.testing.assert_allclose(np.asarray(lax.cumlogsumexp(x, 1, reverse=reverse)), want, rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize("reverse", [False, True])
def test_complex_cumlogsumexp_is_the_log_of_the_running_sum_of_exponentials(dtype, reverse):
    rng = np.random.default_rng(3)
    x = (rng.normal(size=(3, 5)) + 1j * rng.normal(size=(3, 5))).astype(dtype)
    flip = (lambda a: a[:, ::-1]) if reverse else (lambda a: a)
    want = flip(np.log(np.cumsum(np.exp(flip(x).astype(np.complex128)), axis=1)))
    got = np.asarray(lax.cumlogsumexp(x, 1, reverse=reverse))
    assert got.dtype == jaxle_core.dtypes.canonicalize_dtype(dtype)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
