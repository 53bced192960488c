"""Write loop_linearize_golden.json: the jaxprs and values of derivatives of functions containing loops, without
checkpointing: ``scan`` with several carries and ``xs``, with loop-invariant work, with a carry that never depends on
the differentiated arguments, calling a ``jit`` that closes over an array, ``fori_loop`` (a ``scan`` with static
bounds) and ``while_loop`` with known and unknown carries, under ``linearize`` (also of a ``jit``), ``grad``,
``vjp``, ``grad`` of a ``jit`` and ``grad`` of ``grad`` (what the known and linear parts of each loop hold, and in
which order):

    /work/jaxpeer/bin/python packages/core/tests/golden/make_loop_linearize_golden.py jax

With ``jaxle_core`` (no file argument) it prints jaxle's records instead.
"""

from __future__ import annotations

import numpy as np
from make_checkpoint_calls_golden import MATMUL, W, X, write_golden

f32 = np.float32


def functions(m) -> dict:
    """The differentiated functions, each of ``(x, w)``, returning a scalar (reverse mode refuses the while loops:
    their names start with ``while``)."""
    lax = m.lax
    dot = lambda a, b: lax.dot_general(a, b, MATMUL)
    total = lambda a: lax.reduce_sum(a, tuple(range(a.ndim)))
    stacked = lambda x, n: lax.broadcast_in_dim(x, (n, *x.shape), (1, 2))

    def fori(x, w):
        return total(lax.fori_loop(0, 3, lambda i, c: lax.cos(dot(c, w)) * c, x))

    def fori_nested_calls(x, w):
        return total(lax.fori_loop(0, 3, lambda i, c: lax.sin(lax.cos(dot(c, w))) * lax.tanh(c), x))

    def scan_carries_xs(x, w):
        def step(carry, xs):
            a, b = carry
            u, v = xs
            y = lax.sin(dot(a, w)) * u + lax.cos(b) * v
            z = lax.tanh(lax.tanh(b) * a)
            return (y, z * b), (y * z, lax.log(z + f32(2.0)))

        (a, b), (ys, zs) = lax.scan(step, (x, x * f32(2.0)), (stacked(x, 3) * f32(0.5), stacked(x, 3) + f32(1.0)))
        return total(a) + total(b) + total(ys) * total(zs)

    def scan_invariant(x, w):
        def step(c, xs):
            h = lax.tanh(dot(c, w) + lax.exp(w[0]))
            return h * lax.sin(xs), h * lax.cos(c)

        c, ys = lax.scan(step, x, stacked(x, 4) * f32(0.25))
        return total(c * c) + total(ys)

    def scan_known_carry(x, w):
        def step(carry, _):
            k, c = carry
            k2 = k * f32(1.5) + lax.sin(k)
            return (k2, lax.cos(c * k2) * c), lax.exp(c)

        (k, c), ys = lax.scan(step, (w[0], x[0]), None, length=3)
        return total(c) + total(ys) + total(k)

    scale = np.linspace(0.5, 1.5, X.size, dtype=f32).reshape(X.shape)

    @m.impl.jit
    def scaled(c):  # a jit closing over an array: its linearization passes the array as a residual
        return lax.sin(c) * scale

    def scan_jit_closing_over_array(x, w):
        c, ys = lax.scan(lambda c, _: (scaled(dot(c, w)), c), x, None, length=2)
        return total(c) + total(ys)

    def while_carry(x, w):
        def body(state):
            i, c = state
            return i + 1, lax.sin(dot(c, w)) * c

        return total(lax.while_loop(lambda state: state[0] < 3, body, (0, x))[1])

    def while_known_and_unknown(x, w):
        def body(state):
            i, k, c = state
            k2 = k + lax.cos(k)
            return i + 1, k2, lax.sin(c * k2[0]) * lax.exp(c)

        return total(lax.while_loop(lambda state: state[0] < 3, body, (0, w, x))[2])

    return {"fori": fori, "fori_nested_calls": fori_nested_calls, "scan_carries_xs": scan_carries_xs,
            "scan_invariant": scan_invariant, "scan_known_carry": scan_known_carry,
            "scan_jit_closing_over_array": scan_jit_closing_over_array, "while_carry": while_carry,
            "while_known_and_unknown": while_known_and_unknown}


def cases(m) -> dict:
    """``name -> (function, arguments)`` for every function and derivative."""
    impl, lax = m.impl, m.lax
    table = {}
    for name, f in functions(m).items():
        table[f"{name}-linearize"] = (lambda x, w, f=f: impl.linearize(f, x, w)[1](x, w), (X, W))
        table[f"{name}-linearize_x"] = (lambda x, w, f=f: impl.linearize(lambda x: f(x, w), x)[1](x), (X, W))
        table[f"{name}-jit_linearize"] = (lambda x, w, f=f: impl.linearize(impl.jit(f), x, w)[1](x, w), (X, W))
        if name.startswith("while"):
            continue
        table[f"{name}-grad"] = (impl.grad(f, argnums=(0, 1)), (X, W))
        table[f"{name}-grad_x"] = (impl.grad(f), (X, W))
        table[f"{name}-vjp"] = (lambda x, w, f=f: impl.vjp(f, x, w)[1](f32(1.0)), (X, W))
        table[f"{name}-grad_jit"] = (impl.grad(impl.jit(f), argnums=(0, 1)), (X, W))
        if name == "scan_jit_closing_over_array":  # JAX's text has a dead array of zeros (docs/autodiff.md)
            continue
        table[f"{name}-grad_grad"] = (impl.grad(lambda x, w, f=f: lax.reduce_sum(lax.sin(impl.grad(f)(x, w)), (0, 1)),
                                                argnums=(0, 1)), (X, W))
    return table


def main() -> None:
    write_golden(cases, "loop_linearize_golden.json")


if __name__ == "__main__":
    main()
