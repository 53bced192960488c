"""jnp.linalg, roots and polyfit on the XLA backend: every LAPACK-backed case of golden/jnp_linalg_lapack_golden.json
(JAX 0.10.2's values on CPU) replayed eagerly, bit for bit — the same LAPACK routines called the same way, with the
same operations before and after."""

import jnp_golden  # found through conftest.py's path
import make_jnp_linalg_lapack_golden
import make_jnp_linalg_lapack_x64_golden
import pytest

import jaxle_xla  # noqa: F401 - XLA becomes the default backend

SUITES = jnp_golden.float32_and_x64(make_jnp_linalg_lapack_golden.CASES, "jnp_linalg_lapack_golden.json",
                                  make_jnp_linalg_lapack_x64_golden.CASES, "jnp_linalg_lapack_x64_golden.json")


@pytest.mark.parametrize("x64, name", jnp_golden.cases_with_values(SUITES))
def test_golden_values_bit_for_bit(x64, name):
    jnp_golden.assert_bit_for_bit(*jnp_golden.replay_values(SUITES, x64, name, jnp_golden.jaxle_namespace()), name)
