"""jnp's ranges (arange, linspace, logspace, geomspace) against JAX 0.10.2's records and NumPy."""

import jnp_golden
import make_ranges_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core import config
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("ranges_golden.json")


def _message_is_reproducible(message: str) -> bool:
    """Messages quoting an object's address or a tracer's repr differ from JAX's in those details only."""
    return "0x" not in message and "Tracer" not in message


@pytest.mark.parametrize("name", sorted(make_ranges_golden.CASES))
def test_golden(name):
    expected = GOLDEN[name]
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_ranges_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, expected, _message_is_reproducible(expected.get("message", "")))


@pytest.mark.parametrize("args", [(5,), (2.5,), (2, 5), (5, 2, -1), (0, 1, 0.1), (1.0, 0.0, -0.25), (-3,), (1, 2.5),
                                  (0, 10, 3)])
def test_arange_matches_numpy(args):
    out = jnp.arange(*args)
    expected = np.arange(*args)
    assert out.dtype == jaxle_core.dtypes.canonicalize_dtype(expected.dtype)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("num", [0, 1, 2, 7])
@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("bounds", [(0.0, 1.0), (-2, 3), (np.array([0.0, 1.0]), np.array([1.0, -1.0])),
                                    (np.zeros((2, 1)), np.ones(3))])
def test_linspace_matches_numpy(num, endpoint, bounds):
    out, step = jnp.linspace(*bounds, num, endpoint=endpoint, retstep=True)
    expected, expected_step = np.linspace(*bounds, num, endpoint=endpoint, retstep=True)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(step), expected_step, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_spaces_along_axes_match_numpy(axis):
    start, stop = np.array([1.0, 2.0]), np.array([8.0, 32.0])
    for ours, theirs in [(jnp.linspace, np.linspace), (jnp.logspace, np.logspace), (jnp.geomspace, np.geomspace)]:
        np.testing.assert_allclose(np.asarray(ours(start, stop, 4, axis=axis)), theirs(start, stop, 4, axis=axis),
                                   rtol=1e-5)


@pytest.mark.parametrize("start, stop", [(1, 1000), (-1, -16), (2.0, 0.5), (1j, 8j)])
def test_geomspace_matches_numpy(start, stop):
    np.testing.assert_allclose(np.asarray(jnp.geomspace(start, stop, 4)), np.geomspace(start, stop, 4), rtol=1e-5)


def test_x64_keeps_64_bit_types():
    with config.enable_x64(True):
        assert jnp.arange(3).dtype == np.int64
        assert jnp.arange(0.5, 2).dtype == np.float64
        assert jnp.linspace(0, 1, 3).dtype == np.float64
        assert jnp.logspace(0, 1, 3, dtype=np.int64).dtype == np.int64
        np.testing.assert_allclose(np.asarray(jnp.linspace(0, 1, 11)), np.linspace(0, 1, 11), rtol=1e-15)


def test_linspace_under_jit_vmap_and_grad():
    f = jaxle_core.jit(lambda a, b: jnp.linspace(a, b, 5))
    np.testing.assert_allclose(np.asarray(f(np.float32(1), np.float32(3))), np.linspace(1, 3, 5))
    batched = jaxle_core.vmap(lambda b: jnp.linspace(0.0, b, 3))(np.arange(1, 4, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(batched), np.linspace(0, np.arange(1, 4), 3, axis=1))
    check_grads(lambda a, b: jnp.linspace(a, b, 4), (np.float32(0.5), np.float32(2.0)), order=2)
    check_grads(lambda a, b: jnp.geomspace(a, b, 3), (np.float32(0.5), np.float32(2.0)), order=1)
    check_grads(lambda a, b: jnp.logspace(a, b, 3, base=2.0), (np.float32(0.5), np.float32(2.0)), order=1)
