"""A short tour of what jaxle can do so far: pytrees, tracing to jaxprs, jit compiled by XLA, autodiff, jax.numpy,
jax.random."""

import numpy as np

import jaxle_core as jc
import jaxle_numpy as jnp
import jaxle_random as random
import jaxle_tree as tree
import jaxle_xla
from jaxle_core import lax

params = {"w": np.ones((2, 3), np.float32), "b": [np.zeros(3, np.float32), 1.0]}
leaves, treedef = tree.tree_flatten(params)
print("pytree structure:", treedef)
print("scaled leaves   :", tree.tree_map(lambda x: x * 2, params)["b"])


def layer(x, w, b):
    return lax.tanh(x @ w + b)


x = np.arange(2, dtype=np.float32)
print("jaxpr of a layer:")
print(jc.make_jaxpr(layer)(x, params["w"], params["b"][0]))
fast_layer = jc.jit(layer)
print("jit result (XLA):", repr(fast_layer(x, params["w"], params["b"][0])))
print("StableHLO:")
print(fast_layer.lower(x, params["w"], params["b"][0]).as_text())
print("output shape    :", jc.eval_shape(layer, x, params["w"], params["b"][0]))
print("devices         :", jaxle_xla.devices(), "default backend:", jaxle_xla.default_backend())
y = jaxle_xla.device_put(np.linspace(0, 1, 4, dtype=np.float32))
print("eager ops       :", repr(lax.exp(y) * 2))


def loss(w, x):
    return lax.reduce_sum(layer(x, w, params["b"][0]) ** 2, (0,))


print("grad of a loss  :", jc.grad(loss)(params["w"], x))
print("jaxpr of grad   :")
print(jc.make_jaxpr(jc.grad(lambda x: lax.sin(x) * x))(1.0))
cubic = lambda x: x ** 3 + 2 * x ** 2 - 3 * x + 1  # noqa: E731
print("derivatives     :", [float(d(1.0)) for d in (jc.grad(cubic), jc.grad(jc.grad(cubic)))])
print("jit(grad) on XLA:", repr(jc.jit(jc.grad(loss))(params["w"], x)))

xs = np.stack([x, x + 1, x + 2])
print("per-example grad:", jc.jit(jc.vmap(jc.grad(loss), in_axes=(None, 0)))(params["w"], xs).shape)
print("psum under vmap :", jc.vmap(lambda v: v / lax.psum(v, "i"), axis_name="i")(np.arange(1.0, 4.0)))
print("fori_loop sum   :", lax.fori_loop(1, 11, lambda i, total: total + i, 0))
carry, ys = jc.jit(lambda c, xs: lax.scan(lambda c, x: (c + x, c * x), c, xs))(0.0, np.arange(5.0))
print("scan            :", carry, ys)
print("jaxpr of a cond :")
print(jc.make_jaxpr(lambda p, v: lax.cond(p > 0, lax.sin, lax.cos, v))(1.0, 2.0))

print("jax.numpy       :")
data = jnp.arange(12.0).reshape(3, 4)
print("  mean, std     :", data.mean(axis=0), data.std())
print("  x[[2, 0], 1:] :", data[jnp.array([2, 0]), 1:])
print("  .at[1].add(1) :", data.at[1].add(1.0)[1])
print("  einsum        :", jnp.einsum("ij,kj->ik", data, data)[0])
print("  jaxpr of where:")
print(jc.make_jaxpr(lambda v: jnp.where(v > 5, v, 0.0).sum())(data))
print("  grad of a jnp loss:", jc.grad(lambda w: jnp.mean(jnp.tanh(data @ w) ** 2))(jnp.ones(4)))

print("jax.random      :")
key, subkey = random.split(random.PRNGKey(0))
print("  normal        :", random.normal(subkey, (3,)))
print("  per-key draws :", jc.jit(jc.vmap(lambda k: random.uniform(k, (2,))))(random.split(key, 3)))
