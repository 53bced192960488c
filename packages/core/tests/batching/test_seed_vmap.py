"""The vectorisation examples of the seed documents (seed 001's JAX tutorial, seed 002's README): the
convolution batched by vmap, per-example gradients and batched hessians of logistic regression, with the
values printed there or textbook formulas. ``jnp`` calls are written with lax and the Array operators until
jaxle.numpy exists."""

from __future__ import annotations

import functools

import numpy as np

import jaxle_core as jax
from jaxle_core import lax

f32 = np.float32


def close(value, expected, atol=1e-6):
    np.testing.assert_allclose(np.asarray(value), expected, rtol=1e-5, atol=atol)


def stack(values, axis=0):
    expanded = [lax.expand_dims(v, (axis,)) for v in values]
    return lax.concatenate(expanded, axis)


def convolve(x, w):
    return stack([x[i - 1:i + 2] @ w for i in range(1, x.shape[0] - 1)])


X = np.arange(5, dtype=f32)
W = np.array([2.0, 3.0, 4.0], f32)
XS, WS = np.stack([X, X]), np.stack([W, W])
CONVOLVED = np.array([11.0, 20.0, 29.0], f32)


def test_convolve_one_vector():
    close(convolve(X, W), CONVOLVED)


def test_vmap_convolve_matches_the_manual_batch():
    close(jax.vmap(convolve)(XS, WS), np.stack([CONVOLVED, CONVOLVED]))


def test_vmap_convolve_with_an_unbatched_kernel():
    close(jax.vmap(convolve, in_axes=[0, None])(XS, W), np.stack([CONVOLVED, CONVOLVED]))


def test_vmap_convolve_along_axis_one():
    out = jax.vmap(convolve, in_axes=1, out_axes=1)(XS.T, WS.T)
    assert out.shape == (3, 2)
    close(out, np.stack([CONVOLVED, CONVOLVED], axis=1))


def test_vmap_convolve_is_batched_not_looped():
    rng = np.random.default_rng(0)
    xs, ws = rng.normal(size=(7, 5)).astype(f32), rng.normal(size=(7, 3)).astype(f32)
    expected = np.stack([[x[i - 1:i + 2] @ w for i in range(1, 4)] for x, w in zip(xs, ws)])
    close(jax.vmap(convolve)(xs, ws), expected, atol=1e-5)
    jaxpr = jax.make_jaxpr(jax.vmap(convolve))(xs, ws)
    assert sum(e.primitive.name == "dot_general" for e in jaxpr.eqns) == 3  # one batched dot per output position


def sigmoid(x):
    return 0.5 * (lax.tanh(x / 2.0) + 1)


def loss(weights, inputs, targets):
    preds = sigmoid(inputs @ weights)
    logprobs = lax.log(preds) * targets + lax.log(1 - preds) * (1 - targets)
    return -lax.reduce_sum(logprobs, tuple(range(logprobs.ndim)))


def logistic_data():
    rng = np.random.default_rng(4)
    return (rng.normal(size=(2,)).astype(f32), rng.normal(size=(3, 2)).astype(f32),
            np.array([1.0, 0.0, 1.0], f32))


def test_per_example_gradients_two_ways_and_their_sum():
    w, xs, ys = logistic_data()
    grad_fun = jax.grad(loss)
    grads = jax.vmap(functools.partial(grad_fun, w))(xs, ys)
    assert grads.shape == (3, 2)
    close(jax.vmap(grad_fun, in_axes=(None, 0, 0))(w, xs, ys), np.asarray(grads))
    mu = 1 / (1 + np.exp(-(xs @ w)))
    close(grads, (mu - ys)[:, None] * xs, atol=1e-5)  # the per-example textbook gradient
    close(lax.reduce_sum(grads, (0,)), (np.diag(mu - ys) @ xs).sum(0), atol=1e-5)  # seed's NLL_grad


def test_jit_of_per_example_gradients():
    w, xs, ys = logistic_data()
    per_example = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
    mu = 1 / (1 + np.exp(-(xs @ w)))
    close(per_example(w, xs, ys), (mu - ys)[:, None] * xs, atol=1e-5)


def test_batched_hessians_sum_to_the_textbook_hessian():
    w, xs, ys = logistic_data()
    hessian_fun = jax.hessian(loss)
    mu = 1 / (1 + np.exp(-(xs @ w)))
    h0 = hessian_fun(w, xs[0, :], ys[0])
    close(h0, mu[0] * (1 - mu[0]) * np.outer(xs[0], xs[0]), atol=1e-5)
    hbatch = jax.vmap(hessian_fun, in_axes=(None, 0, 0))(w, xs, ys)
    assert hbatch.shape == (3, 2, 2)
    close(lax.reduce_sum(hbatch, (0,)), xs.T @ np.diag(mu * (1 - mu)) @ xs, atol=1e-5)


def test_per_example_gradients_of_an_mlp_match_a_python_loop():
    rng = np.random.default_rng(5)
    params = [(rng.normal(size=(4, 8)).astype(f32), rng.normal(size=(8,)).astype(f32)),
              (rng.normal(size=(8, 2)).astype(f32), rng.normal(size=(2,)).astype(f32))]
    inputs, targets = rng.normal(size=(6, 4)).astype(f32), rng.normal(size=(6, 2)).astype(f32)

    def mlp_loss(params, x, y):
        for w, b in params[:-1]:
            x = lax.tanh(x @ w + b)
        w, b = params[-1]
        err = x @ w + b - y
        return lax.reduce_sum(err * err, (0,))

    batched = jax.vmap(jax.grad(mlp_loss), in_axes=(None, 0, 0))(params, inputs, targets)
    for i in range(inputs.shape[0]):
        one = jax.grad(mlp_loss)(params, inputs[i], targets[i])
        for (bw, bb), (w, b) in zip(batched, one):
            close(np.asarray(bw)[i], np.asarray(w), atol=1e-5)
            close(np.asarray(bb)[i], np.asarray(b), atol=1e-5)
