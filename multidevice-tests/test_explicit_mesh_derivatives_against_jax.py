"""Derivatives under set_mesh of a mesh of Explicit axes print and compute as JAX 0.10.2's
(golden/make_explicit_mesh_derivatives_golden.py): grad's seed and the ones of JAX's derivative rules are resharded
literals, a cotangent given as a host value is taken as it is (broadcast or reshaped to the output's type by the
transpositions), and the sums and reshapes those make record the operands' layouts as out_sharding."""

import numpy as np
from conftest import golden_cases_test
from golden_cases import typed_mesh

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_explicit_mesh_derivatives_golden")


def test_gradient_of_the_broadcast_loss_follows_numpy():
    # d/dw sum(2 sin(x * w)) = sum over rows of 2 cos(x * w) x, d/dx = 2 cos(x * w) w
    with jaxle.sharding.set_mesh(typed_mesh(jaxle, "Explicit")):
        w, x = GEN._operands(jaxle, "w")
        grad_w, grad_x = jaxle.jit(jaxle.grad(lambda a, b: GEN._broadcast_loss(jaxle, a, b), argnums=(0, 1)))(w, x)
    product = GEN.X * GEN.W[None]
    np.testing.assert_allclose(np.asarray(grad_w), (2 * np.cos(product) * GEN.X).sum(0), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(grad_x), 2 * np.cos(product) * GEN.W[None], rtol=1e-5)
    assert grad_w.sharding.spec == jaxle.sharding.PartitionSpec("y")
