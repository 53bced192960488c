"""jnp's creation functions with x64 enabled against JAX 0.10.2's records (64-bit defaults, weak types, jaxprs)."""

import jnp_golden
import make_creation_x64_golden
import pytest

from jaxle_core import config

GOLDEN = jnp_golden.load("creation_x64_golden.json")


@pytest.mark.parametrize("name", sorted(make_creation_x64_golden.CASES))
def test_golden_with_x64(name):
    with config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_creation_x64_golden.CASES[name])
    jnp_golden.assert_case_matches(actual, GOLDEN[name])
