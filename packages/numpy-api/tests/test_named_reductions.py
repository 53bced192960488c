"""jnp reductions over a vmap's named axis as JAX 0.10.2's: collectives (jaxpr text and values), and JAX's errors
where the name is unbound or the reduction has no collective (golden/named_reductions_golden.json)."""

import jnp_golden
import make_named_reductions_golden as cases
import pytest

GOLDEN = jnp_golden.load("named_reductions_golden.json")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), cases.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])
