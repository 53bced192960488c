"""A jitted function given a device (``device=``, ``backend=``) or some in_shardings, staged into another function,
prints and runs as JAX 0.10.2's (golden/make_placed_jit_jaxprs_golden.py): its equation names the device's sharding
for every argument and result (those not given as ``UnspecifiedValue``), kept through grad, jvp, linearize and vmap
(residuals unspecified, a split dimension's batch left unsplit); the outer program constrains the call's boundary to
that device and runs there."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_placed_jit_jaxprs_golden")


def test_gradient_of_placed_function_runs_on_its_device():
    x = np.linspace(-2.0, 2.0, 5, dtype=np.float32)
    grad = jaxle.jit(jaxle.grad(lambda v: GEN._product(jaxle)(v).sum()))(x)
    np.testing.assert_allclose(np.asarray(grad), np.sin(x) + x * np.cos(x), rtol=1e-6)
    assert grad.devices() == {jaxle.devices()[2]}
