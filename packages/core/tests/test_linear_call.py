"""``linear_call``: jaxprs of the call and of its gradient, values, gradients and jvps against JAX 0.10.2
goldens, and a gradient against finite differences of the transpose's definition."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core.linear_call import linear_call

GEN = importlib.import_module("make_linear_call_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("linear_call")[1]


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    actual, expected = GEN.run_case(jaxle_core, linear_call, name), GOLDEN[name]
    assert set(actual) == set(expected)
    for key, want in expected.items():
        got = actual[key]
        if isinstance(want, dict) or key.endswith("jaxpr"):
            assert got == want, f"{key}:\n{got}\n!=\n{want}"
        else:
            np.testing.assert_allclose(got, want, rtol=1e-6)


def test_transpose_is_the_users_and_transposes_back():
    def f(x):
        return linear_call(lambda r, t: r * t, lambda r, ct: 10.0 * ct, 3.0, x)

    # The user's transpose is used even though it is not the true transpose: the gradient is 10, not 3.
    assert float(jaxle_core.grad(f)(np.float32(1))) == 10.0
    # Transposing the transpose gives the callee back: jvp of the vjp is the callee again.
    _, pullback = jaxle_core.vjp(f, np.float32(1))
    assert float(jaxle_core.linear_transpose(lambda ct: pullback(ct)[0], np.float32(0))(np.float32(2))[0]) == 6.0


def test_transpose_output_structure_is_checked():
    def f(x):
        return linear_call(lambda r, t: t, lambda r, ct: (ct, ct), (), x)

    with pytest.raises(TypeError, match="transpose output pytree structure must match"):
        jaxle_core.grad(f)(np.float32(1))
