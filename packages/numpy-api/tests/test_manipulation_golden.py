"""jnp's shape manipulation functions replay JAX 0.10.2's golden records: jaxprs, values, weak types, errors."""

import jnp_golden
import pytest
from make_manipulation_golden import CASES

GOLDEN = jnp_golden.load("manipulation_golden.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name):
    jnp_golden.assert_case_matches(jnp_golden.run_case(jnp_golden.jaxle_namespace(), CASES[name]), GOLDEN[name])
