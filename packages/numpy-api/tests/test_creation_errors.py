"""JAX 0.10.2's errors for creation functions given traced sizes, counts and offsets (or its jaxpr where JAX
accepts a traced value: a diagonal offset of tri)."""

import jnp_golden
import make_creation_errors_golden
import pytest

GOLDEN = jnp_golden.load("creation_errors_golden.json")


@pytest.mark.parametrize("name", sorted(make_creation_errors_golden.CASES))
def test_golden(name):
    expected = GOLDEN[name]
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_creation_errors_golden.CASES[name])
    # A message quoting the tracer differs in its repr only (JAX's JitTracer(~int32[])).
    jnp_golden.assert_case_matches(actual, expected, check_message="Tracer" not in expected.get("message", ""))
