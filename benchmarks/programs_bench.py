"""Whole-program benchmarks: steady-state jitted steps of small models, and the first call of a large function.

Usage: python programs_bench.py jaxle|jax   (prints one JSON object per line; "us" is microseconds per jitted
call, results waited for; "ms" is milliseconds from the first call of a new function to its result: trace, lower,
XLA compile and run)

The MLP step is the demo's (packages/jaxle/src/jaxle/demo): 64-64-10 ReLU layers, a vmapped cross-entropy over a
batch of 64, value_and_grad and an Adam update, written here against the public API so that both sides run it.
"""

import importlib
import sys
from functools import partial

import numpy as np

from tree_bench import print_timings, sized

F32 = np.float32


def mlp_step(jax):
    jnp = jax.numpy

    def predict(params, image):
        for w, b in params[:-1]:
            image = jnp.maximum(image @ w + b, 0.0)
        w, b = params[-1]
        return image @ w + b

    def example_loss(params, image, label):
        logits = predict(params, image)
        shift = jax.lax.stop_gradient(jnp.max(logits))
        return shift + jnp.log(jnp.sum(jnp.exp(logits - shift))) - logits[label]

    def step(params, moments, images, labels):
        loss, grads = jax.value_and_grad(
            lambda p: jnp.mean(jax.vmap(example_loss, in_axes=(None, 0, 0))(p, images, labels)))(params)
        first, second, count = moments
        count = count + 1
        first = jax.tree.map(lambda m, g: 0.9 * m + 0.1 * g, first, grads)
        second = jax.tree.map(lambda v, g: 0.999 * v + 0.001 * g * g, second, grads)
        scale_1, scale_2 = 1 - 0.9 ** count, 1 - 0.999 ** count
        params = jax.tree.map(lambda p, m, v: p - 1e-2 * (m / scale_1) / (jnp.sqrt(v / scale_2) + 1e-8),
                              params, first, second)
        return params, (first, second, count), loss

    rng = np.random.default_rng(0)
    params = [(rng.normal(size=(64, 64)).astype(F32) * F32(0.17), np.zeros(64, F32)),
              (rng.normal(size=(64, 10)).astype(F32) * F32(0.17), np.zeros(10, F32))]
    zeros = jax.tree.map(np.zeros_like, params)
    state = (jax.device_put(params), (jax.device_put(zeros), jax.device_put(zeros), jnp.int32(0)))
    images = jax.device_put(rng.random(size=(64, 64)).astype(F32))
    labels = jax.device_put(rng.integers(0, 10, 64).astype(np.int32))
    return step, (*state, images, labels)


def cnn_step(jax):
    jnp, lax = jax.numpy, jax.lax
    nhwc = ("NHWC", "HWIO", "NHWC")

    def loss(params, images, labels):
        k1, k2, w = params
        x = jax.nn.relu(lax.conv_general_dilated(images, k1, (1, 1), "SAME", dimension_numbers=nhwc))
        x = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        x = jax.nn.relu(lax.conv_general_dilated(x, k2, (1, 1), "SAME", dimension_numbers=nhwc))
        x = lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") / 4
        logits = x.reshape(x.shape[0], -1) @ w
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), labels[:, None], axis=1))

    def step(params, images, labels):
        grads = jax.grad(loss)(params, images, labels)
        return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)

    rng = np.random.default_rng(1)
    params = jax.device_put((rng.normal(size=(3, 3, 1, 8)).astype(F32), rng.normal(size=(3, 3, 8, 16)).astype(F32),
                             rng.normal(size=(7 * 7 * 16, 10)).astype(F32) * F32(0.03)))
    images = jax.device_put(rng.random(size=(32, 28, 28, 1)).astype(F32))
    labels = jax.device_put(rng.integers(0, 10, 32).astype(np.int32))
    return step, (params, images, labels)


def transformer_block(jax):
    jnp = jax.numpy

    def layer_norm(x):
        mean = jnp.mean(x, axis=-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(jnp.var(x, axis=-1, keepdims=True) + 1e-6)

    def block(params, x):
        wq, wk, wv, wo, w1, w2 = params
        batch, length, width = x.shape
        heads = 4
        h = layer_norm(x)
        q, k, v = ((h @ w).reshape(batch, length, heads, width // heads) for w in (wq, wk, wv))
        attended = jax.nn.dot_product_attention(q, k, v, is_causal=True).reshape(batch, length, width)
        x = x + attended @ wo
        return x + jax.nn.gelu(layer_norm(x) @ w1) @ w2

    def loss(params, x):
        return jnp.mean(block(params, x) ** 2)

    rng = np.random.default_rng(2)
    width = 64
    shapes = [(width, width)] * 4 + [(width, 4 * width), (4 * width, width)]
    params = jax.device_put([rng.normal(size=s).astype(F32) * F32(s[0] ** -0.5) for s in shapes])
    x = jax.device_put(rng.normal(size=(8, 32, width)).astype(F32))
    return jax.value_and_grad(loss), (params, x)


def scan_rnn(jax):
    jnp = jax.numpy

    def run(w, u, xs):
        def cell(h, x):
            h = jnp.tanh(h @ w + x @ u)
            return h, jnp.sum(h)

        return jax.lax.scan(cell, jnp.zeros(32, F32), xs)

    rng = np.random.default_rng(3)
    w = jax.device_put(rng.normal(size=(32, 32)).astype(F32) * F32(0.2))
    u = jax.device_put(rng.normal(size=(8, 32)).astype(F32) * F32(0.3))
    xs = jax.device_put(rng.normal(size=(1000, 8)).astype(F32))
    return run, (w, u, xs)


def per_example_grads(jax):
    jnp = jax.numpy

    def loss(params, x, y):
        w1, w2 = params
        return jnp.sum((jnp.tanh(x @ w1) @ w2 - y) ** 2)

    rng = np.random.default_rng(4)
    params = jax.device_put((rng.normal(size=(16, 32)).astype(F32), rng.normal(size=(32, 4)).astype(F32)))
    xs = jax.device_put(rng.normal(size=(128, 16)).astype(F32))
    ys = jax.device_put(rng.normal(size=(128, 4)).astype(F32))
    return jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)), (params, xs, ys)


PROGRAMS = (mlp_step, cnn_step, transformer_block, scan_rnn, per_example_grads)
"""The steady-state programs: each maker takes the module (jax or jaxle) and returns the function to jit and its
arguments (arrays already on the device)."""


def first_call(jax, equations=5000):
    """A new function of ``equations`` elementwise equations each time, called once: trace, lower, compile, run."""
    x = jax.device_put(np.linspace(0, 1, 16, dtype=F32))

    def body(v):
        for i in range(equations // 2):
            v = jax.numpy.sin(v) * (1.0 + i % 7)
        return v

    # A new partial each call: a function jit has not seen, so no cache of either side can answer.
    return lambda: jax.jit(partial(body))(x).block_until_ready()


def waited(jax, program):
    """A call of the jitted ``program`` (a function and its arguments, as the makers above return them), waited for."""
    fun, args = program
    jitted = jax.jit(fun)
    return lambda: jax.block_until_ready(jitted(*args))


def main():
    jax = importlib.import_module(sys.argv[1])
    cases = {(f"program/{make.__name__}", "us"): waited(jax, make(jax)) for make in PROGRAMS}
    cases[("program/first_call_5000_eqns", "ms")] = first_call(jax, sized(5000, 20))
    print_timings(cases)


if __name__ == "__main__":
    main()
