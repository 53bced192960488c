"""``shard_map`` with only some mesh axes manual (``axis_names``) prints, computes, lowers and raises as JAX
0.10.2's, and collectives over several mesh axes agree with it (golden/make_shard_map_axes_golden.py); the values
also against NumPy."""

import numpy as np
import pytest
from conftest import golden_cases_test

import jaxle
from jaxle import lax

GEN, GOLDEN, test_matches_jax = golden_cases_test("make_shard_map_axes_golden")
P = jaxle.sharding.PartitionSpec


@pytest.mark.parametrize("jit", [False, True])
def test_the_other_axis_sees_whole_rows(jit):
    # Manual over "i" only: each of the 2 row blocks is whole along the columns, whatever "j" lays out.
    x = np.arange(32.0, dtype=np.float32).reshape(4, 8)
    f = GEN._sm(jaxle, lambda v: lax.psum(v.sum(1, keepdims=True), "i") * v, P("i"), P("i"))
    out = (jaxle.jit(f) if jit else f)(x)
    blocks = x.reshape(2, 2, 8)
    expected = blocks.sum(2, keepdims=True).sum(0) * blocks
    np.testing.assert_allclose(np.asarray(out), expected.reshape(4, 8))


def test_gradient_agrees_with_the_unmapped_computation():
    x = np.arange(16.0, dtype=np.float32).reshape(4, 4) / 10
    w = np.linspace(-1.0, 1.0, 4, dtype=np.float32)
    mapped = jaxle.grad(GEN._loss(jaxle), argnums=(0, 1))(x, w)
    unmapped = jaxle.grad(lambda a, b: ((jaxle.numpy.sin(a) * b).reshape(2, 2, 4).sum(0) ** 2).sum(),
                          argnums=(0, 1))(x, w)
    for got, want in zip(mapped, unmapped):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6)
