"""jax.scipy.linalg on the XLA backend: every LAPACK-backed case of golden/scipy_linalg_golden.json (JAX 0.10.2's
values on CPU) replayed eagerly, bit for bit — the same LAPACK routines called the same way, with the same
operations before and after."""

import jnp_golden  # found through conftest.py's path
import make_scipy_linalg_golden
import make_scipy_linalg_x64_golden
import pytest
import scipy_golden

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

SUITES = jnp_golden.float32_and_x64(make_scipy_linalg_golden.CASES, "scipy_linalg_golden.json",
                                  make_scipy_linalg_x64_golden.CASES, "scipy_linalg_x64_golden.json")


@pytest.mark.parametrize("x64, name", jnp_golden.cases_with_values(SUITES, prefix="linalg."))
def test_golden_values_bit_for_bit(x64, name):
    jnp_golden.assert_bit_for_bit(*jnp_golden.replay_values(SUITES, x64, name, scipy_golden.jaxle_namespace()), name)
