"""A training program written for JAX, using JAX's public API only; the compat tests run it unmodified through
``python -m jaxle.compat run`` (where ``import jax`` imports jaxle) and compare its numbers with ``train`` called on
``import jaxle as jax``. It is never run with the real jax: no test imports it as a script but through jaxle.compat.

Fits a two-layer network to a noisy sine with minibatch SGD and momentum; prints the losses as JSON.
"""

import json
import sys


def train(jax, jnp, steps: int = 30) -> dict:
    """The losses of ``steps`` training steps and the final parameters' checksum, as plain Python floats."""
    random = jax.random
    key = random.PRNGKey(42)
    data_key, init_key, noise_key = random.split(key, 3)
    xs = random.uniform(data_key, (64, 1), minval=-3.0, maxval=3.0)
    ys = jnp.sin(xs) + 0.05 * random.normal(noise_key, xs.shape)

    def init(key, sizes):
        keys = random.split(key, len(sizes) - 1)
        return [{"w": random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)}
                for k, m, n in zip(keys, sizes[:-1], sizes[1:])]

    def predict(params, x):
        for layer in params[:-1]:
            x = jnp.tanh(x @ layer["w"] + layer["b"])
        return x @ params[-1]["w"] + params[-1]["b"]

    def loss_fn(params, x, y):
        per_example = jax.vmap(lambda xi, yi: jnp.sum((predict(params, xi) - yi) ** 2))(x, y)
        return jnp.mean(per_example)

    @jax.jit
    def step(params, velocity, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        velocity = jax.tree_util.tree_map(lambda v, g: 0.9 * v + g, velocity, grads)
        params = jax.tree.map(lambda p, v: p - 0.05 * v, params, velocity)
        return params, velocity, loss

    params = init(init_key, [1, 16, 16, 1])
    velocity = jax.tree.map(jnp.zeros_like, params)
    losses = []
    for i in range(steps):
        batch = random.permutation(random.fold_in(key, i), 64)[:16]
        params, velocity, loss = step(params, velocity, xs[batch], ys[batch])
        losses.append(float(loss))
    total = sum(float(jnp.sum(leaf)) for leaf in jax.tree_util.tree_leaves(params))
    return {"losses": losses, "checksum": float(total), "x64": bool(jax.config.jax_enable_x64)}


if __name__ == "__main__":
    import importlib  # the names jax and jax.numpy are jaxle's modules once jaxle.compat is installed

    jax, jnp = importlib.import_module("jax"), importlib.import_module("jax.numpy")

    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    print(json.dumps(train(jax, jnp, steps)))
