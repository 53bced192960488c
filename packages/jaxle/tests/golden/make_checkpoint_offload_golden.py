"""Write checkpoint_offload_golden.json: gradients of checkpointed functions whose policy offloads residuals to
pinned host memory, compiled and run on CPU by JAX 0.10.2: the lowered StableHLO text of the jitted gradient, its
value eager and jitted, and the types and memory kinds of the residuals a ``vjp`` pullback holds:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_checkpoint_offload_golden.py jax
"""

from __future__ import annotations

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
X = np.linspace(0.1, 1.0, 6, dtype=np.float32).reshape(2, 3)
W = np.linspace(-0.5, 0.5, 9, dtype=np.float32).reshape(3, 3)


def _functions(m):
    jnp = importlib.import_module(f"{m.__name__}.numpy")
    name = importlib.import_module(f"{m.__name__}.ad_checkpoint").checkpoint_name
    lax = importlib.import_module(f"{m.__name__}.lax")

    def named_dots(x, w):
        y = name(jnp.sin(x @ w), "a")
        z = name(jnp.cos(y @ w), "b")
        return jnp.sum(z * y)

    def jit_inside(x, w):
        y = m.jit(lambda a, b: name(jnp.tanh(a @ b), "b"))(x, w)
        return jnp.sum(jnp.cos(y) * x)

    def scanned(x, w):
        g = m.checkpoint(named_dots, policy=_policies(m)["offload_names"])
        return lax.scan(lambda c, xs: (c + g(xs, w), None), 0.0, jnp.stack([x, 2 * x]))[0]

    def cond_inside(x, w):
        y = lax.cond(jnp.sum(x) > 0, lambda a: name(jnp.sin(a @ w), "b"), lambda a: a * 2.0, x)
        return jnp.sum(jnp.cos(y))

    return {"named_dots": named_dots, "jit_inside": jit_inside, "cond_inside": cond_inside, "scanned": scanned}


def _policies(m):
    cp = m.checkpoint_policies
    return {"offload_names": cp.save_and_offload_only_these_names(
                names_which_can_be_saved=["a"], names_which_can_be_offloaded=["b"], offload_src="device",
                offload_dst="pinned_host"),
            "offload_dots": cp.offload_dot_with_no_batch_dims("device", "pinned_host")}


def cases(m) -> dict:
    """``name -> function of (x, w)`` whose gradient is recorded."""
    table = {}
    for body_name, body in _functions(m).items():
        if body_name == "scanned":  # checkpointed inside
            table[body_name] = body
            continue
        for policy_name, policy in _policies(m).items():
            table[f"{body_name}-{policy_name}"] = m.checkpoint(body, policy=policy)
    return table


def record(m, name: str, fun) -> dict:
    """The case's records (no lowered text for the scan, whose lowering is jaxle's own)."""
    grad = m.grad(fun, argnums=(0, 1))
    leaves = m.tree_util.tree_leaves(m.vjp(fun, X, W)[1])
    return {"lowered": None if name == "scanned" else m.jit(grad).lower(X, W).as_text(),
            "eager": [np.asarray(g).tolist() for g in grad(X, W)],
            "jitted": [np.asarray(g).tolist() for g in m.jit(grad)(X, W)],
            "residuals": [[str(m.typeof(r)), getattr(getattr(r, "sharding", None), "memory_kind", None)]
                          for r in leaves]}


def main() -> None:
    m = importlib.import_module(sys.argv[1])
    records = {name: record(m, name, fun) for name, fun in cases(m).items()}
    write_golden(records, HERE / "checkpoint_offload_golden.json")


if __name__ == "__main__":
    main()
