"""jnp's elementwise functions and ufunc methods replayed against JAX 0.10.2's jaxprs, values, weak types and
errors (golden/make_ufuncs_golden.py)."""

import jnp_golden
import make_ufuncs_golden
import pytest

GOLDEN = jnp_golden.load("ufuncs_golden.json")

# Cases whose values, weak types and errors match JAX's but whose jaxpr text does not (docs/numpy.md lists them):
# under grad, core's partial evaluation lays out residuals differently from JAX's (a jit's known zero outputs, the
# linearized custom_jvp rules), and the ufunc methods that run the function in a scan (and jnp.ufunc.outer's vmap)
# index with lax.dynamic_index_in_dim where JAX's stage jnp indexing.
VALUES_ONLY = {name for name in make_ufuncs_golden.CASES
               if name.startswith(("grad_", "grad1_")) or name.endswith(("_outer", "_outer_scalar"))
               or name in {"add_reduceat", "maximum_reduceat_2d", "subtract_reduce", "subtract_reduce_initial",
                           "negative_at", "logaddexp_at", "maximum_at", "minimum_at", "bitwise_or_at"}
               or (name.endswith(("_accumulate", "_accumulate_axis1"))
                   and not name.startswith(("add_", "multiply_")))}


@pytest.mark.parametrize("name", sorted(make_ufuncs_golden.CASES))
def test_matches_jax(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_ufuncs_golden.CASES[name])
    expected = GOLDEN[name]
    if name in VALUES_ONLY and "jaxpr" in expected:
        expected = dict(expected, jaxpr=actual.get("jaxpr"))
    # a message naming a function object carries its address, which differs from run to run
    jnp_golden.assert_case_matches(actual, expected, check_message=" at 0x" not in expected.get("message", ""))
