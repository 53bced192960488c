"""Common autodiff programs written with jnp against JAX 0.10.2's records (staged jaxprs and values)."""

import jnp_golden
import make_autodiff_programs_golden
import pytest

GOLDEN = jnp_golden.load("autodiff_programs_golden.json")


@pytest.mark.parametrize("name", sorted(make_autodiff_programs_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_autodiff_programs_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])
