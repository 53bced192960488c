"""Derivatives of shard_map and pmap print and compute as JAX 0.10.2's (golden/make_parallel_grad_jaxprs_golden.py):
the seed cotangent of an output a shard_map computed is resharded, and the reductions a transposed body makes carry
their out_sharding over the manual mesh."""

import numpy as np
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_parallel_grad_jaxprs_golden")


def test_gradient_values_follow_numpy():
    # d/dw sum((x * w)) = column sums of x, d/dx = w on every row
    grad_w, grad_x = jaxle.grad(GEN._psum_loss(jaxle), argnums=(0, 1))(GEN.W, GEN.X)
    np.testing.assert_allclose(np.asarray(grad_w), GEN.X.sum(0), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(grad_x), np.broadcast_to(GEN.W, GEN.X.shape), rtol=1e-6)


def test_eager_and_jitted_grad_of_pmap_agree_with_the_analytic_gradient():
    # d/du_j of sum_i u_i * sum_k u_k is 2 * sum_k u_k on every device
    loss = lambda v: GEN._pmapped(jaxle)(v).sum()  # noqa: E731
    expected = np.full(GEN.V.shape, 2 * GEN.V.sum())
    np.testing.assert_allclose(np.asarray(jaxle.grad(loss)(GEN.V)), expected, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jaxle.jit(jaxle.grad(loss))(GEN.V)), expected, rtol=1e-6)
