"""jnp.convolve and jnp.correlate: JAX's goldens, NumPy over modes, shapes and dtypes, gradients."""

import jnp_golden
import make_signal_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("signal_golden.json")


@pytest.mark.parametrize("name", sorted(make_signal_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_signal_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("op", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("sizes", [(6, 3), (6, 4), (3, 6), (4, 7), (1, 1), (2, 2)])
@pytest.mark.parametrize("dtype", ["int32", "float32", "complex64"])
def test_matches_numpy(op, mode, sizes, dtype):
    a, v = jnp_golden.rand((sizes[0],), dtype), jnp_golden.rand((sizes[1],), dtype, 1)
    expected = getattr(np, op)(a, v, mode)
    got = getattr(jnp, op)(a, v, mode)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-5, atol=1e-5)


def test_x64_and_jit():
    with jaxle_core.config.enable_x64(True):
        a, v = jnp_golden.rand((6,), "float64"), jnp_golden.rand((3,), "int64", 1)
        got = jaxle_core.jit(jnp.convolve)(a, v)
        assert got.dtype == np.float64
        np.testing.assert_allclose(np.asarray(got), np.convolve(a, v))


def test_gradients():
    a, v = jnp_golden.rand((5,), "float32"), jnp_golden.rand((3,), "float32", 1)
    check_grads(lambda x, y: jnp.convolve(x, y, "same"), (a, v), order=2, modes=["fwd", "rev"])
    check_grads(lambda x, y: jnp.correlate(x, y, "full"), (v, a), order=1, modes=["fwd", "rev"])
