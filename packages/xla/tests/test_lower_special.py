"""Lowering of the special functions against core's reference (SciPy in float64, rounded to the dtype).

float16 and bfloat16 are computed in float32 and agree with the reference to the last bit or so; float32 and
float64 carry the tolerances below, which are set by the dtype (the prefactors of the incomplete functions are
exponentials of logarithms of size ~50, so a few ulps of those become ~1e-5 / ~1e-13 of the result) and, for the
derivatives in ``a``, by the reference itself (a finite difference, good to ~1e-9).
"""

import itertools
import json
import pathlib
import sys

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, assert_same, check_against_reference, run_both

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax
from jaxle_core.backend import use_backend

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))
import make_special_lowering_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads(golden.GOLDEN.read_text())
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]


def x64(dtype):
    return jc.config.enable_x64(np.dtype(dtype) == np.float64)


def tolerance(dtype, float32: float | None = None, float64: float | None = None) -> dict:
    """rtol (``float32`` or ``float64``, else the dtype's default) and atol for assert_same: an atol just above
    the subnormal numbers, which XLA flushes to zero."""
    dtype = np.dtype(dtype)
    rtol = {np.dtype(np.float32): float32, np.dtype(np.float64): float64}.get(dtype)
    return {"rtol": rtol, "atol": float(ml_dtypes.finfo(dtype).tiny) * 4}


def cast(values, dtype):
    """``values`` as ``dtype``, those beyond its range becoming infinities."""
    with np.errstate(over="ignore"):
        return np.asarray(values, np.float64).astype(dtype)


def grid(*axes):
    """The columns of the cartesian product of ``axes``."""
    return [np.array(column) for column in zip(*itertools.product(*axes))]


# ---------------------------------------------------------------- JAX's lowered text and bits


@pytest.mark.parametrize("name, dtype", golden.cases())
def test_lowered_text_and_bits_match_jax(name, dtype):
    outcome = golden.run_case(jc, name, dtype)
    expected = GOLDEN[f"{name}/{dtype}"]
    assert outcome["text"] == expected["text"]
    assert outcome["bits"] == expected["bits"]


# ---------------------------------------------------------------- CHLO ops


@pytest.mark.parametrize("dtype", FLOATS)
def test_chlo_functions_match_reference(dtype):
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.standard_normal(200) * 5, FLOAT_EDGES, [2.0, -3.0, 100.0]])
    unit = np.concatenate([rng.uniform(-1, 1, 200), [0.0, -0.0, 1.0, -1.0, 0.999, 1.5, np.inf, np.nan]])
    # polygamma and zeta on positive arguments: XLA's float32 expansions are far off for negative ones, as in JAX.
    m, y = grid([0.0, 1.0, 2.0, 3.0, 5.0, 0.5, -1.0, np.nan], rng.uniform(0.05, 20, 25))
    s, q = grid([1.5, 2.0, 3.0, 5.5, 10.0], rng.uniform(0.05, 20, 25))

    def fun(x, unit, m, y, s, q):
        return (lax.lgamma(x), lax.digamma(x), lax.erf(x), lax.erfc(x), lax.erf_inv(unit), lax.bessel_i1e(x),
                lax.polygamma(m, y), lax.zeta(s, q))

    with x64(dtype):
        args = [cast(v, dtype) for v in (x, unit, m, y, s, q)]
        exact = tolerance(dtype, 2e-6, 1e-13)
        # lgamma and digamma have zeros (lgamma at 1 and 2), where XLA's float32 expansions (float16 and bfloat16
        # are computed in float32) are good to ~1e-6 absolutely, as in JAX: lgamma(1) is 4.8e-7.
        near_zeros = exact if np.dtype(dtype) == np.float64 else dict(exact, atol=3e-6)
        reference, compiled, _ = run_both(fun, *args)
    tolerances = [near_zeros, near_zeros, exact, exact, exact, exact, tolerance(dtype, 3e-5, 1e-13),
                  tolerance(dtype, 3e-6, 1e-13)]
    for r, c, tol in zip(reference, compiled, tolerances):
        assert_same(r, c, **tol)


def test_chlo_functions_run_eagerly():
    x = np.array([0.5, 1.5, -2.5, 7.0], np.float32)
    for fun in (lax.lgamma, lax.digamma, lax.erf, lax.erfc, lax.bessel_i1e):
        check_against_reference(fun, x, atol=3e-6)
    check_against_reference(lax.erf_inv, np.array([-0.5, 0.0, 0.9], np.float32))
    check_against_reference(lax.polygamma, np.array([0.0, 1.0, 3.0], np.float32), x[:3] + 3)
    check_against_reference(lax.zeta, np.array([2.0, 3.5, 1.5], np.float32), x[:3] + 3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_polygamma_and_zeta_poles_follow_jax(dtype):
    # At poles and infinities XLA's expansions (so JAX) give NaN or inf where SciPy (so the reference) takes limits.
    m = np.array([0.0, 1.0, 2.0, 2.0, 2.0, 3.0, 1.0, 1.0], dtype)
    x = np.array([0.0, np.inf, 0.0, -1.0, np.inf, np.inf, 0.0, 2.0], dtype)
    s = np.array([0.0, 0.0, 2.0, 3.0, 3.0, np.inf, np.nan, 2.0], dtype)
    q = np.array([0.0, -1.0, np.inf, 0.0, -1.0, 1.0, 0.0, 1.0], dtype)
    with x64(dtype):
        _, (polygamma, zeta), _ = run_both(lambda m, x, s, q: (lax.polygamma(m, x), lax.zeta(s, q)), m, x, s, q)
    nan, inf = np.nan, np.inf
    assert_same(np.array([nan, nan, nan, nan, nan, nan, inf, 0.6449341], dtype), polygamma, rtol=1e-6)
    assert_same(np.array([inf, inf, nan, nan, nan, nan, nan, 1.6449341], dtype), zeta, rtol=1e-6)


# ---------------------------------------------------------------- bessel_i0e


@pytest.mark.parametrize("dtype", FLOATS)
def test_bessel_i0e(dtype):
    rng = np.random.default_rng(1)
    # Both sides of the switch between the two Chebyshev series (|x| = 8).
    x = np.concatenate([rng.standard_normal(300) * 15, FLOAT_EDGES, [7.99, 8.0, 8.01, -8.0, -1e300]])
    with x64(dtype):
        check_against_reference(lax.bessel_i0e, cast(x, dtype), rtol=tolerance(dtype, 1e-6, 4e-15)["rtol"],
                                eager=dtype == np.float32)


# ---------------------------------------------------------------- incomplete gamma


def gamma_arguments(dtype):
    """Moderate a and x, where JAX's series and continued fraction converge within their 2000 steps; the edges
    (zeros, infinities, NaNs, negative values) are the golden cases' (JAX's text and bits)."""
    rng = np.random.default_rng(2)
    a = np.concatenate([rng.uniform(0, 20, 150), rng.uniform(0.05, 1, 30)])
    x = np.concatenate([rng.uniform(0, 30, 150), rng.uniform(0.05, 20, 30)])
    return cast(a, dtype), cast(x, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_incomplete_gamma(dtype):
    a, x = gamma_arguments(dtype)
    with x64(dtype):
        reference, compiled, _ = run_both(
            lambda a, x: (lax.igamma(a, x), lax.igammac(a, x), lax.igamma_grad_a(a, x)), a, x)
    # P and Q = 1 - P are accurate to a few ulps of 1 (absolutely); the derivative in a relatively, against
    # finite differences of SciPy (good to ~1e-9).
    eps = float(np.finfo(dtype).eps)
    for r, c in zip(reference[:2], compiled[:2]):
        assert_same(r, c, rtol=1e3 * eps, atol=1e2 * eps)
    assert_same(reference[2], compiled[2], **tolerance(dtype, 2e-5, 1e-10))


@pytest.mark.parametrize("dtype, functions", [(np.float16, (lax.igamma, lax.igamma_grad_a)),
                                              (ml_dtypes.bfloat16, (lax.igammac, lax.random_gamma_grad))])
def test_incomplete_gamma_narrow_floats(dtype, functions):
    a, x = gamma_arguments(dtype)
    check_against_reference(lambda a, x: tuple(f(a, x) for f in functions), a, x, **tolerance(dtype), eager=False)


def test_incomplete_gamma_runs_eagerly():
    a, x = np.array([0.5, 3.0, 12.0, 40.0], np.float32), np.array([0.2, 3.5, 30.0, 41.0], np.float32)
    for fun in (lax.igamma, lax.igammac, lax.igamma_grad_a, lax.random_gamma_grad):
        with use_backend("reference"):
            expected = np.asarray(fun(a, x))
        out = fun(jaxle_xla.device_put(a), jaxle_xla.device_put(x))
        assert isinstance(out, jaxle_xla.XlaArray)
        assert_same(expected, np.asarray(out), rtol=1e-5)


# ---------------------------------------------------------------- incomplete beta


def beta_arguments(dtype):
    rng = np.random.default_rng(3)
    a, b, x = rng.uniform(0, 20, (3, 200))
    x = x / 20
    # A tiny b near x = 1, where I_x(a, b) ~ b is far below 1 - I_1-x(b, a).
    small_a, small_b, small_x = rng.uniform(0.1, 10, 30), 10 ** rng.uniform(-30, -1, 30), rng.uniform(0.9, 0.9999, 30)
    edges = [0.0, 1e-30, 0.5, 2.5, 1e3, np.inf, -1.0, np.nan]
    grid_a, grid_b, grid_x = grid(edges, edges, [0.0, 1e-5, 0.5, 0.99, 1.0, 1.5, -0.5, np.nan])
    parts = [(a, small_a, grid_a), (b, small_b, grid_b), (x, small_x, grid_x)]
    if np.dtype(dtype) == np.float64:
        # Large a and b, within a few standard deviations of the mean.
        large_a, large_b, offset = grid([30.0, 1e3, 1e5], [0.5, 30.0, 1e3, 1e5], [-3.0, -1.0, 0.0, 1.0, 3.0])
        mean = large_a / (large_a + large_b)
        large_x = np.clip(mean + offset * np.sqrt(mean * (1 - mean) / (large_a + large_b)), 1e-9, 1 - 1e-9)
        parts = [(*p, q) for p, q in zip(parts, (large_a, large_b, large_x))]
    return [cast(np.concatenate(p), dtype) for p in parts]


@pytest.mark.parametrize("dtype", FLOATS)
def test_regularized_incomplete_beta(dtype):
    """JAX's continued fraction is accurate in absolute terms (past the mean it returns 1 - I_1-x(b, a), so a
    small result keeps the rounding error of a value near 1); its prefactor's logarithms lose more for parameters
    in the hundreds and beyond."""
    a, b, x = beta_arguments(dtype)
    with x64(dtype):
        (reference,), (compiled,), _ = run_both(lax.betainc, a, b, x)
    large = np.nan_to_num(np.fmax(a.astype(np.float64), b.astype(np.float64))) >= 100
    eps = float(ml_dtypes.finfo(dtype).eps)
    modest_error, large_error = {np.dtype(np.float32): (1e-5, 1e-3), np.dtype(np.float64): (1e-13, 5e-10)}.get(
        np.dtype(dtype), (2 * eps, 2 * eps))
    assert_same(reference[~large], compiled[~large], rtol=0.0, atol=modest_error)
    assert_same(reference[large], compiled[large], rtol=0.0, atol=large_error)


# ---------------------------------------------------------------- shapes


def test_scalars_literals_and_empty_arrays():
    x = np.array([[0.5, 2.0, 7.5], [1.0, 3.0, 1e4]], np.float32)
    check_against_reference(lambda x: (lax.igamma(2.0, x), lax.polygamma(1.0, x), lax.betainc(2.0, 3.0, x / 1e4)), x,
                            eager=False)
    check_against_reference(lambda a, x: (lax.igammac(a, x), lax.bessel_i0e(x), lax.zeta(a, x)),
                            np.float32(2.5), np.float32(1.5), eager=False)
    empty = np.zeros((0, 3), np.float32)
    check_against_reference(lambda a: (lax.igamma_grad_a(a, a), lax.betainc(a, a, a), lax.lgamma(a)), empty,
                            eager=False)
