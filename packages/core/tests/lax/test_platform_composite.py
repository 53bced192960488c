"""lax.platform_dependent and lax.composite: values, jaxprs and errors against JAX 0.10.2 goldens."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("platform_composite")
JAXPRS = dict((name, (fn, args)) for name, fn, args in GEN.transforms(jaxle_core, lax))


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN["cases"][name])


@pytest.mark.parametrize("name", sorted(JAXPRS))
def test_transformed_jaxprs_match_jax(name):
    fn, args = JAXPRS[name]
    assert str(jaxle_core.make_jaxpr(fn)(*args)) == GOLDEN["jaxprs"][name]


def test_composite_cannot_be_transformed():
    assert GEN.transform_errors(jaxle_core, lax) == GOLDEN["transform_errors"]


def test_platform_dependent_gradient_follows_the_cpu_branch():
    grad = jaxle_core.grad(lambda y: lax.platform_dependent(y, cpu=lax.sin, default=lax.cos))(np.float32(0.5))
    np.testing.assert_allclose(float(grad), np.cos(0.5), rtol=1e-6)
