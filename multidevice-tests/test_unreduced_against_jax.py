"""Unreduced and reduced axes in types on eight CPU devices: types, jaxprs, errors, derivatives and results'
layouts as JAX 0.10.2's (golden/make_unreduced_golden.py); values against NumPy."""

import numpy as np
from conftest import golden_cases_test

import jaxle
from jaxle.sharding import AxisType, PartitionSpec

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_unreduced_golden")


def test_values_follow_numpy():
    a = np.arange(32.0, dtype=np.float32).reshape(4, 8) - 10
    b = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)
    mesh = jaxle.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)
    with jaxle.set_mesh(mesh):
        sharded_a = jaxle.device_put(a, PartitionSpec("x", "y"))
        sharded_b = jaxle.device_put(b, PartitionSpec("y"))

        def loss(u, v):
            partial = jaxle.numpy.dot(u, v, out_sharding=PartitionSpec("x", None, unreduced={"y"}))
            reduced = jaxle.sharding.reshard(partial, PartitionSpec("x", None, reduced={"y"}))
            return (reduced * reduced).sum()

        value, (grad_a, grad_b) = jaxle.jit(jaxle.value_and_grad(loss, argnums=(0, 1)))(sharded_a, sharded_b)
    product = a.astype(np.float64) @ b
    np.testing.assert_allclose(float(value), (product ** 2).sum(), rtol=1e-5)
    np.testing.assert_allclose(np.asarray(grad_a), 2 * product @ b.T, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(grad_b), 2 * a.T @ product, rtol=1e-5)
    assert grad_a.sharding.spec == PartitionSpec("x", "y") and grad_b.sharding.spec == PartitionSpec("y", None)
