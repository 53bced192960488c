"""take, take_along_axis, nonzero and the other selections against JAX 0.10.2's goldens (jaxprs, values, errors)."""

import jnp_golden
import make_selection_golden
import pytest

GOLDEN = jnp_golden.load("selection_golden.json")


@pytest.mark.parametrize("name", sorted(make_selection_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_selection_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])
