"""The differentiation examples of the seed documents (seed 001's JAX tutorial, seed 000's API docs), with the
values printed there. ``jnp`` calls are written with lax and the Array operators until jaxle.numpy exists."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core as jax
from jaxle_core import lax

f32 = np.float32


def dot(a, b):
    return a @ b


def close(value, expected, atol=1e-6):
    np.testing.assert_allclose(np.asarray(value), expected, rtol=1e-5, atol=atol)


def test_polynomial_derivatives_to_fourth_order():
    def f(x):
        return x ** 3 + 2 * x ** 2 - 3 * x + 1

    dfdx = jax.grad(f)
    d2fdx = jax.grad(dfdx)
    d3fdx = jax.grad(d2fdx)
    d4fdx = jax.grad(d3fdx)
    assert [float(d(1.0)) for d in (dfdx, d2fdx, d3fdx, d4fdx)] == [4.0, 10.0, 6.0, 0.0]


def test_partial_derivatives():
    def f(x, y):
        return x ** 2 + y

    v, gx = jax.value_and_grad(f, argnums=0)(2.0, 3.0)
    gy = jax.grad(f, argnums=1)(2.0, 3.0)
    assert (float(v), float(gx), float(gy)) == (7.0, 4.0, 1.0)


def test_value_and_grad_with_aux():
    def f(x, y):
        return x ** 2 + y, 42

    (v, aux), g = jax.value_and_grad(f, has_aux=True)(2.0, 3.0)
    assert (float(v), aux, float(g)) == (7.0, 42, 4.0)


def test_gradient_of_linear_function_is_its_coefficients():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(1, 3)).astype(f32)
    x = rng.normal(size=(3,)).astype(f32)

    def fun1d(x):
        return dot(a, x)[0]

    v, g = jax.value_and_grad(fun1d)(x)
    close(jax.grad(fun1d)(x), a[0])
    close(v, (a @ x)[0])
    close(g, a[0])


def test_jacobians_of_linear_function():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(4, 3)).astype(f32)
    x = rng.normal(size=(3,)).astype(f32)
    jf = jax.jacfwd(lambda x: dot(a, x))(x)
    jr = jax.jacrev(lambda x: dot(a, x))(x)
    close(jf, jr)
    close(jf, a)


def test_gradient_and_hessian_of_quadratic_form():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(4, 4)).astype(f32)
    x = rng.normal(size=(4,)).astype(f32)

    def quadfun(x):
        return dot(x, dot(a, x))

    close(jax.grad(quadfun)(x), (a + a.T) @ x, atol=1e-5)
    h1 = jax.hessian(quadfun)(x)
    close(h1, a + a.T, atol=1e-5)
    close(jax.jacfwd(jax.jacrev(quadfun))(x), h1)


def sigmoid(x):
    return 0.5 * (lax.tanh(x / 2.0) + 1)


def test_chain_rule_through_sigmoid():
    rng = np.random.default_rng(3)
    w = rng.normal(size=(4,)).astype(f32)
    x = rng.normal(size=(4,)).astype(f32)

    def mu(w):
        return sigmoid(dot(w, x))

    m = float(mu(w))
    close(jax.grad(mu)(w), m * (1 - m) * x, atol=1e-3)


def test_logistic_regression_gradient_and_hessian_match_textbook_formulas():
    rng = np.random.default_rng(4)
    w = rng.normal(size=(2,)).astype(f32)
    xs = rng.normal(size=(3, 2)).astype(f32)
    ys = np.array([1.0, 0.0, 1.0], f32)

    def loss(weights, inputs, targets):
        preds = sigmoid(dot(inputs, weights))
        logprobs = lax.log(preds) * targets + lax.log(1 - preds) * (1 - targets)
        return -lax.reduce_sum(logprobs, (0,))

    mu = 1 / (1 + np.exp(-(xs @ w)))
    close(jax.grad(loss)(w, xs, ys), ((mu - ys)[:, None] * xs).sum(0), atol=1e-4)
    close(jax.hessian(loss)(w, xs, ys), xs.T @ np.diag(mu * (1 - mu)) @ xs, atol=1e-4)


def test_vjp_of_linear_maps_against_jacobians():
    rng = np.random.default_rng(5)
    w = rng.normal(size=(2, 3)).astype(f32)
    x = rng.normal(size=(3,)).astype(f32)
    u = rng.normal(size=(2,)).astype(f32)
    j1 = jax.jacfwd(lambda x: dot(w, x))(x)
    assert j1.shape == (2, 3)
    close(dot(u, j1), jax.vjp(lambda x: dot(w, x), x)[1](u)[0])
    close(dot(u, j1), w.T @ u)
    j2 = jax.jacfwd(lambda w: dot(w, x))(w)
    assert j2.shape == (2, 2, 3)
    tmp1 = np.einsum("i,ijk->jk", u, np.asarray(j2))
    close(tmp1, jax.vjp(lambda w: dot(w, x), w)[1](u)[0])
    close(tmp1, np.outer(u, x))


def test_stop_gradient_td0_update():
    def value_fn(theta, state):
        return dot(theta, state)

    def td_loss(theta, s_prev, r_t, s_t):
        v_prev = value_fn(theta, s_prev)
        target = r_t + value_fn(theta, s_t)
        return 0.5 * (lax.stop_gradient(target) - v_prev) ** 2

    update = jax.grad(td_loss)(np.array([0.1, -0.1, 0.0], f32), np.array([1.0, 2.0, -1.0], f32), f32(1.0),
                               np.array([2.0, 1.0, 0.0], f32))
    close(update, [-1.2, -2.4, 1.2])


def quantize(y_soft):
    hard = lax.argmax(y_soft, 0, np.int32)
    return lax.convert_element_type(lax.eq(lax.iota(np.int32, 3), hard), np.float32)


def test_quantized_function_has_zero_gradient():
    w = np.array([1.0, 2.0, 3.0], f32)
    y_soft = np.array([0.1, 0.2, 0.7], f32)

    def f(y):
        return dot(w, quantize(y))

    assert float(f(y_soft)) == 3.0
    close(jax.grad(f)(y_soft), [0.0, 0.0, 0.0])


def test_straight_through_estimator():
    w = np.array([1.0, 2.0, 3.0], f32)
    y_soft = np.array([0.1, 0.2, 0.7], f32)

    def f_ste(y):
        yy = y + lax.stop_gradient(quantize(y) - y)
        return dot(w, yy)

    assert float(f_ste(y_soft)) == pytest.approx(3.0)
    close(jax.grad(f_ste)(y_soft), [1.0, 2.0, 3.0])


def test_api_docs_jvp_linearize_vjp_examples():
    y, v = jax.jvp(lax.sin, (0.1,), (0.2,))
    close(y, 0.09983342)
    close(v, 0.19900084)

    def f(x):
        return 3.0 * lax.sin(x) + lax.cos(x / 2.0)

    y, t = jax.jvp(f, (2.0,), (3.0,))
    close(y, 3.26819)
    close(t, -5.00753, atol=1e-5)
    y, f_jvp = jax.linearize(f, 2.0)
    close(y, 3.2681944)
    close(f_jvp(3.0), -5.007528)
    close(f_jvp(4.0), -6.676704)

    def g(x, y):
        return lax.sin(x), lax.cos(y)

    _, g_vjp = jax.vjp(g, 0.5, 1.0)
    xbar, ybar = g_vjp((-0.7, 0.3))
    close(xbar, -0.61430776)
    close(ybar, -0.2524413)
