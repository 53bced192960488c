"""Sharded arrays, sharded jit and sharding constraints on eight CPU devices print and compute as JAX 0.10.2's
(golden/make_sharding_golden.py), and their values agree with NumPy."""

import numpy as np
import pytest
from conftest import golden_cases_test

import jaxle

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_sharding_golden")


def _named(*spec):
    return GEN._named(jaxle, *spec)


@pytest.mark.parametrize("spec", [("x", "y"), ("y", "x"), (None, ("x", "y")), (None, ("y", "x")), ("x",), ()])
def test_shards_reassemble_the_array(spec):
    array = jaxle.device_put(GEN.X, _named(*spec))
    np.testing.assert_array_equal(np.asarray(array), GEN.X)
    whole = np.full_like(GEN.X, np.nan)
    for shard in array.addressable_shards:
        whole[shard.index] = np.asarray(shard.data)
        assert shard.data.devices() == {shard.device}
    np.testing.assert_array_equal(whole, GEN.X)


def test_sharded_matmul_against_numpy():
    a = jaxle.device_put(GEN.X, _named("x", "y"))
    b = jaxle.device_put(GEN.X.T.copy(), _named("y", None))
    np.testing.assert_allclose(np.asarray(jaxle.jit(lambda p, q: jaxle.numpy.tanh(p @ q))(a, b)),
                               np.tanh(GEN.X @ GEN.X.T), rtol=1e-6)


def test_grad_through_sharded_jit():
    loss = jaxle.jit(lambda w, x: ((x @ w) ** 2).sum(), in_shardings=(_named(), _named("x")))
    w, x = np.ones((8, 2), np.float32), GEN.X
    grad = jaxle.grad(loss)(w, x)
    np.testing.assert_allclose(np.asarray(grad), 2 * x.T @ (x @ w), rtol=1e-6)


def test_sharded_arrays_survive_pickling_and_device_get():
    array = jaxle.device_put(GEN.X, _named("x", "y"))
    np.testing.assert_array_equal(jaxle.device_get(array), GEN.X)
    assert array.devices() == set(jaxle.devices())
    assert array.device == array.sharding
