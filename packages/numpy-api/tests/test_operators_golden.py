"""The Python operators of arrays and tracers replayed against JAX 0.10.2's jaxprs, values, weak types and errors
(golden/make_operators_golden.py)."""

import jnp_golden
import make_operators_golden
import pytest

GOLDEN = jnp_golden.load("operators_golden.json")


@pytest.mark.parametrize("name", sorted(make_operators_golden.CASES))
def test_matches_jax(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_operators_golden.CASES[name])
    expected = GOLDEN[name]
    # "unsupported operand type(s)" messages name the array's class: JAX's ArrayImpl/DynamicJaxprTracer, jaxle's own
    jnp_golden.assert_case_matches(actual, expected,
                                   check_message="unsupported operand" not in expected.get("message", ""))
