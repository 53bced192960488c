"""Write checkpoint_calls_golden.json: the jaxprs and values of derivatives of checkpointed functions whose policy
offloads values (``Offloadable``, ``save_and_offload_only_these_names``, ``offload_dot_with_no_batch_dims``) or
that call a ``jit``, a nested ``checkpoint`` or a ``cond``, under ``grad``, ``linearize``, ``vjp``, ``jit`` and
``scan``:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_checkpoint_calls_golden.py jax

With ``jaxle_core`` (no file argument) it prints jaxle's records instead.
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types

import numpy as np
from make_checkpoint_golden import checkpoint_api

HERE = pathlib.Path(__file__).parent
f32 = np.float32
X = np.linspace(0.1, 1.0, 6, dtype=f32).reshape(2, 3)
W = np.linspace(-0.5, 0.5, 9, dtype=f32).reshape(3, 3)
MATMUL = (((1,), (0,)), ((), ()))


def api(impl: types.ModuleType) -> types.SimpleNamespace:
    """What the cases use of the implementation ``impl`` (``jax`` or ``jaxle_core``)."""
    ck, _, name, policies = checkpoint_api(impl)
    answers = importlib.import_module("jax.ad_checkpoint" if impl.__name__ == "jax" else "jaxle_core.checkpoint")
    debug_print = impl.debug.print if impl.__name__ == "jax" else importlib.import_module(
        f"{impl.__name__}.debugging").print
    return types.SimpleNamespace(impl=impl, lax=importlib.import_module(f"{impl.__name__}.lax"), ck=ck, name=name,
                                 cp=policies, Offloadable=answers.Offloadable, Recompute=answers.Recompute,
                                 debug_print=debug_print)


def functions(m) -> dict:
    """The checkpointed bodies, each of ``(x, w)``, returning a scalar."""
    lax, name = m.lax, m.name
    dot = lambda a, b: lax.dot_general(a, b, MATMUL)
    total = lambda a: lax.reduce_sum(a, (0, 1))

    def named_dots(x, w):
        y = name(lax.sin(dot(x, w)), "a")
        z = name(lax.cos(dot(y, w)), "b")
        return total(z * y)

    def jit_inside(x, w):
        y = m.impl.jit(lambda a, b: name(lax.sin(dot(a, b)), "b"))(x, w)
        return total(lax.cos(y) * x)

    def nested(x, w):
        y = m.ck(lambda a, b: name(lax.tanh(dot(a, b)), "b"),
                 policy=m.cp.offload_dot_with_no_batch_dims("device", "pinned_host"))(x, w)
        z = m.ck(lambda a: lax.sin(a) * a)(y)
        return total(dot(z, w))

    def jit_of_checkpoint_inside(x, w):
        y = m.impl.jit(m.ck(lambda a, b: lax.sin(dot(a, b)), policy=m.cp.dots_saveable))(x, w)
        return total(m.impl.jit(lambda u: lax.exp(u) * u)(y))

    def cond_inside(x, w):
        y = lax.cond(total(x) > 0, lambda a: name(lax.sin(dot(a, w)), "b"), lambda a: a * f32(2.0), x)
        return total(lax.cos(y))

    return {"named_dots": named_dots, "jit_inside": jit_inside, "nested": nested,
            "jit_of_checkpoint_inside": jit_of_checkpoint_inside, "cond_inside": cond_inside}


def policies(m) -> dict:
    offload_sin = lambda prim, *_, **__: m.Offloadable("device", "pinned_host") if prim.name == "sin" else m.Recompute
    return {"none": None, "dots": m.cp.dots_saveable,
            "offload_names": m.cp.save_and_offload_only_these_names(
                names_which_can_be_saved=["a"], names_which_can_be_offloaded=["b"], offload_src="device",
                offload_dst="pinned_host"),
            "offload_dots": m.cp.offload_dot_with_no_batch_dims("device", "pinned_host"),
            "offload_sin": offload_sin}


def transforms(m, g) -> dict:
    """``(function, arguments)`` of each derivative of the checkpointed ``g``."""
    impl, lax = m.impl, m.lax

    def scanned(x, w):
        return lax.scan(lambda c, xs: (c + g(xs, w), None), f32(0.0), np.stack([X, 2 * X]) * x)[0]

    return {"grad": (impl.grad(g, argnums=(0, 1)), (X, W)),
            "linearize": (lambda x, w: impl.linearize(g, x, w)[1](x, w), (X, W)),
            "vjp": (lambda x, w: impl.vjp(g, x, w)[1](f32(1.0)), (X, W)),
            "jit_grad": (impl.jit(impl.grad(g)), (X, W)),
            "grad_scan": (impl.grad(scanned, argnums=(0, 1)), (X, W))}


def cases(m) -> dict:
    """``name -> (function, arguments)`` for every body, policy and derivative."""
    table = {}
    for body_name, body in functions(m).items():
        for policy_name, policy in policies(m).items():
            g = m.ck(body, policy=policy)
            for transform_name, case in transforms(m, g).items():
                table[f"{body_name}-{policy_name}-{transform_name}"] = case

    def printing(x, w):  # a call with an effect: its known part is pruned all the same
        y = m.impl.jit(lambda a: (m.debug_print("a={a}", a=a), m.lax.sin(a))[1])(x)
        return m.lax.reduce_sum(m.lax.cos(y) * w[:2], (0, 1))

    table["jit_with_print-none-grad"] = (m.impl.grad(m.ck(printing), argnums=(0, 1)), (X, W))
    return table


def record(m, fn, args) -> dict:
    """The jaxpr text and the values (float64 lists) of ``fn`` at ``args``."""
    out = fn(*args)
    values = [np.asarray(v, np.float64).tolist() for v in (out if isinstance(out, tuple) else (out,))]
    return {"jaxpr": str(m.impl.make_jaxpr(fn)(*args)), "values": values}


def write_golden(cases_of, file_name: str) -> None:
    """Records ``cases_of(m)`` with the implementation named on the command line: JAX's go to ``file_name``, any
    other's are printed."""
    m = api(importlib.import_module(sys.argv[1]))
    records = {name: record(m, fn, args) for name, (fn, args) in cases_of(m).items()}
    if sys.argv[1] != "jax":
        print(json.dumps(records, indent=1, sort_keys=True))
        return
    (HERE / file_name).write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {HERE / file_name}")


def main() -> None:
    write_golden(cases, "checkpoint_calls_golden.json")


if __name__ == "__main__":
    main()
