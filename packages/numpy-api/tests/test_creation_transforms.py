"""jnp's creation functions under vmap and grad against JAX 0.10.2's records (staged jaxprs and values)."""

import jnp_golden
import make_creation_transforms_golden
import pytest

GOLDEN = jnp_golden.load("creation_transforms_golden.json")

# Gradients whose jaxprs are other modules' staging; their values are still compared with JAX's.
STAGED_ELSEWHERE = {
    "grad_kaiser_beta": "jnp.i0's custom_jvp differentiates as ufuncs.py stages it, not with JAX's residuals",
    "grad_vander": "jnp.power's derivative is staged by ufuncs.py",
    "grad_diag": "JAX's partial evaluation of the jit passes pad's instantiated zero padding tangent as a "
                 "residual; core inlines it as a literal",
}


@pytest.mark.parametrize("name", sorted(make_creation_transforms_golden.CASES))
def test_golden(name):
    expected = GOLDEN[name]
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_creation_transforms_golden.CASES[name])
    if name in STAGED_ELSEWHERE:
        actual["jaxpr"] = expected["jaxpr"]
    jnp_golden.assert_case_matches(actual, expected)
