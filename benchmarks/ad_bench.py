"""Autodiff benchmarks: the size of the jaxprs ``grad`` and ``jacrev`` produce, and the time to trace them.

Usage: python ad_bench.py jaxle|jax   (prints one JSON object per line; "eqns" counts equations, nested
jaxprs included; "us" is microseconds to trace ``make_jaxpr(grad(f))``)
"""

import importlib
import json
import sys

import numpy as np

from core_bench import API_MODULES, chain
from tree_bench import time_us


def count_equations(jaxpr) -> int:
    jaxpr = getattr(jaxpr, "jaxpr", jaxpr)
    total = 0
    for eqn in jaxpr.eqns:
        total += 1
        for value in eqn.params.values():
            for sub in value if isinstance(value, tuple) else (value,):
                if hasattr(sub, "eqns") or hasattr(getattr(sub, "jaxpr", None), "eqns"):
                    total += count_equations(sub)
    return total


def mlp_loss(lax):
    def loss(params, x, y):
        for w, b in params:
            x = lax.tanh(lax.dot_general(x, w, (((1,), (0,)), ((), ()))) + b)
        err = x - y
        return lax.reduce_sum(err * err, (0, 1))

    return loss


def conv_loss(lax):
    def loss(kernels, images):
        x = images
        for k in kernels:
            x = lax.conv_general_dilated(x, k, (1, 1), "SAME")
            x = lax.max(x, 0.0)
        x = lax.reduce_window(x, -np.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        return lax.reduce_sum(x * x, (0, 1, 2, 3))

    return loss


def main():
    api_name, lax_name = API_MODULES[sys.argv[1]]
    api, lax = importlib.import_module(api_name), importlib.import_module(lax_name)
    f32 = np.float32
    rng = np.random.default_rng(0)
    sizes = [(8, 16), (16, 16), (16, 4)]
    params = [(rng.normal(size=s).astype(f32), np.zeros(s[1], f32)) for s in sizes]
    x, y = rng.normal(size=(32, 8)).astype(f32), rng.normal(size=(32, 4)).astype(f32)
    kernels = [rng.normal(size=(4, 1, 3, 3)).astype(f32), rng.normal(size=(4, 4, 3, 3)).astype(f32)]
    images = rng.normal(size=(2, 1, 8, 8)).astype(f32)
    v = np.linspace(0, 1, 3, dtype=f32)
    chain_300 = chain(lax, 300)
    cases = {
        "mlp_loss": (mlp_loss(lax), (params, x, y)),
        "chain_300": (lambda v: lax.reduce_sum(chain_300(v), (0,)), (v,)),
        "conv_net_loss": (conv_loss(lax), (kernels, images)),
    }
    for name, (fun, args) in cases.items():
        try:
            grad_jaxpr = api.make_jaxpr(api.grad(fun))(*args)
            jacrev_jaxpr = api.make_jaxpr(api.jacrev(fun))(*args)
        except Exception as err:  # a case this implementation cannot differentiate yet is left out
            print(f"{name}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        print(json.dumps({"name": f"eqns/grad/{name}", "value": count_equations(grad_jaxpr), "unit": "eqns"}))
        print(json.dumps({"name": f"eqns/jacrev/{name}", "value": count_equations(jacrev_jaxpr), "unit": "eqns"}))
        trace = lambda fun=fun, args=args: api.make_jaxpr(api.grad(fun))(*args)  # noqa: E731
        print(json.dumps({"name": f"trace_grad/{name}", "value": round(time_us(trace, target_seconds=0.5), 1),
                          "unit": "us"}), flush=True)
    vector_chain = api.make_jaxpr(api.jacrev(chain_300))(v)
    print(json.dumps({"name": "eqns/jacrev/chain_300_vector_output", "value": count_equations(vector_chain),
                      "unit": "eqns"}))


if __name__ == "__main__":
    main()
