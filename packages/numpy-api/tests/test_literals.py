"""How jaxprs print scalar constants against JAX 0.10.2's records (golden/make_literals_golden.py): Python scalars
as given, typed scalars as the value of their dtype, conversions of constants folded; with 64-bit types off and on."""

import jnp_golden
import make_literals_golden
import pytest

from jaxle_core import config

GOLDEN = jnp_golden.load("literals_golden.json")
GOLDEN_X64 = jnp_golden.load("literals_x64_golden.json")


@pytest.mark.parametrize("x64", [False, True])
@pytest.mark.parametrize("name", sorted(make_literals_golden.CASES))
def test_literals_print_as_jax(name, x64):
    with config.enable_x64(x64):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_literals_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, (GOLDEN_X64 if x64 else GOLDEN)[name])
