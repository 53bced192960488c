"""A short tour of what jaxle can do so far: pytrees, tracing to jaxprs, and jit compiled by XLA."""

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
