"""jax.scipy.signal, optimize, sparse.linalg and interpolate on the XLA backend: every case of
golden/scipy_signal_golden.json and its 64-bit form (JAX 0.10.2's values on CPU) replayed eagerly, bit for bit."""

import jnp_golden  # found through conftest.py's path
import make_scipy_signal_golden
import make_scipy_signal_x64_golden
import pytest
import scipy_golden

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

SUITES = jnp_golden.float32_and_x64(make_scipy_signal_golden.CASES, "scipy_signal_golden.json",
                                  make_scipy_signal_x64_golden.CASES, "scipy_signal_x64_golden.json")


@pytest.mark.parametrize("x64, name", jnp_golden.cases_with_values(SUITES))
def test_golden_values_bit_for_bit(x64, name):
    jnp_golden.assert_bit_for_bit(*jnp_golden.replay_values(SUITES, x64, name, scipy_golden.jaxle_namespace()), name)
