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


def main():
    api_name, lax_name, backend_name, put_name = MODULES[sys.argv[1]]
    api, lax = importlib.import_module(api_name), importlib.import_module(lax_name)
    importlib.import_module(backend_name)
    put = importlib.import_module(put_name).device_put
    rng = np.random.default_rng(0)
    f32 = np.float32
    m = put(rng.normal(size=(256, 256)).astype(f32))
    vs = put(rng.normal(size=(128, 256)).astype(f32))

    matvec = lambda mat, v: lax.dot_general(mat, v, (((1,), (0,)), ((), ())))  # noqa: E731
    batched_matvec = api.jit(api.vmap(matvec, in_axes=(None, 0)))
    matmul = api.jit(lambda mat, v: lax.dot_general(v, mat, (((1,), (1,)), ((), ()))))

    params = [(rng.normal(size=(32, 64)).astype(f32), np.zeros(64, f32)),
              (rng.normal(size=(64, 8)).astype(f32), np.zeros(8, f32))]
    params = [(put(w), put(b)) for w, b in params]
    xs, ys = put(rng.normal(size=(128, 32)).astype(f32)), put(rng.normal(size=(128, 8)).astype(f32))
    per_example = api.jit(api.vmap(api.grad(mlp_loss(lax)), in_axes=(None, 0, 0)))

    def scan_step(carry, _):
        return carry * f32(0.999) + f32(0.001), None

    scan_10k = api.jit(lambda c: lax.scan(scan_step, c, None, length=10_000)[0])
    fori_sum = api.jit(lambda n: lax.fori_loop(0, 10_000, lambda i, total: total + i, n))
    while_sum = api.jit(lambda n: lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] + c[0]), (0, 0))[1])
    c0 = put(np.ones(4, f32))

    cases = {
        ("vmap_matvec/128x256x256", "us"): lambda: batched_matvec(m, vs),
        ("handwritten_matmul/128x256x256", "us"): lambda: matmul(m, vs),
        ("per_example_grads/mlp_128_examples", "us"): lambda: per_example(params, xs, ys),
        ("scan/10000_steps", "us"): lambda: scan_10k(c0),
        ("fori_loop_sum/10000", "us"): lambda: fori_sum(0),
        ("while_loop_sum/10000", "us"): lambda: while_sum(10_000),
    }
    for (name, unit), fn in cases.items():
        try:
            _block(fn())
        except Exception as err:  # a case this implementation cannot run is left out of the table
            print(f"{name}: {type(err).__name__}: {err}", file=sys.stderr)
            continue
        call = lambda fn=fn: _block(fn())  # noqa: E731
        print(json.dumps({"name": name, "value": round(time_us(call, target_seconds=0.3), 2), "unit": unit}),
              flush=True)

    sizes = {
        "eqns/vmap_matvec": api.make_jaxpr(api.vmap(matvec, in_axes=(None, 0)))(m, vs),
        "eqns/per_example_grads_mlp": api.make_jaxpr(api.vmap(api.grad(mlp_loss(lax)), in_axes=(None, 0, 0)))(
            params, xs, ys),
    }
    for name, jaxpr in sizes.items():
        print(json.dumps({"name": name, "value": count_equations(jaxpr), "unit": "eqns"}))


def _block(out):
    for leaf in out if isinstance(out, (list, tuple)) else [out]:
        if isinstance(leaf, (list, tuple)):
            _block(leaf)
        else:
            leaf.block_until_ready()
    return out


if __name__ == "__main__":
    main()
