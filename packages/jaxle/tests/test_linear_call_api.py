"""``jaxle.custom_derivatives.linear_call`` on XLA: core's JAX 0.10.2 goldens (jaxprs, values, gradients, jvps,
vmap's error) through the public name, jitted too."""

import importlib
import pathlib
import sys

import numpy as np
import pytest

import jaxle
from jaxle.custom_derivatives import linear_call

_CORE_GOLDEN = pathlib.Path(__file__).parents[2] / "core" / "tests" / "golden"
if str(_CORE_GOLDEN) not in sys.path:
    sys.path.insert(0, str(_CORE_GOLDEN))

GEN = importlib.import_module("make_linear_call_golden")
GOLDEN = importlib.import_module("make_reductions_golden").load_suite("linear_call")[1]


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax_on_xla(name):
    actual, expected = GEN.run_case(jaxle, linear_call, name), GOLDEN[name]
    for key, want in expected.items():
        if isinstance(want, dict) or key.endswith("jaxpr"):
            assert actual[key] == want
        else:
            np.testing.assert_allclose(actual[key], want, rtol=1e-6)
    f, args = GEN.CASES[name](jaxle, linear_call)
    np.testing.assert_allclose(np.asarray(jaxle.jit(jaxle.grad(f))(*args)), expected["grad"], rtol=1e-6)
