"""Reverse-mode derivatives computed by XLA: eagerly, under jit, of jitted functions, and a training step."""

import numpy as np

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax

RNG = np.random.default_rng(0)
W1, W2 = RNG.normal(size=(4, 8)).astype(np.float32), RNG.normal(size=(8, 1)).astype(np.float32)
X, Y = RNG.normal(size=(16, 4)).astype(np.float32), RNG.normal(size=(16, 1)).astype(np.float32)


def mlp_loss(params, x, y):
    w1, w2 = params
    hidden = lax.tanh(x @ w1)
    err = hidden @ w2 - y
    return lax.reduce_sum(err * err, (0, 1)) / 16.0


def numpy_grads(w1, w2, x, y):
    hidden = np.tanh(x @ w1)
    d_out = 2 * (hidden @ w2 - y) / 16
    g2 = hidden.T @ d_out
    g1 = x.T @ ((d_out @ w2.T) * (1 - hidden ** 2))
    return g1, g2


def test_grad_eagerly_returns_device_arrays():
    g1, g2 = jc.grad(mlp_loss)((jaxle_xla.device_put(W1), W2), X, Y)
    assert isinstance(g1, jaxle_xla.XlaArray) and isinstance(g2, jaxle_xla.XlaArray)
    e1, e2 = numpy_grads(W1, W2, X, Y)
    np.testing.assert_allclose(np.asarray(g1), e1, rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(np.asarray(g2), e2, rtol=2e-5, atol=1e-6)


def test_jitted_training_step_decreases_the_loss():
    @jc.jit
    def step(params, x, y):
        loss, grads = jc.value_and_grad(mlp_loss)(params, x, y)
        return loss, tuple(p - 0.1 * g for p, g in zip(params, grads))

    params = (W1, W2)
    losses = []
    for _ in range(20):
        loss, params = step(params, X, Y)
        losses.append(float(loss))
    assert losses[-1] < losses[0] * 0.7
    e1, _ = numpy_grads(W1, W2, X, Y)
    g1, _ = jc.jit(jc.grad(mlp_loss))((W1, W2), X, Y)
    np.testing.assert_allclose(np.asarray(g1), e1, rtol=2e-5, atol=1e-6)


def test_grad_of_jitted_function_and_higher_order():
    f = jc.jit(lambda x: lax.sin(x) * x)
    x = np.float32(0.7)
    np.testing.assert_allclose(np.asarray(jc.grad(f)(x)), np.sin(x) + x * np.cos(x), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jc.grad(jc.grad(f))(x)), 2 * np.cos(x) - x * np.sin(x), rtol=1e-6)
    h = jc.jit(jc.hessian(lambda v: lax.reduce_sum(v * v * v, (0,))))(np.arange(3, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(h), np.diag(6 * np.arange(3)), rtol=1e-6)


def test_eager_custom_jvp_with_a_boolean_argument():
    """The boolean argument's float0 tangent reaches the device as booleans, eagerly as under jit."""

    @jc.custom_jvp
    def masked(x, mask):
        return lax.select(mask, x, lax.full_like(x, 0.0))

    @masked.defjvp
    def masked_jvp(primals, tangents):
        x, mask = primals
        return masked(x, mask), lax.select(mask, tangents[0], lax.full_like(x, 0.0))

    x, mask = np.arange(3.0, dtype=np.float32), np.array([True, False, True])
    def loss(v):
        return lax.reduce_sum(masked(v, mask) * v, (0,))
    expected = np.where(mask, 2 * x, 0.0)
    np.testing.assert_array_equal(np.asarray(jc.grad(loss)(jaxle_xla.device_put(x))), expected)
    np.testing.assert_array_equal(np.asarray(jc.jit(jc.grad(loss))(x)), expected)
    zeros = np.zeros(3, jc.dtypes.float0)
    _, tangent = jc.jvp(masked, (jaxle_xla.device_put(x), mask), (np.ones(3, np.float32), zeros))
    np.testing.assert_array_equal(np.asarray(tangent), mask.astype(np.float32))


def test_float0_results_of_a_jitted_function_are_numpy_arrays():
    # as JAX's: a float0 value has no data, so it never lives on a device
    def cotangents(a, b):
        return jc.vjp(lambda a, b: a * 2.0 + b, a, b)[1](np.float32(1))

    int_cotangent, float_cotangent = jc.jit(cotangents)(1, 2.0)
    assert type(int_cotangent) is np.ndarray and int_cotangent.dtype == jc.dtypes.float0 and int_cotangent.shape == ()
    assert float(float_cotangent) == 1.0
