"""jnp cumulative reductions: JAX 0.10.2's jaxprs, values and errors (goldens) and NumPy's values over dtypes,
x64, NaNs and include_initial, and gradients by finite differences."""

import jnp_golden
import make_jnp_cumulative_golden as GEN
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("jnp_cumulative_golden.json")

@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), GEN.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "float16", "float32", "complex64"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_match_numpy(dtype, axis):
    x = jnp_golden.rand((3, 4), dtype, seed=31)
    for name, reference in [("cumsum", np.cumsum), ("cumprod", np.cumprod), ("nancumsum", np.nancumsum),
                            ("nancumprod", np.nancumprod)]:
        got = np.asarray(getattr(jnp, name)(x, axis=axis))
        want = reference(x, axis=axis)
        if dtype == "bool":
            want = want.astype(np.int32)
        np.testing.assert_allclose(got, want.astype(got.dtype), rtol=1e-2 if dtype == "float16" else 1e-5)


def test_nan_forms_skip_nans():
    x = np.array([[1.0, np.nan, 2.0], [np.nan, np.nan, 3.0]], np.float32)
    np.testing.assert_array_equal(jnp.nancumsum(x, axis=1), np.nancumsum(x, axis=1))
    np.testing.assert_array_equal(jnp.nancumprod(x), np.nancumprod(x))
    np.testing.assert_array_equal(jnp.cumsum(x, axis=1), np.cumsum(x, axis=1))


@pytest.mark.parametrize("x64", [False, True])
def test_dtypes(x64):
    with jaxle_core.config.enable_x64(x64):
        wide_int = np.dtype("int64" if x64 else "int32")
        assert jnp.cumsum(np.ones(3, bool)).dtype == wide_int
        assert jnp.cumsum(np.ones(3, np.int8)).dtype == np.int8
        assert jnp.cumulative_sum(np.ones(3, np.int8)).dtype == wide_int
        assert jnp.cumulative_sum(np.ones(3, np.uint8)).dtype == np.dtype("uint64" if x64 else "uint32")
        assert jnp.cumulative_prod(np.ones(3, np.int8)).dtype == np.int8
        assert jnp.cumprod(np.ones(3), dtype=bool).dtype == np.bool_
        x = np.arange(1, 7).reshape(2, 3)
        np.testing.assert_array_equal(jnp.cumprod(x, axis=1), np.cumprod(x, axis=1))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_include_initial(axis):
    x = jnp_golden.rand((2, 3), "float32", seed=32)
    zero_shape = list(x.shape)
    zero_shape[axis] = 1
    want_sum = np.concatenate([np.zeros(zero_shape, np.float32), np.cumsum(x, axis=axis)], axis=axis)
    want_prod = np.concatenate([np.ones(zero_shape, np.float32), np.cumprod(x, axis=axis)], axis=axis)
    np.testing.assert_allclose(jnp.cumulative_sum(x, axis=axis, include_initial=True), want_sum, rtol=1e-6)
    np.testing.assert_allclose(jnp.cumulative_prod(x, axis=axis, include_initial=True), want_prod, rtol=1e-6)


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                                  "cumulative_prod"])
def test_gradients(name):
    x = jnp_golden.rand((2, 3), "float32", seed=33).astype(np.float64)
    with jaxle_core.config.enable_x64(True):
        check_grads(lambda v: getattr(jnp, name)(v, axis=1), (x,), order=2, modes=("fwd", "rev"))
