"""Complex values made arrays of a real dtype warn as JAX 0.10.2 does (ComplexWarning, once per conversion JAX
makes, with NumPy's own for a NumPy scalar converted on the host; DeprecationWarning for ``astype``; nothing for
``ones_like`` and friends), eagerly and inside jit, and fail where it fails (a Python complex fill of a real
dtype)."""

import jnp_golden
import make_complex_to_real_golden as cases
import pytest

GOLDEN = jnp_golden.load("complex_to_real_golden.json")


@pytest.mark.parametrize("name", sorted(cases.CALLS))
def test_golden(name):
    assert cases.record(jnp_golden.jaxle_namespace(), cases.CALLS[name]) == GOLDEN[name]
