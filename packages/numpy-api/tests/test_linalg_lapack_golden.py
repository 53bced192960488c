"""The LAPACK-backed jnp.linalg functions and roots/polyfit against JAX 0.10.2's golden records."""

import jnp_golden
import make_jnp_linalg_lapack_golden
import make_jnp_linalg_lapack_x64_golden
import pytest

import jaxle_core

GOLDEN = jnp_golden.load("jnp_linalg_lapack_golden.json")
X64_GOLDEN = jnp_golden.load("jnp_linalg_lapack_x64_golden.json")


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_lapack_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_lapack_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_lapack_x64_golden.CASES))
def test_golden_x64(name):
    with jaxle_core.config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_lapack_x64_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, X64_GOLDEN[name])
