"""jnp quantile, percentile, median and their nan* forms: JAX 0.10.2's jaxprs, values and errors (goldens), and
NumPy's values over methods, axes, dtypes, NaNs and x64, with gradients by finite differences."""

import jnp_golden
import make_jnp_quantiles_golden as GEN
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("jnp_quantiles_golden.json")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    jnp_golden.assert_case_matches(jnp_golden.run_case(jnp_golden.jaxle_namespace(), GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
def test_quantile_matches_numpy(method, axis):
    x = jnp_golden.rand((3, 4, 2), "float32", seed=41)
    q = np.array([0.0, 0.13, 0.45, 0.72, 1.0], np.float32)  # no position exactly halfway: see test_nearest_tie
    for keepdims in (False, True):
        want = np.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
        got = jnp.quantile(x, q, axis=axis, method=method, keepdims=keepdims)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(jnp.percentile(x, 100 * q, axis=axis, method=method, keepdims=keepdims), want,
                                   rtol=1e-5, atol=1e-5)


def test_nearest_tie_rounds_down_as_jax():
    # NumPy rounds a position halfway between two elements to the even one; JAX (and jaxle) to the lower one.
    assert float(jnp.quantile(np.arange(4.0), 0.5, method="nearest")) == 1.0
    assert float(jnp.quantile(np.arange(6.0), 0.5, method="nearest")) == 2.0


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "midpoint", "nearest", "inverted_cdf"])
def test_nanquantile_matches_numpy(method):
    x = jnp_golden.rand((4, 5), "float32", seed=42)
    x[0, [1, 3]] = np.nan
    x[2, :] = np.nan
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanquantile(x, [0.2, 0.9], axis=1, method=method)
    np.testing.assert_allclose(jnp.nanquantile(x, np.array([0.2, 0.9]), axis=1, method=method), want, rtol=1e-6)
    assert np.isnan(np.asarray(jnp.quantile(x, 0.5, axis=1, method=method))[[0, 2]]).all()


def test_weighted_inverted_cdf_matches_numpy():
    x = jnp_golden.rand((3, 6), "float32", seed=43)
    w = np.array([0.5, 2.0, 1.0, 0.0, 3.0, 1.5], np.float32)
    for q in (0.0, 0.3, 0.5, 1.0):
        want = np.quantile(x, q, axis=1, method="inverted_cdf", weights=np.broadcast_to(w, x.shape))
        np.testing.assert_allclose(jnp.quantile(x, q, axis=1, method="inverted_cdf", weights=w), want)


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "bool", "float16", "float32"])
def test_median_matches_numpy(dtype):
    x = jnp_golden.rand((5, 4), dtype, seed=44)
    for axis in (None, 0, 1):
        want = np.median(x.astype(np.float64), axis=axis)
        got = jnp.median(x, axis=axis)
        assert got.dtype == (np.float16 if dtype == "float16" else np.float32)
        np.testing.assert_allclose(got, want, rtol=1e-2 if dtype == "float16" else 1e-6)
        np.testing.assert_allclose(jnp.nanmedian(x, axis=axis), want, rtol=1e-2 if dtype == "float16" else 1e-6)


def test_x64_dtypes():
    with jaxle_core.config.enable_x64(True):
        x = np.arange(7.0)
        assert jnp.median(x).dtype == np.float64
        assert jnp.quantile(np.arange(5), 0.5).dtype == np.float64
        np.testing.assert_allclose(jnp.percentile(x, 37), np.percentile(x, 37))
    assert jnp.quantile(np.arange(5), 0.5).dtype == np.float32


def test_nan_slices():
    x = np.array([[np.nan, np.nan], [1.0, np.nan], [2.0, 4.0]], np.float32)
    np.testing.assert_array_equal(jnp.median(x, axis=1), [np.nan, np.nan, 3.0])
    np.testing.assert_array_equal(jnp.nanmedian(x, axis=1), [np.nan, 1.0, 3.0])


def test_vmap_and_jit():
    x = jnp_golden.rand((3, 6), "float32", seed=45)
    got = jaxle_core.vmap(lambda row: jnp.quantile(row, np.array([0.25, 0.5])))(x)
    np.testing.assert_allclose(got, np.quantile(x, [0.25, 0.5], axis=1).T, rtol=1e-6)
    np.testing.assert_allclose(jaxle_core.jit(jnp.nanmedian)(x), np.nanmedian(x), rtol=1e-6)


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile"])
def test_gradients(name):
    x = np.array([[0.3, -1.2, 2.5, 0.9], [1.7, 0.2, -0.4, 3.1]])
    q = 0.35 if name != "percentile" else 35.0
    with jaxle_core.config.enable_x64(True):
        check_grads(lambda v: getattr(jnp, name)(v, q, axis=1), (x,), order=1, modes=("fwd", "rev"))
        check_grads(jnp.median, (x,), order=1, modes=("rev",))


def test_errors():
    x = np.ones(3, np.float32)
    with pytest.raises(ValueError, match="method can only be 'linear', 'lower'"):
        jnp.quantile(x, 0.5, method="closest_observation")
    with pytest.raises(NotImplementedError, match="nearest doesn't support weights"):
        jnp.quantile(x, 0.5, method="nearest", weights=x)
    with pytest.raises(ValueError, match=r"q must be have rank <= 1, got shape \(1, 1\)"):
        jnp.quantile(x, np.ones((1, 1)))
    with pytest.raises(ValueError, match="does not support overwrite_input=True or out != None"):
        jnp.median(x, overwrite_input=True)
    with pytest.raises(TypeError, match="percentile requires ndarray or scalar arguments"):
        jnp.percentile([1.0, 2.0], 50)
