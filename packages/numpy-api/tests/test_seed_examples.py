"""The examples of the JAX tutorial notebook the project was seeded with that use jax.numpy, with its printed values.

Where the tutorial draws data from ``jax.random`` (a later package), NumPy's generator stands in and the result is
checked against NumPy's computation of the same formula instead of the printed digits.
"""

from functools import partial

import numpy as np
import pytest

import jaxle_core as jax
import jaxle_numpy as jnp


def convolve(x, w):
    output = []
    for i in range(1, len(x) - 1):
        output.append(jnp.dot(x[i - 1: i + 2], w))
    return jnp.array(output)


def test_convolution_and_its_batching():
    x = jnp.arange(5)
    w = jnp.array([2.0, 3.0, 4.0])
    expected = np.array([11.0, 20.0, 29.0], np.float32)
    out = convolve(x, w)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, expected)
    xs, ws = jnp.stack([x, x]), jnp.stack([w, w])

    def manually_batched_convolve(xs, ws):
        return jnp.stack([convolve(xs[i], ws[i]) for i in range(xs.shape[0])])

    def manually_vectorised_convolve(xs, ws):
        output = []
        for i in range(1, xs.shape[-1] - 1):
            output.append(jnp.sum(xs[:, i - 1: i + 2] * ws, axis=1))
        return jnp.stack(output, axis=1)

    batched = np.stack([expected, expected])
    np.testing.assert_array_equal(manually_batched_convolve(xs, ws), batched)
    np.testing.assert_array_equal(manually_vectorised_convolve(xs, ws), batched)
    np.testing.assert_array_equal(jax.vmap(convolve)(xs, ws), batched)
    np.testing.assert_array_equal(jax.vmap(convolve, in_axes=[0, None])(xs, w), batched)
    xst, wst = jnp.transpose(xs), jnp.transpose(ws)
    assert (xs.shape, xst.shape) == ((2, 5), (5, 2))
    np.testing.assert_array_equal(jax.vmap(convolve, in_axes=1, out_axes=1)(xst, wst), batched.T)


def test_linear_regression_with_pytree_parameters():
    rng = np.random.default_rng(0)
    n, xdim, ydim = 20, 10, 5
    w_true = rng.standard_normal((ydim, xdim)).astype(np.float32)
    b_true = rng.standard_normal(ydim).astype(np.float32)
    x_data = rng.standard_normal((n, xdim)).astype(np.float32)
    y_data = (x_data @ w_true.T + b_true + 0.1 * rng.standard_normal((n, ydim))).astype(np.float32)

    def make_predict_pytree(params):
        def predict(x):
            return jnp.dot(params["W"], x) + params["b"]
        return predict

    def make_mse_pytree(x_batched, y_batched):
        def mse(params):
            def squared_error(x, y):
                y_pred = make_predict_pytree(params)(x)
                return jnp.inner(y - y_pred, y - y_pred) / 2.0
            return jnp.mean(jax.vmap(squared_error)(x_batched, y_batched), axis=0)
        return jax.jit(mse)

    mse_pytree = make_mse_pytree(x_data, y_data)
    params = {"W": jnp.zeros_like(w_true), "b": jnp.zeros_like(b_true)}
    np.testing.assert_allclose(mse_pytree(params), np.mean(np.sum(y_data ** 2, axis=1)) / 2, rtol=1e-5)
    gradients = jax.grad(mse_pytree)(params)
    np.testing.assert_allclose(gradients["W"], -(y_data.T @ x_data) / n, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(gradients["b"], -y_data.mean(axis=0), rtol=1e-4, atol=1e-5)
    alpha = 0.3
    w_np, b_np = np.zeros((ydim, xdim)), np.zeros(ydim)
    for _ in range(101):
        gradients = jax.grad(mse_pytree)(params)
        params = {k: params[k] - alpha * gradients[k] for k in params}
        residual = y_data - (x_data @ w_np.T + b_np)
        w_np, b_np = w_np + alpha * residual.T @ x_data / n, b_np + alpha * residual.mean(axis=0)
    # The same descent in float64 NumPy, from the analytic gradient.
    np.testing.assert_allclose(params["W"], w_np, atol=2e-4)
    np.testing.assert_allclose(params["b"], b_np, atol=2e-4)
    assert float(mse_pytree(params)) < 0.05


def test_mlp_trains_under_jit():
    rng = np.random.default_rng(0)
    widths = [1, 16, 16, 1]
    params = [dict(weights=rng.standard_normal((m, k)) * np.sqrt(2 / m), biases=np.ones(k))
              for m, k in zip(widths[:-1], widths[1:])]

    def forward(params, x):
        *hidden, last = params
        for layer in hidden:
            x = jnp.maximum(x @ layer["weights"] + layer["biases"], 0)
        return x @ last["weights"] + last["biases"]

    def loss_fn(params, x, y):
        return jnp.mean((forward(params, x) - y) ** 2)

    @jax.jit
    def update(params, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        return [{k: p[k] - 0.01 * g[k] for k in p} for p, g in zip(params, grads)]

    xs = rng.standard_normal((64, 1))
    ys = xs ** 2
    assert [p["weights"].shape for p in params] == [(1, 16), (16, 16), (16, 1)]
    start = float(loss_fn(params, xs, ys))
    for _ in range(200):
        params = update(params, xs, ys)
    assert float(loss_fn(params, xs, ys)) < start / 4


SEQUENCE = jnp.arange(0, 100, 2)


class Counter:
    def __init__(self):
        self.n = 0

    def count(self):
        res = SEQUENCE[self.n]
        self.n += 1
        return res

    def reset(self):
        self.n = 0


class CounterV2:
    def count(self, n):
        return SEQUENCE[n], n + 1

    def reset(self):
        return 0


def test_counter_state_is_traced_once_under_jit():
    counter = Counter()
    assert [int(counter.count()) for _ in range(3)] == [0, 2, 4]
    counter.reset()
    fast_count = jax.jit(counter.count)
    assert [int(fast_count()) for _ in range(3)] == [0, 0, 0]
    counter = CounterV2()
    for count in (counter.count, jax.jit(counter.count)):
        state, values = counter.reset(), []
        for _ in range(3):
            value, state = count(state)
            values.append(int(value))
        assert values == [0, 2, 4]


def test_functional_updates_with_at():
    a = jnp.zeros((3, 3), dtype=np.float32)
    with pytest.raises(TypeError, match="do not support in-place item assignment"):
        a[1, :] = 1.0
    a = 2 * jnp.ones((3, 3))
    a3 = a.at[1, :].set(42.0)
    a4 = a.at[1, :].mul(42.0)
    np.testing.assert_array_equal(a, np.full((3, 3), 2.0))
    np.testing.assert_array_equal(a3, [[2, 2, 2], [42, 42, 42], [2, 2, 2]])
    np.testing.assert_array_equal(a4, [[2, 2, 2], [84, 84, 84], [2, 2, 2]])
    assert str(a4) == "[[ 2.  2.  2.]\n [84. 84. 84.]\n [ 2.  2.  2.]]"


def test_diag_of_a_list_raises_and_of_an_array_works():
    with pytest.raises(TypeError):
        jnp.diag([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(jnp.diag(jnp.array([1.0, 2.0, 3.0])), np.diag([1.0, 2.0, 3.0]))


def test_vectorize_examples():
    @partial(jnp.vectorize, signature="(k),(k)->(k)")
    def cross_product(a, b):
        assert a.shape == b.shape and a.ndim == b.ndim == 1
        return jnp.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])

    @partial(jnp.vectorize, signature="(n,m),(m)->(n)")
    def matrix_vector_product(matrix, vector):
        assert matrix.ndim == 2 and matrix.shape[1:] == vector.shape
        return matrix @ vector

    assert cross_product(jnp.ones(3), jnp.ones(3)).shape == (3,)
    assert cross_product(jnp.ones((2, 3)), jnp.ones(3)).shape == (2, 3)
    assert cross_product(jnp.ones((1, 2, 3)), jnp.ones((2, 1, 3))).shape == (2, 2, 3)
    with pytest.raises(ValueError, match="does not have enough dimensions for all core dimensions"):
        matrix_vector_product(jnp.ones(3), jnp.ones(3))
    assert matrix_vector_product(jnp.ones((2, 3)), jnp.ones(3)).shape == (2,)
    assert matrix_vector_product(jnp.ones((2, 3)), jnp.ones((4, 3))).shape == (4, 2)
    with pytest.raises(TypeError, match="dot_general requires contracting dimensions to have the same shape, "
                                        r"got \(3,\) and \(4,\)"):
        jnp.matmul(jnp.ones((2, 3)), jnp.ones((4, 3)))


def test_onehot_quantize_and_straight_through_gradient():
    def onehot(labels, num_classes):
        y = labels[..., None] == jnp.arange(num_classes)[None]
        return y.astype(jnp.float32)

    def quantize(y_soft):
        return onehot(jnp.argmax(y_soft), 3)[0]

    y_soft = np.array([0.1, 0.2, 0.7])
    np.testing.assert_array_equal(quantize(y_soft), [0.0, 0.0, 1.0])

    def f(y):
        return jnp.dot(jnp.array([1, 2, 3]), quantize(y))

    def f_ste(y):
        yy = y + jax.lax.stop_gradient(quantize(y) - y)
        return jnp.dot(jnp.array([1, 2, 3]), yy)

    assert float(f(y_soft)) == 3.0
    np.testing.assert_array_equal(jax.grad(f)(y_soft), [0.0, 0.0, 0.0])
    assert float(f_ste(y_soft)) == 3.0
    np.testing.assert_array_equal(jax.grad(f_ste)(y_soft), [1.0, 2.0, 3.0])
