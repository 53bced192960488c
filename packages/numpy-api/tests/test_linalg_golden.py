"""jnp.linalg against JAX 0.10.2's golden records: jaxprs character for character, values, weak types, errors."""

import jnp_golden
import make_jnp_linalg_golden
import pytest

GOLDEN = jnp_golden.load("jnp_linalg_golden.json")


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])
