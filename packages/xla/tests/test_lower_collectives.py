"""Collectives on XLA: psum/pmax/pmin over the mapped axis are reductions over a positional axis; a receive is
refused as JAX refuses it off GPU."""

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_xla  # noqa: F401  (installs the XLA backend)
from jaxle_core import lax

RNG = np.random.default_rng(0)


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_reductions_over_the_vmapped_axis(jit, dtype):
    x = (RNG.normal(size=(4, 3)) * 10).astype(dtype)

    def f(v):
        return lax.psum(v, "i"), lax.pmax(v, "i"), lax.pmin(v, "i"), v - lax.pmean(v, "i")

    g = jc.vmap(f, axis_name="i")
    s, mx, mn, centred = (jc.jit(g) if jit else g)(x)
    np.testing.assert_allclose(np.asarray(s), np.broadcast_to(x.sum(0), x.shape), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(mx), np.broadcast_to(x.max(0), x.shape))
    np.testing.assert_array_equal(np.asarray(mn), np.broadcast_to(x.min(0), x.shape))
    np.testing.assert_allclose(np.asarray(centred), x - x.mean(0), rtol=1e-5, atol=1e-5)


def test_nested_names_and_grad_on_xla():
    x = RNG.normal(size=(2, 3, 4)).astype(np.float32)
    total = jc.jit(jc.vmap(jc.vmap(lambda v: lax.psum(v, ("i", "j")), axis_name="j"), axis_name="i"))(x)
    np.testing.assert_allclose(np.asarray(total), np.broadcast_to(x.sum((0, 1)), x.shape), rtol=1e-5)
    y = np.abs(x[0]) + 1
    normalise = jc.vmap(lambda v: v / lax.psum(v, "i"), axis_name="i")
    g = jc.jit(jc.grad(lambda v: lax.reduce_sum(normalise(v) ** 2, (0, 1))))(y)
    s = y.sum(0)
    np.testing.assert_allclose(np.asarray(g), 2 * y / s ** 2 - 2 * (y ** 2).sum(0) / s ** 3, rtol=1e-4, atol=1e-6)


def test_a_receive_is_not_compiled_as_in_jax_on_cpu():
    def receive():
        return lax.precv(lax.create_token(), jc.ShapeDtypeStruct((3,), np.float32), "i", [(0, 1)])

    with pytest.raises(NotImplementedError, match="^precv is currently only implemented on GPU$"):
        jc.jit(receive)()
