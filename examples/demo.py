"""A short tour of what jaxle can do so far: pytrees, tracing to jaxprs, jit compiled by XLA, and autodiff."""

import numpy as np

import jaxle_core as jc
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
