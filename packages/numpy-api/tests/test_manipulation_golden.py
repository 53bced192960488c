"""jnp's shape manipulation functions replay JAX 0.10.2's golden records: jaxprs, values, weak types, errors."""

import jnp_golden
import make_manipulation_x64_golden
import pytest
from make_manipulation_golden import CASES

import jaxle_core

GOLDEN = jnp_golden.load("manipulation_golden.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), CASES[name])
    expected = GOLDEN[name]
    jnp_golden.assert_case_matches(actual, expected)


GOLDEN_X64 = jnp_golden.load("manipulation_x64_golden.json")


@pytest.mark.parametrize("name", sorted(make_manipulation_x64_golden.CASES))
def test_matches_jax_with_x64(name):
    with jaxle_core.config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_manipulation_x64_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN_X64[name])
