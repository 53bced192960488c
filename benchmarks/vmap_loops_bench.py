"""vmap and loop benchmarks on XLA: batched matvec against a hand-written matmul, per-example MLP gradients,
a 10,000-step scan, fori_loop/while_loop sums, and the size of the jaxprs vmap produces.

Usage: python vmap_loops_bench.py jaxle|jax   (prints one JSON object per line; lower is better)
"""

import importlib
import json
import sys

import numpy as np

from ad_bench import count_equations
from tree_bench import time_us
from xla_bench import MODULES

DOT = (((1,), (0,)), ((), ()))


def mlp_loss(lax):
    """Squared error of a 2-layer tanh MLP on one example."""

    def loss(params, x, y):
        (w1, b1), (w2, b2) = params
        h = lax.tanh(lax.dot_general(x, w1, (((0,), (0,)), ((), ()))) + b1)
        out = lax.dot_general(h, w2, (((0,), (0,)), ((), ()))) + b2
        err = out - y
        return lax.reduce_sum(err * err, (0,))

    return loss


JITTED = ("vmap_matvec/128x256x256", "handwritten_matmul/128x256x256", "per_example_grads/mlp_128_examples",
          "scan/10000_steps", "fori_loop_sum/10000", "while_loop_sum/10000")
"""The names of ``programs``' cases, in the order they are timed (also the cases of
packages/jaxle/tests/golden/make_benchmark_hlo_golden.py that compare their programs with JAX's)."""


def programs(api, lax, put):
    """``{name: (function to jit, its arguments)}`` for the names of ``JITTED``: arrays already on the device (put by
    ``put``), the loops' bounds as Python integers."""
    rng = np.random.default_rng(0)
    f32 = np.float32
    m = put(rng.normal(size=(256, 256)).astype(f32))
    vs = put(rng.normal(size=(128, 256)).astype(f32))
    params = [(rng.normal(size=(32, 64)).astype(f32), np.zeros(64, f32)),
              (rng.normal(size=(64, 8)).astype(f32), np.zeros(8, f32))]
    params = [(put(w), put(b)) for w, b in params]
    xs, ys = put(rng.normal(size=(128, 32)).astype(f32)), put(rng.normal(size=(128, 8)).astype(f32))

    def scan_step(carry, _):
        return carry * f32(0.999) + f32(0.001), None

    cases = {
        "vmap_matvec/128x256x256": (api.vmap(matvec(lax), in_axes=(None, 0)), (m, vs)),
        "handwritten_matmul/128x256x256": (lambda mat, v: lax.dot_general(v, mat, (((1,), (1,)), ((), ()))), (m, vs)),
        "per_example_grads/mlp_128_examples": (api.vmap(api.grad(mlp_loss(lax)), in_axes=(None, 0, 0)),
                                               (params, xs, ys)),
        "scan/10000_steps": (lambda c: lax.scan(scan_step, c, None, length=10_000)[0], (put(np.ones(4, f32)),)),
        "fori_loop_sum/10000": (lambda n: lax.fori_loop(0, 10_000, lambda i, total: total + i, n), (0,)),
        "while_loop_sum/10000": (
            lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + c[0]), (0, 0))[1], (10_000,)),
    }
    assert tuple(cases) == JITTED
    return cases


def matvec(lax):
    return lambda mat, v: lax.dot_general(mat, v, (((1,), (0,)), ((), ())))


def main():
    api_name, lax_name, backend_name, put_name = MODULES[sys.argv[1]]
    api, lax = importlib.import_module(api_name), importlib.import_module(lax_name)
    importlib.import_module(backend_name)
    put = importlib.import_module(put_name).device_put
    cases = programs(api, lax, put)
    for name, (fun, args) in cases.items():
        jitted = api.jit(fun)
        try:
            _block(jitted(*args))
        except Exception as err:  # a case this implementation cannot run is left out of the table
            print(f"{name}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        call = lambda jitted=jitted, args=args: _block(jitted(*args))  # noqa: E731
        print(json.dumps({"name": name, "value": round(time_us(call, target_seconds=0.3), 2), "unit": "us"}),
              flush=True)

    sizes = {"eqns/vmap_matvec": "vmap_matvec/128x256x256",
             "eqns/per_example_grads_mlp": "per_example_grads/mlp_128_examples"}
    for name, case in sizes.items():
        fun, args = cases[case]
        print(json.dumps({"name": name, "value": count_equations(api.make_jaxpr(fun)(*args)), "unit": "eqns"}))


def _block(out):
    for leaf in out if isinstance(out, (list, tuple)) else [out]:
        if isinstance(leaf, (list, tuple)):
            _block(leaf)
        else:
            leaf.block_until_ready()
    return out


if __name__ == "__main__":
    main()
