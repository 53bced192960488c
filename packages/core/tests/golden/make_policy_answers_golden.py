"""Write policy_answers_golden.json: checkpoint policies answering ``Saveable``, ``Recompute`` or
``Offloadable(...)`` (and the offloading policies), with the named module: the gradient's jaxpr and value, or the
error:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_policy_answers_golden.py jax
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types

import numpy as np

HERE = pathlib.Path(__file__).parent
X = np.array([0.5, -1.0, 2.0], np.float32)
W = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.25]], np.float32)


def namespace(impl, ad_checkpoint) -> types.SimpleNamespace:
    return types.SimpleNamespace(lax=impl.lax, grad=impl.grad, make_jaxpr=impl.make_jaxpr, checkpoint=impl.checkpoint,
                                 policies=impl.checkpoint_policies, name=ad_checkpoint.checkpoint_name,
                                 Saveable=ad_checkpoint.Saveable, Recompute=ad_checkpoint.Recompute,
                                 Offloadable=ad_checkpoint.Offloadable)


def _f(m):
    def f(x, w):
        y = m.name(m.lax.sin(x), "a")
        z = m.name(m.lax.dot_general(m.lax.cos(y), w, (((0,), (0,)), ((), ()))), "b")
        return m.lax.reduce_sum(m.lax.exp(z), (0,))
    return f


CASES = {
    "saveable_sin": lambda m: lambda prim, *a, **k: m.Saveable if prim.name == "sin" else m.Recompute,
    "recompute_all": lambda m: lambda prim, *a, **k: m.Recompute,
    "bools_and_answers": lambda m: lambda prim, *a, **k: prim.name == "cos" or m.Saveable if prim.name == "exp"
                         else False,
    "offload_cos": lambda m: lambda prim, *a, **k: m.Offloadable("device", "pinned_host") if prim.name == "cos"
                   else m.Recompute,
    "save_and_offload_names": lambda m: m.policies.save_and_offload_only_these_names(
        names_which_can_be_saved=["a"], names_which_can_be_offloaded=["b"], offload_src="device",
        offload_dst="pinned_host"),
    "offload_dots": lambda m: m.policies.offload_dot_with_no_batch_dims("device", "pinned_host"),
    "both_with_answers": lambda m: m.policies.save_from_both_policies(
        m.policies.save_and_offload_only_these_names(names_which_can_be_saved=["a"], names_which_can_be_offloaded=[],
                                                     offload_src="device", offload_dst="pinned_host"),
        m.policies.dots_saveable),
    "bad_answer": lambda m: lambda prim, *a, **k: 3,
    "numpy_bool_answer": lambda m: lambda prim, *a, **k: np.bool_(prim.name == "sin"),
}


def run_case(m, name: str) -> dict:
    g = m.grad(m.checkpoint(_f(m), policy=CASES[name](m)))
    try:
        value = np.asarray(g(X, W))
        text = str(m.make_jaxpr(g)(X, W))
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return {"value": value.tolist(), "jaxpr": text}


def intersecting_names_error(m) -> dict:
    try:
        m.policies.save_and_offload_only_these_names(names_which_can_be_saved=["a"], names_which_can_be_offloaded=["a"],
                                                     offload_src="device", offload_dst="pinned_host")
    except ValueError as error:
        return {"error": "ValueError", "message": str(error)}
    return {"error": None}


def main() -> None:
    impl = importlib.import_module(sys.argv[1])
    m = namespace(impl, importlib.import_module(f"{sys.argv[1]}.ad_checkpoint"))
    records = {"cases": {name: run_case(m, name) for name in CASES}, "intersecting": intersecting_names_error(m)}
    (HERE / "policy_answers_golden.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(CASES)} cases -> {HERE / 'policy_answers_golden.json'}")


if __name__ == "__main__":
    main()
