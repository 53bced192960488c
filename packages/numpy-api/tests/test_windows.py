"""jnp's window functions against JAX 0.10.2's records and NumPy."""

import jnp_golden
import make_windows_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core import config
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("windows_golden.json")


@pytest.mark.parametrize("name", sorted(make_windows_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_windows_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("name", ["bartlett", "blackman", "hamming", "hanning"])
@pytest.mark.parametrize("M", [0, 1, 2, 7, 16])
def test_windows_match_numpy(name, M):
    np.testing.assert_allclose(np.asarray(getattr(jnp, name)(M)), getattr(np, name)(M), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("M, beta", [(1, 3.0), (6, 0.0), (7, 8.6), (16, 14.0)])
def test_kaiser_matches_numpy(M, beta):
    np.testing.assert_allclose(np.asarray(jnp.kaiser(M, beta)), np.kaiser(M, beta), rtol=1e-5, atol=1e-6)


def test_x64_and_transformations():
    with config.enable_x64(True):
        assert jnp.hanning(4).dtype == np.float64
        np.testing.assert_allclose(np.asarray(jnp.blackman(9)), np.blackman(9), rtol=1e-12, atol=1e-15)
    betas = np.array([1.0, 5.0], np.float32)
    np.testing.assert_allclose(np.asarray(jaxle_core.vmap(lambda b: jnp.kaiser(5, b))(betas)),
                               np.stack([np.kaiser(5, b) for b in betas]), rtol=1e-5)
    check_grads(lambda b: jnp.kaiser(5, b), (np.float32(2.5),), order=1, rtol=2e-2)
    with pytest.raises(TypeError):
        jnp.kaiser(3, [2])
