"""jnp's elementwise functions and ufunc methods replayed against JAX 0.10.2's jaxprs, values, weak types and
errors (golden/make_ufuncs_golden.py)."""

import jnp_golden
import make_ufuncs_golden
import pytest

GOLDEN = jnp_golden.load("ufuncs_golden.json")


@pytest.mark.parametrize("name", sorted(make_ufuncs_golden.CASES))
def test_matches_jax(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_ufuncs_golden.CASES[name])
    expected = GOLDEN[name]
    # a message naming a function object carries its address, which differs from run to run
    jnp_golden.assert_case_matches(actual, expected, check_message=" at 0x" not in expected.get("message", ""))
