"""Print the jaxprs of ``checkpoint``-ed functions and their derivatives, as JSON, to compare jaxle with JAX 0.10.2.

Usage: ``python make_checkpoint_golden.py jax [OUT.json]`` (with JAX 0.10.2's interpreter) writes the goldens;
with ``jaxle_core`` it prints jaxle's text.
"""

from __future__ import annotations

import importlib
import types

import numpy as np
from make_jvp_golden import render_table, write_golden

f32 = np.float32


def checkpoint_api(impl: types.ModuleType) -> tuple:
    """``(checkpoint, remat, checkpoint_name, checkpoint_policies)`` of the implementation ``impl``."""
    if impl.__name__ == "jax":
        names = importlib.import_module("jax.ad_checkpoint")
        return impl.checkpoint, impl.remat, names.checkpoint_name, impl.checkpoint_policies
    module = importlib.import_module(f"{impl.__name__}.checkpoint")
    return module.checkpoint, module.remat, module.checkpoint_name, module.checkpoint_policies


def sin_sin(lax, x):
    return lax.sin(lax.sin(x))


def named_sin_product(lax, name, x):
    y = name(lax.sin(x), "a")
    return lax.sin(y) * y


def mlp(lax, name, params, x):
    """Two dense tanh layers, the dots and activations named, summed to a scalar."""
    (w1, w2), h = params, x
    for i, w in enumerate((w1, w2)):
        h = name(lax.dot_general(h, w, (((1,), (0,)), ((), ()))), f"dot{i}")
        h = name(lax.tanh(h), f"act{i}")
    return lax.reduce_sum(h, (0, 1))


def batched_dots(lax, x, w):
    y = lax.sin(lax.dot_general(x, w, (((2,), (1,)), ((0,), (0,)))))
    return lax.reduce_sum(lax.dot_general(y, y, (((2,), (2,)), ((0,), (0,)))), (0, 1, 2))


def cases(impl, lax):
    """``(name, function, arguments)`` triples."""
    ck, remat, name, cp = checkpoint_api(impl)
    grad, jvp, jit = impl.grad, impl.jvp, impl.jit
    g = lambda x: sin_sin(lax, x)
    h = lambda x: named_sin_product(lax, name, x)
    net = lambda w1, w2, x: mlp(lax, name, (w1, w2), x)
    x0 = f32(2.0)
    mats = (np.full((3, 4), 0.1, f32), np.full((4, 2), 0.2, f32), np.full((5, 3), 0.3, f32))
    batch = (np.full((2, 3, 4), 0.1, f32), np.full((2, 4, 3), 0.2, f32))
    consts = np.arange(3, dtype=f32)
    table = [
        ("staged", ck(g), (x0,)),
        ("grad", grad(ck(g)), (x0,)),
        ("jvp", lambda x: jvp(ck(g), (x,), (x,)), (x0,)),
        ("linearize", lambda x: impl.linearize(ck(g), x)[1](x), (x0,)),
        ("remat_alias", grad(remat(g)), (x0,)),
        ("prevent_cse_false", grad(ck(g, prevent_cse=False)), (x0,)),
        ("named_staged", ck(h), (x0,)),
        ("grad_grad", grad(grad(ck(g))), (x0,)),
        ("jit_of_grad", jit(grad(ck(g))), (x0,)),
        ("grad_of_jit", grad(jit(ck(g))), (x0,)),
        ("closure_const", grad(lambda x: lax.reduce_sum(ck(lambda y: lax.sin(y * consts))(x), (0,))),
         (np.ones(3, f32),)),
        ("static_argnums", lambda x: grad(ck(lambda y, n: lax.integer_pow(lax.sin(y), n), static_argnums=(1,)))(x, 3),
         (x0,)),
        ("two_outputs_one_used", grad(lambda x: ck(lambda y: (lax.sin(y), lax.cos(y)))(x)[0]), (x0,)),
        ("vjp_two_inputs", grad(ck(lambda x, y: lax.sin(x) * lax.exp(y)), argnums=(0, 1)), (x0, f32(0.5))),
    ]
    policies = {"nothing": cp.nothing_saveable, "everything": cp.everything_saveable,
                "only_a": cp.save_only_these_names("a"), "but_a": cp.save_any_names_but_these("a"),
                "only_b": cp.save_only_these_names("b"), "dots": cp.dots_saveable}
    for key, policy in policies.items():
        table.append((f"named_grad_{key}", grad(ck(h, policy=policy)), (x0,)))
    mlp_policies = {"none": None, "dots": cp.dots_saveable, "checkpoint_dots": cp.checkpoint_dots,
                    "dots_no_batch": cp.dots_with_no_batch_dims_saveable, "everything": cp.everything_saveable,
                    "only_act0": cp.save_only_these_names("act0"), "but_dot1": cp.save_any_names_but_these("dot1")}
    for key, policy in mlp_policies.items():
        table.append((f"mlp_grad_{key}", grad(ck(net, policy=policy), argnums=(0, 1)), mats))
    for key, policy in {"dots": cp.dots_saveable, "dots_no_batch": cp.dots_with_no_batch_dims_saveable}.items():
        table.append((f"batched_grad_{key}", grad(ck(lambda x, w: batched_dots(lax, x, w), policy=policy)), batch))
    return table


def render(module_name: str) -> dict[str, str]:
    return render_table(module_name, cases)


if __name__ == "__main__":
    write_golden(render)
