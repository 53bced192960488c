"""Functions whose saved residuals make_saved_residuals_golden.py prints with JAX 0.10.2 and test_saved_residuals.py
with jaxle: each takes the implementation module ``m`` first, so both run the same source lines."""

import functools

import numpy as np

X = np.linspace(0.1, 0.7, 3).astype(np.float32)
Y = np.arange(3.0, dtype=np.float32)
W = (np.arange(9.0, dtype=np.float32).reshape(3, 3) / 9.0).astype(np.float32)


def elementwise(m, x, y):
    z = m.numpy.sin(x)
    w = z * y
    return m.numpy.sum(m.numpy.cos(w) * x)


def layer(m, x, w):
    h = m.numpy.tanh(x @ w)
    h = m.ad_checkpoint.checkpoint_name(h, "hidden")
    return m.numpy.sum(h @ w)


def loop(m, x):
    carry, _ = m.lax.scan(lambda c, _: (m.numpy.sin(c) * c, None), x, None, length=2)
    return carry.sum()


def cases(m):
    """``name -> (function, arguments)``."""
    f = functools.partial(elementwise, m)
    g = functools.partial(layer, m)
    return {
        "elementwise": (f, (X, Y)),
        "checkpointed": (m.checkpoint(f), (X, Y)),
        "dots_saveable": (m.checkpoint(g, policy=m.checkpoint_policies.dots_saveable), (X, W)),
        "named": (g, (X, W)),
        "save_only_named": (m.checkpoint(g, policy=m.checkpoint_policies.save_only_these_names("hidden")), (X, W)),
        "jitted": (lambda x, y: m.jit(f)(x, y), (X, Y)),
        "pytree_argument": (lambda d: f(d["a"], d["b"]), ({"a": X, "b": Y},)),
        "scan": (functools.partial(loop, m), (X,)),
        "offloaded_dots": (m.checkpoint(g, policy=m.checkpoint_policies.offload_dot_with_no_batch_dims(
            "device", "pinned_host")), (X, W)),
        "offloaded_name": (m.checkpoint(g, policy=m.checkpoint_policies.save_and_offload_only_these_names(
            names_which_can_be_saved=[], names_which_can_be_offloaded=["hidden"], offload_src="device",
            offload_dst="pinned_host")), (X, W)),
    }
