"""Write checkpoint_offload_twice_golden.json: second derivatives of checkpointed functions whose policy offloads
a value to pinned host memory, as JAX 0.10.2 gives them: reverse over reverse fails where the first derivative
holds an offloaded residual ("Expected cotangent type float32[3] but got float32<host>[3]"); forward over reverse
and reverse over a residual-free derivative run:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_checkpoint_offload_twice_golden.py jax

With ``jaxle`` (no file argument) it prints jaxle's records instead.
"""

from __future__ import annotations

import importlib
import pathlib
import sys
import types

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
X = np.linspace(0.1, 0.9, 3).astype(np.float32)


def api(impl: types.ModuleType) -> types.SimpleNamespace:
    """What the cases use of the implementation ``impl`` (``jax`` or ``jaxle``)."""
    return types.SimpleNamespace(impl=impl, lax=importlib.import_module(f"{impl.__name__}.lax"), ck=impl.checkpoint,
                                 name=importlib.import_module(f"{impl.__name__}.ad_checkpoint").checkpoint_name,
                                 cp=impl.checkpoint_policies)


def functions(m) -> dict:
    """Scalar functions of a vector, each naming one value ``h``."""
    lax, name = m.lax, m.name
    total = lambda a: lax.reduce_sum(a, (0,))

    def outer_dot(x):
        w = lax.broadcast_in_dim(x, (3, 3), (0,)) * lax.broadcast_in_dim(x, (3, 3), (1,))
        return total(lax.tanh(name(lax.dot_general(x, w, (((0,), (0,)), ((), ()))), "h")))

    return {"sin_sin": lambda x: total(lax.sin(name(lax.sin(x), "h"))),
            "outer_dot": outer_dot,
            "cube": lambda x: total(lax.integer_pow(name(x * x, "h"), 3)),
            "square": lambda x: total(name(lax.sin(x), "h") * name(lax.sin(x), "h")),
            "linear": lambda x: total(name(lax.sin(x), "h") * np.float32(2.0))}


def policies(m) -> dict:
    return {"offload_dots": m.cp.offload_dot_with_no_batch_dims("device", "pinned_host"),
            "offload_h": m.cp.save_and_offload_only_these_names(
                names_which_can_be_saved=[], names_which_can_be_offloaded=["h"], offload_src="device",
                offload_dst="pinned_host")}


def transforms(m, g) -> dict:
    impl, total = m.impl, lambda a: m.lax.reduce_sum(a, (0,))
    return {"grad_grad": impl.grad(lambda x: total(impl.grad(g)(x))),
            "jit_grad_grad": impl.jit(impl.grad(lambda x: total(impl.grad(g)(x)))),
            "jvp_grad": lambda x: impl.jvp(impl.grad(g), (x,), (x,))[1],
            "hessian": impl.hessian(g)}


def record(fn) -> dict:
    """The values (float64 lists) of ``fn`` at ``X``, or its error's type and first line."""
    try:
        return {"values": np.asarray(fn(X), np.float64).tolist()}
    except Exception as error:  # noqa: BLE001 - the error is what is recorded
        return {"error": type(error).__name__, "message": str(error).splitlines()[0]}


def cases(m) -> dict:
    return {f"{f_name}-{p_name}-{t_name}": fn
            for f_name, f in functions(m).items() for p_name, policy in policies(m).items()
            for t_name, fn in transforms(m, m.ck(f, policy=policy)).items()}


def main() -> None:
    m = api(importlib.import_module(sys.argv[1]))
    records = {name: record(fn) for name, fn in cases(m).items()}
    write_golden(records, HERE / "checkpoint_offload_twice_golden.json")


if __name__ == "__main__":
    main()
