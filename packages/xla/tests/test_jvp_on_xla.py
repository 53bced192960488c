"""Forward-mode derivatives computed by XLA: eagerly, under jit, and of jitted functions."""

import numpy as np

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax


def f(x, y):
    return lax.sin(x) * y + lax.exp(x)


def analytic(x, y, dx, dy):
    return np.cos(x) * y * dx + np.sin(x) * dy + np.exp(x) * dx


X, Y = np.linspace(-1, 1, 5, dtype=np.float32), np.float32(1.5)
DX, DY = np.ones(5, np.float32), np.float32(0.5)


def test_jvp_eagerly_on_device_arrays():
    primal, tangent = jc.jvp(f, (jaxle_xla.device_put(X), Y), (DX, DY))
    assert isinstance(tangent, jaxle_xla.XlaArray)
    np.testing.assert_allclose(np.asarray(primal), np.sin(X) * Y + np.exp(X), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(tangent), analytic(X, Y, DX, DY), rtol=1e-6)


def test_jit_of_jvp_and_jvp_of_jit_agree():
    jitted_jvp = jc.jit(lambda x, y, dx, dy: jc.jvp(f, (x, y), (dx, dy)))
    _, from_jit_of_jvp = jitted_jvp(X, Y, DX, DY)
    _, from_jvp_of_jit = jc.jvp(jc.jit(f), (X, Y), (DX, DY))
    np.testing.assert_allclose(np.asarray(from_jit_of_jvp), analytic(X, Y, DX, DY), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(from_jvp_of_jit), analytic(X, Y, DX, DY), rtol=1e-6)
