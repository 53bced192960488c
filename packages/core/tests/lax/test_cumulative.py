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


@pytest.mark.parametrize("reverse", [False, True])
def test_complex_cumlogsumexp_derivative_is_the_finite_difference(reverse):
    # The function is holomorphic: its JVP along t is the central difference along t, computed by NumPy in
    # complex128 (the JVP failed on complex operands, mixing their dtype with the real part's).
    rng = np.random.default_rng(4)
    z = rng.normal(size=(3, 6)) + 1j * rng.normal(size=(3, 6))
    t = rng.normal(size=z.shape) + 1j * rng.normal(size=z.shape)
    flip = (lambda a: a[:, ::-1]) if reverse else (lambda a: a)

    def reference(v):
        return flip(np.log(np.cumsum(np.exp(flip(v)), axis=1)))

    step = 1e-6
    expected = (reference(z + step * t) - reference(z - step * t)) / (2 * step)
    with jaxle_core.config.enable_x64(True):
        primal, tangent = jaxle_core.jvp(lambda v: lax.cumlogsumexp(v, 1, reverse=reverse), (z,), (t,))
    assert np.asarray(tangent).dtype == np.complex128
    np.testing.assert_allclose(np.asarray(primal), reference(z), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tangent), expected, rtol=1e-7, atol=1e-8)
    low = jaxle_core.jvp(lambda v: lax.cumlogsumexp(v, 1, reverse=reverse), (z.astype(np.complex64),),
                         (t.astype(np.complex64),))[1]
    np.testing.assert_allclose(np.asarray(low), expected, rtol=2e-4, atol=2e-4)
