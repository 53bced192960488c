"""Seed 001 (the pyprobml "Yet another JAX tutorial" notebook): its single-device examples, run with the module
named on the command line.

``/work/jaxpeer/bin/python integration-tests/golden/make_seed_001_golden.py jax`` writes seed_001_golden.json.
Where the notebook draws unseeded ``np.random`` data, a seeded ``np.random.RandomState`` draws it here (the same
arrays for JAX and jaxle). Its 1000x1000 and 5000x5000 matrices only time operations; here they are 8x8. The
MLP trains 1000 steps as in the notebook but on 32-wide hidden layers instead of 128. Not here: ``distrax``/TFP
and ``optax`` (other libraries), ``jax.tools.colab_tpu``, ``nvidia-smi``, ``jax.__version__`` and the timings
themselves.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from functools import partial

import numpy as np
import seed_golden


def captured(thunk):
    """(what ``thunk`` prints, what it returns)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        result = thunk()
    return printed.getvalue(), result


def devices(jax):
    return str(jax.devices()), str(jax.local_devices()), jax.default_backend()


def backend_through_jax_lib(jax):
    return jax.lib.xla_bridge.get_backend().platform


def jit_on_cpu_backend(jax):
    jnp = jax.numpy
    size = 8

    def jf(x=None):
        if not isinstance(x, jnp.ndarray):
            x = jnp.ones((size, size), dtype=jnp.float32)
        return jnp.dot(x, x.T)

    f_cpu = jax.jit(jf, backend="cpu")
    x = np.ones((size, size)).astype(np.float32)
    x = jax.device_put(x)
    return f_cpu(), jf(x), isinstance(x, jax.Array)


def convolve_of(jnp):
    def convolve(x, w):
        output = []
        for i in range(1, len(x) - 1):
            output.append(jnp.dot(x[i - 1: i + 2], w))
        return jnp.array(output)
    return convolve


def convolution_batched_four_ways(jax):
    jnp = jax.numpy
    convolve = convolve_of(jnp)
    x = jnp.arange(5)
    w = jnp.array([2.0, 3.0, 4.0])
    xs = jnp.stack([x, x])
    ws = jnp.stack([w, w])

    def manually_batched_convolve(xs, ws):
        output = []
        for i in range(xs.shape[0]):
            output.append(convolve(xs[i], ws[i]))
        return jnp.stack(output)

    def manually_vectorised_convolve(xs, ws):
        output = []
        for i in range(1, xs.shape[-1] - 1):
            output.append(jnp.sum(xs[:, i - 1: i + 2] * ws, axis=1))
        return jnp.stack(output, axis=1)

    auto_batch_convolve = jax.vmap(convolve)
    xst = jnp.transpose(xs)
    wst = jnp.transpose(ws)
    auto_batch_convolve_v2 = jax.vmap(convolve, in_axes=1, out_axes=1)
    return (convolve(x, w), manually_batched_convolve(xs, ws), manually_vectorised_convolve(xs, ws),
            auto_batch_convolve(xs, ws), jax.vmap(convolve, in_axes=[0, None])(xs, w), xst.shape,
            auto_batch_convolve_v2(xst, wst))


def logistic_predictor(jax):
    jnp = jax.numpy
    rs = np.random.RandomState(0)
    D = 2
    N = 3
    w = rs.normal(size=(D,))
    X = rs.normal(size=(N, D))

    def sigmoid(x):
        return 0.5 * (jnp.tanh(x / 2.0) + 1)

    def predict_single(x):
        return sigmoid(jnp.dot(w, x))  # <(D) , (D)> = (1) # inner product

    def predict_batch(X):
        return sigmoid(jnp.dot(X, w))  # (N,D) * (D,1) = (N,1) # matrix-vector multiply

    return predict_single, predict_batch, X


def predict_single_and_batched(jax):
    predict_single, predict_batch, X = logistic_predictor(jax)
    return predict_single(X[0, :]), predict_batch(X), jax.vmap(predict_single)(X)


def predict_single_on_a_batch_fails(jax):
    predict_single, _, X = logistic_predictor(jax)
    return predict_single(X)


def example_fun_of(jnp):
    def example_fun(length, val=4):
        return jnp.sum(jnp.ones((length,)) * val)
    return example_fun


def python_map_of_shape_dependent_function(jax):
    xs = jax.numpy.arange(1, 10)
    return list(map(example_fun_of(jax.numpy), xs))


def vmap_of_shape_dependent_function_fails(jax):
    xs = jax.numpy.arange(1, 10)
    return jax.vmap(example_fun_of(jax.numpy))(xs)


def same_key_same_numbers(jax):
    random = jax.random
    key = random.PRNGKey(0)
    first, second = random.normal(key, shape=(3,)), random.normal(key, shape=(3,))
    key, subkey = random.split(key)
    third = random.normal(subkey, shape=(3,))
    key, subkey = random.split(key)
    return first, second, third, random.normal(subkey, shape=(3,))


def keys_make_evaluation_order_irrelevant(jax):
    random = jax.random

    def bar(key):
        return jax.random.uniform(key, shape=(3,))

    def baz(key):
        return jax.random.uniform(key, shape=(3,))

    def foo(key):
        subkey1, subkey2 = random.split(key, num=2)
        return bar(subkey1) + 2 * baz(subkey2)

    def foo1(key):
        subkey1, subkey2 = random.split(key, num=2)
        a = bar(subkey1)
        b = 2 * baz(subkey2)
        return a + b

    def foo2(key):
        subkey1, subkey2 = random.split(key, num=2)
        a = 2 * baz(subkey2)
        b = bar(subkey1)
        return a + b

    key = random.PRNGKey(0)
    key, subkey = random.split(key)
    return foo(subkey), foo1(subkey), foo2(subkey)


def draws_individually_and_at_once(jax):
    random = jax.random
    key = random.PRNGKey(42)
    subkeys = random.split(key, 3)
    sequence = np.stack([jax.random.normal(subkey) for subkey in subkeys])
    key = random.PRNGKey(42)
    return sequence, jax.random.normal(key, shape=(3,))


def derivatives_of_a_cubic(jax):
    def f(x):
        return x**3 + 2 * x**2 - 3 * x + 1
    dfdx = jax.grad(f)
    d2fdx = jax.grad(dfdx)
    d3fdx = jax.grad(d2fdx)
    d4fdx = jax.grad(d3fdx)
    return dfdx(1.0), d2fdx(1.0), d3fdx(1.0), d4fdx(1.0)


def partial_derivatives(jax):
    def f(x, y):
        return x**2 + y
    x = 2.0
    y = 3.0
    v, gx = jax.value_and_grad(f, argnums=0)(x, y)
    gy = jax.grad(f, argnums=1)(x, y)
    return v, gx, gy


def gradient_of_linear_function(jax):
    jnp = jax.numpy
    rs = np.random.RandomState(1)
    Din = 3
    Dout = 1
    a = rs.normal(size=(Dout, Din))
    x = rs.normal(size=(Din,))

    def fun1d(x):
        return jnp.dot(a, x)[0]

    g = jax.grad(fun1d)(x)
    v, g2 = jax.value_and_grad(fun1d)(x)
    return g, v, g2, fun1d(x), a[0]


def jacobians_of_linear_function(jax):
    jnp = jax.numpy
    rs = np.random.RandomState(2)
    A = rs.normal(size=(4, 3))
    x = rs.normal(size=(3,))

    def fun(x):
        return jnp.dot(A, x)

    return jax.jacfwd(fun)(x), jax.jacrev(fun)(x), A


def gradient_and_hessian_of_quadratic_form(jax):
    jnp = jax.numpy
    rs = np.random.RandomState(3)
    D = 4
    A = rs.normal(size=(D, D))
    x = rs.normal(size=(D,))

    def quadfun(x):
        return jnp.dot(x, jnp.dot(A, x))

    def my_hessian(fun):
        return jax.jacfwd(jax.jacrev(fun))

    return (jax.grad(quadfun)(x), jnp.dot(A + A.T, x), jax.hessian(quadfun)(x), my_hessian(quadfun)(x),
            A + A.T)


def chain_rule_through_sigmoid(jax):
    jnp = jax.numpy
    rs = np.random.RandomState(4)
    D = 4
    w = rs.normal(size=(D,))
    x = rs.normal(size=(D,))

    def sigmoid(x):
        return 0.5 * (jnp.tanh(x / 2.0) + 1)

    def mu(w):
        return sigmoid(jnp.dot(w, x))

    def deriv_mu(w):
        return mu(w) * (1 - mu(w)) * x

    return deriv_mu(w), jax.grad(mu)(w)


def auxiliary_return_values(jax):
    def f(x, y):
        return x**2 + y, 42
    x = 2.0
    y = 3.0
    (v, aux), g = jax.value_and_grad(f, has_aux=True)(x, y)
    return v, aux, g


def logistic_regression(jax):
    """The notebook's logistic regression: loss, per-example gradients, textbook gradient and Hessians."""
    jnp, vmap, grad, hessian = jax.numpy, jax.vmap, jax.grad, jax.hessian
    key = jax.random.PRNGKey(1234)  # the notebook's last key before this cell

    def sigmoid(x):
        return 0.5 * (jnp.tanh(x / 2.0) + 1)

    def predict_batch(w, X):
        return sigmoid(jnp.dot(X, w))

    def loss(weights, inputs, targets):
        preds = predict_batch(weights, inputs)
        logprobs = jnp.log(preds) * targets + jnp.log(1 - preds) * (1 - targets)
        return -jnp.sum(logprobs)

    D = 2
    N = 3
    w = jax.random.normal(key, shape=(D,))
    X = jax.random.normal(key, shape=(N, D))
    y = jax.random.choice(key, 2, shape=(N,))  # uniform binary labels
    grad_fun = grad(loss)
    grads = vmap(partial(grad_fun, w))(X, y)
    grads2 = vmap(grad_fun, in_axes=(None, 0, 0))(w, X, y)
    grad_sum = jnp.sum(grads, axis=0)

    def NLL_grad(weights, batch):
        X, y = batch
        mu = predict_batch(weights, X)
        return jnp.sum(jnp.dot(jnp.diag(mu - y), X), axis=0)

    hessian_fun = hessian(loss)
    H0 = hessian_fun(w, X[0, :], y[0])
    Hbatch = vmap(hessian_fun, in_axes=(None, 0, 0))(w, X, y)

    def NLL_hessian(weights, batch):
        X, y = batch
        mu = predict_batch(weights, X)
        S = jnp.diag(mu * (1 - mu))
        return jnp.dot(jnp.dot(X.T, S), X)

    return (loss(w, X, y), grads, grads2, grad_sum, NLL_grad(w, (X, y)), H0, Hbatch, jnp.sum(Hbatch, axis=0),
            NLL_hessian(w, (X, y)))


def vector_jacobian_products(jax):
    jnp = jax.numpy
    key = jax.random.PRNGKey(1234)
    n = 3
    m = 2
    W = jax.random.normal(key, shape=(m, n))
    x = jax.random.normal(key, shape=(n,))
    u = jax.random.normal(key, shape=(m,))

    def f1(x):
        return jnp.dot(W, x)

    J1 = jax.jacfwd(f1)(x)
    tmp1 = jnp.dot(u.T, J1)
    (val, jvp_fun) = jax.vjp(f1, x)

    def f2(W):
        return jnp.dot(W, x)

    J2 = jax.jacfwd(f2)(W)
    tmp2 = jnp.dot(u.T, J2)
    (val2, jvp_fun2) = jax.vjp(f2, W)
    return J1, W, tmp1, jvp_fun(u), J2.shape, tmp2, jvp_fun2(u), np.outer(u, x)


def stop_gradient_in_td_update(jax):
    jnp = jax.numpy

    def td_loss(theta, s_prev, r_t, s_t):
        v_prev = value_fn(theta, s_prev)
        target = r_t + value_fn(theta, s_t)
        return 0.5 * (jax.lax.stop_gradient(target) - v_prev) ** 2

    td_update = jax.grad(td_loss)
    s_prev = jnp.array([1.0, 2.0, -1.0])
    r_t = jnp.array(1.0)
    s_t = jnp.array([2.0, 1.0, 0.0])

    def value_fn(theta, state):
        return jnp.dot(theta, state)

    theta = jnp.array([0.1, -0.1, 0.0])
    return td_update(theta, s_prev, r_t, s_t)


def straight_through_estimator(jax):
    jnp = jax.numpy

    def onehot(labels, num_classes):
        y = labels[..., None] == jnp.arange(num_classes)[None]
        return y.astype(jnp.float32)

    def quantize(y_soft):
        y_hard = onehot(jnp.argmax(y_soft), 3)[0]
        return y_hard

    y_soft = np.array([0.1, 0.2, 0.7])

    def f(y):
        w = jnp.array([1, 2, 3])
        yq = quantize(y)
        return jnp.dot(w, yq)

    def f_ste(y):
        w = jnp.array([1, 2, 3])
        yq = quantize(y)
        yy = y + jax.lax.stop_gradient(yq - y)  # gives yq on fwd, and y on backward
        return jnp.dot(w, yy)

    return quantize(y_soft), f(y_soft), jax.grad(f)(y_soft), f_ste(y_soft), jax.grad(f_ste)(y_soft)


def per_example_gradients(jax):
    jnp = jax.numpy

    def loss(w, x):
        return jnp.dot(w, x)

    w = jnp.ones((3,))
    x0 = jnp.array([1.0, 2.0, 3.0])
    x1 = 2 * x0
    X = jnp.stack([x0, x1])
    perex_grads = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0)))
    gradfn = jax.grad(loss)
    W = jnp.stack([w, w])
    return X.shape, perex_grads(w, X), jax.vmap(gradfn)(W, X), jax.vmap(gradfn, in_axes=(None, 0))(w, X)


def jit_fusion(jax):
    jnp = jax.numpy

    def slow_f(x):
        return x * x + x * 2.0

    x = jnp.ones((8, 8))
    fast_f = jax.jit(slow_f)

    @jax.jit
    def faster_f(x):
        return x * x + x * 2.0

    return slow_f(x), fast_f(x), faster_f(x)


def broadcast_times_scalar(jnp):
    def f(x):
        y = jnp.ones((1, 5)) * x
        return y
    return f


def jaxpr_of_broadcast_times_scalar(jax):
    f = broadcast_times_scalar(jax.numpy)
    return f(3.0), str(jax.make_jaxpr(f)(3.0)), jax.jit(f)(3.0)


def value_dependent_branch(x):
    if x > 0:
        return x
    else:
        return 2 * x


def value_dependent_branch_runs_eagerly(jax):
    return value_dependent_branch(3.0)


def value_dependent_branch_under_jit_fails(jax):
    return jax.jit(value_dependent_branch)(3.0)


def value_dependent_branch_with_static_argnums(jax):
    f = jax.jit(value_dependent_branch, static_argnums=(0,))
    g = partial(jax.jit, static_argnums=(0,))(value_dependent_branch)
    return f(3), g(3)


def static_argnums_under_vmap_fails(jax):
    xs = jax.numpy.arange(5)
    f = partial(jax.jit, static_argnums=(0,))(value_dependent_branch)
    return jax.vmap(f)(xs)


def side_effects_run_once_under_jit(jax):
    def f(x):
        print("x", x)
        y = 2 * x
        print("y", y)
        return y

    def session():
        y1 = f(2)
        print("f", y1)
        print("\ncall function a second time")
        y1 = f(2)
        print("f", y1)
        print("\njit version follows")
        g = jax.jit(f)
        y2 = g(2)
        print("f", y2)
        print("\ncall jitted function a second time")
        y2 = g(2)
        print("f", y2)

    return captured(session)[0]


def string_branch(x: int, y: str):
    if y == "add":
        return x + 1
    else:
        return x - 1


def strings_work_eagerly(jax):
    return string_branch(42, "add"), string_branch(42, "sub")


def strings_are_not_jax_types(jax):
    return jax.jit(string_branch)(42, "add")


def tree_leaves_was_removed(jax):
    return jax.tree_leaves([1, {"k1": 2, "k2": (3, 4)}, 5])


def tree_leaves(jax):
    t1 = [1, {"k1": 2, "k2": (3, 4)}, 5]
    t4 = [jax.numpy.array([1, 2, 3]), "foo"]
    return jax.tree_util.tree_leaves(t1), jax.tree.leaves(t4)


def tree_map(jax):
    tree_util = jax.tree_util
    t1 = [1, {"k1": 2, "k2": (3, 4)}, 5]
    t2 = tree_util.tree_map(lambda x: x * x, t1)
    t3 = tree_util.tree_map(lambda x, y: x + y, t1, t2)
    data = [dict(t=1, obs="a", val=-1), dict(t=2, obs="b", val=-2), dict(t=3, obs="c", val=-3)]
    data2 = jax.tree.map(lambda d0, d1, d2: list((d0, d1, d2)), data[0], data[1], data[2])

    def join_trees(list_of_trees):
        return jax.tree.map(lambda *xs: list(xs), *list_of_trees)

    return t2, t3, data2, join_trees(data)


def tree_flatten_and_unflatten(jax):
    t1 = [1, {"k1": 2, "k2": (3, 4)}, 5]
    leaves, treedef = jax.tree_util.tree_flatten(t1)
    t2 = jax.tree_util.tree_unflatten(treedef, leaves)
    return leaves, str(treedef), t2


def linear_regression_with_pytrees(jax):
    jnp, random = jax.numpy, jax.random

    def make_predict_pytree(params):
        def predict(x):
            return jnp.dot(params["W"], x) + params["b"]
        return predict

    def make_mse_pytree(x_batched, y_batched):  # returns fn(params)->real
        def mse(params):
            def squared_error(x, y):
                y_pred = make_predict_pytree(params)(x)
                return jnp.inner(y - y_pred, y - y_pred) / 2.0
            return jnp.mean(jax.vmap(squared_error)(x_batched, y_batched), axis=0)
        return jax.jit(mse)

    N = 20
    xdim = 10
    ydim = 5
    key = random.PRNGKey(0)
    Wtrue = random.normal(key, (ydim, xdim))
    btrue = random.normal(key, (ydim,))
    params_true = {"W": Wtrue, "b": btrue}
    true_predict_fun = make_predict_pytree(params_true)
    X = random.normal(key, (N, xdim))
    Ytrue = jax.vmap(true_predict_fun)(X)
    Y = Ytrue + 0.1 * random.normal(key, (N, ydim))
    params = {"W": jnp.zeros_like(Wtrue), "b": jnp.zeros_like(btrue)}
    mse_pytree = make_mse_pytree(X, Y)
    first = (mse_pytree(params_true), mse_pytree(params), jax.grad(mse_pytree)(params))
    alpha = 0.3  # Gradient step size
    losses = []
    for i in range(101):
        gradients = jax.grad(mse_pytree)(params)
        params = jax.tree.map(lambda old, grad: old - alpha * grad, params, gradients)
        if i % 10 == 0:
            losses.append(mse_pytree(params))
    close = jax.tree.map(lambda x, y: bool(np.allclose(x, y, atol=1e-1)), params, params_true)
    return first, losses, close


def mlp_trained_by_sgd(jax):
    jnp = jax.numpy

    def init_mlp_params(layer_widths):
        params = []
        for n_in, n_out in zip(layer_widths[:-1], layer_widths[1:]):
            params.append(
                dict(weights=np.random.normal(size=(n_in, n_out)) * np.sqrt(2 / n_in),
                     biases=np.ones(shape=(n_out,))))
        return params

    def forward(params, x):
        *hidden, last = params
        for layer in hidden:
            x = jax.nn.relu(x @ layer["weights"] + layer["biases"])
        return x @ last["weights"] + last["biases"]

    def loss_fn(params, x, y):
        return jnp.mean((forward(params, x) - y) ** 2)

    np.random.seed(0)
    params = init_mlp_params([1, 32, 32, 1])
    shapes = jax.tree.map(lambda x: x.shape, params)
    LEARNING_RATE = 0.0001

    @jax.jit
    def update(params, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grads)

    np.random.seed(0)
    xs = np.random.normal(size=(200, 1))
    ys = xs**2
    first_loss = loss_fn(params, xs, ys)
    for _ in range(1000):
        params = update(params, xs, ys)
    return shapes, first_loss, loss_fn(params, xs, ys), forward(params, xs[:5])


def sum_exact(N):
    return int(N * (N + 1) / 2)


def fori_loop_sums(jax):
    def sum_fast(N):
        return jax.lax.fori_loop(1, N + 1, lambda i, partial_sum: i + partial_sum, 0)
    return sum_fast(10), sum_fast(1000), sum_exact(1000)


def fori_loop_of_matrix_products(jax):
    jnp = jax.numpy
    key = jax.random.PRNGKey(0)
    D = 10
    X = jax.random.normal(key, shape=(D, D))

    def sum_slow(N):
        s = jnp.zeros_like(X)
        for _ in range(1, N + 1):
            s += jnp.dot(X, X)
        return s

    def sum_fast(N):
        s = jnp.zeros_like(X)
        s = jax.lax.fori_loop(1, N + 1, lambda i, s: s + jnp.dot(X, X), s)
        return s

    return sum_fast(10), sum_slow(10)


def while_loop_sum(jax):
    def sum_fast_while(N):
        init_val = (0, 0)

        def cond_fun(val):
            s, i = val
            return i <= N

        def body_fun(val):
            s, i = val
            s += i
            i += 1
            return (s, i)

        val = jax.lax.while_loop(cond_fun, body_fun, init_val)
        return val[0]

    return sum_fast_while(10), sum_exact(10)


def markov_chain_by_scan(jax):
    jnp = jax.numpy
    logit = importlib.import_module(f"{jax.__name__}.scipy.special").logit
    init_dist = jnp.array([0.8, 0.2])
    trans_mat = jnp.array([[0.9, 0.1], [0.5, 0.5]])
    rng_key = jax.random.PRNGKey(0)
    seq_len = 15
    initial_state = jax.random.categorical(rng_key, logits=logit(init_dist), shape=(1,))

    def draw_state(prev_state, key):
        logits = logit(trans_mat[:, prev_state])
        state = jax.random.categorical(key, logits=logits.flatten(), shape=(1,))
        return state, state

    rng_key, rng_state, rng_obs = jax.random.split(rng_key, 3)
    keys = jax.random.split(rng_state, seq_len - 1)
    final_state, states = jax.lax.scan(draw_state, initial_state, keys)
    return initial_state, final_state, states


def counters(jax):
    jnp = jax.numpy
    SEQUENCE = jnp.arange(0, 100, 2)

    class Counter:
        def __init__(self):
            self.n = 0

        def count(self) -> int:
            res = SEQUENCE[self.n]
            self.n += 1
            return res

        def reset(self):
            self.n = 0

    counter = Counter()
    stateful = [counter.count() for _ in range(3)]
    counter.reset()
    fast_count = jax.jit(counter.count)
    stateful_jitted = [fast_count() for _ in range(3)]

    class CounterV2:
        def count(self, n):
            return SEQUENCE[n], n + 1

        def reset(self):
            return 0

    def run(count):
        state = CounterV2().reset()
        values = []
        for _ in range(3):
            value, state = count(state)
            values.append(value)
        return values

    return stateful, stateful_jitted, run(CounterV2().count), run(jax.jit(CounterV2().count))


def in_place_assignment_fails(jax):
    A = jax.numpy.zeros((3, 3), dtype=np.float32)
    A[1, :] = 1.0
    return A


def index_update_was_removed(jax):
    ops = importlib.import_module(f"{jax.__name__}.ops")
    return ops.index_update


def functional_updates(jax):
    jnp = jax.numpy
    D = 3
    A = 2 * jnp.ones((D, D))
    A3 = A.at[1, :].set(42.0)
    A4 = A.at[1, :].mul(42.0)
    return A, A3, A4


def diag_of_a_list_fails(jax):
    return jax.numpy.diag([1.0, 2.0, 3.0])


def diag_of_an_array(jax):
    return jax.numpy.diag(jax.numpy.array([1.0, 2.0, 3.0]))


HELPERS = {"captured", "convolve_of", "logistic_predictor", "example_fun_of", "broadcast_times_scalar",
           "value_dependent_branch", "string_branch", "sum_exact"}
EXAMPLES = {name: example for name, example in list(globals().items())
            if callable(example) and getattr(example, "__module__", None) == __name__ and name not in HELPERS}

if __name__ == "__main__":
    seed_golden.write(EXAMPLES, "001")
