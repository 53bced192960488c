"""Write checkpoint_loops_golden.json: the jaxprs and values of derivatives of checkpointed functions containing
a ``scan``, a ``fori_loop`` (a ``scan`` with static bounds) or a ``while_loop`` (linearized), with several
policies (``save_only_these_names`` naming a value inside the loop body, ``dots_saveable``, saving everything,
offloading), under ``grad``, ``grad`` of ``grad``, ``linearize``, ``jit``, ``vmap`` (of the derivative, or over
what leaves the loop's known ``closed_call`` unbatched) and a nested ``checkpoint``:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_checkpoint_loops_golden.py jax

With ``jaxle_core`` (no file argument) it prints jaxle's records instead.
"""

from __future__ import annotations

import numpy as np
from make_checkpoint_calls_golden import MATMUL, W, X, write_golden


def functions(m) -> dict:
    """The checkpointed bodies, each of ``(x, w)``, returning a scalar."""
    lax, name = m.lax, m.name
    dot = lambda a, b: lax.dot_general(a, b, MATMUL)
    total = lambda a: lax.reduce_sum(a, tuple(range(a.ndim)))

    def scan_carry(x, w):
        def step(c, _):
            y = name(lax.sin(dot(c, w)), "a")
            return lax.cos(y) * c, None

        return total(lax.scan(step, x, None, length=3)[0])

    def scan_xs(x, w):  # a loop-invariant value computed in the body, ys stacked
        def step(c, xs):
            y = name(lax.sin(dot(c, w) * xs), "a")
            return dot(y, name(lax.exp(lax.cos(w)), "b")), lax.sin(y)

        c, ys = lax.scan(step, x, lax.broadcast_in_dim(x, (2, *x.shape), (1, 2)) * 0.5)
        return total(c) + total(ys)

    def fori(x, w):
        return total(lax.fori_loop(0, 3, lambda i, c: lax.cos(name(dot(c, w), "a")) * c, x))

    def nested_scan(x, w):
        def step(c, _):
            inner = lax.scan(lambda d, _: (lax.tanh(name(dot(d, w), "a")), None), c, None, length=2)[0]
            return inner * c, None

        return total(lax.scan(step, x, None, length=2)[0])

    return {"scan_carry": scan_carry, "scan_xs": scan_xs, "fori": fori, "nested_scan": nested_scan}


def while_loop(m):
    """A checkpointed body with a ``while_loop`` (reverse mode refuses it: linearized only), of ``(x, w)``."""
    lax, name = m.lax, m.name

    def f(x, w):
        step = lambda state: (state[0] + 1, lax.sin(name(lax.dot_general(state[1], w, MATMUL), "a")) * state[1])
        return lax.reduce_sum(lax.while_loop(lambda state: state[0] < 3, step, (0, x))[1], (0, 1))

    return f


def policies(m) -> dict:
    return {"none": None, "dots": m.cp.dots_saveable, "only_a": m.cp.save_only_these_names("a"),
            "anything_but_a": m.cp.save_anything_except_these_names("a"), "everything": m.cp.everything_saveable,
            "offload_a": m.cp.save_and_offload_only_these_names(
                names_which_can_be_saved=[], names_which_can_be_offloaded=["a"], offload_src="device",
                offload_dst="pinned_host")}


def transforms(m, g, offloads: bool = False) -> dict:
    """``(function, arguments)`` of each derivative of the checkpointed ``g`` (``offloads``: its policy offloads a
    value, whose second reverse derivative JAX refuses)."""
    impl, lax = m.impl, m.lax
    scales = np.array([1.0, -2.0], np.float32)
    table = {"grad": (impl.grad(g, argnums=(0, 1)), (X, W)),
             "jit_grad": (impl.jit(impl.grad(g, argnums=(0, 1))), (X, W)),
             "grad_jit": (impl.grad(impl.jit(g), argnums=(0, 1)), (X, W)),
             "nested": (impl.grad(m.ck(lambda x, w: m.lax.sin(g(x, w)), policy=m.cp.dots_saveable),
                                  argnums=(0, 1)), (X, W)),
             "linearize": (lambda x, w: impl.linearize(g, x, w)[1](x, w), (X, W)),
             "vmap_grad": (impl.vmap(impl.grad(lambda x, w: g(x[None], w)), in_axes=(0, None)), (X, W)),
             "vmap_scaled_grad": (impl.vmap(lambda s: impl.grad(lambda x, w: g(x, w) * s, argnums=(0, 1))(X, W)),
                                  (scales,)),
             "vmap_cotangent": (impl.vmap(lambda s: impl.vjp(g, X, W)[1](s)), (scales,))}
    if not offloads:
        table["grad_grad"] = (impl.grad(lambda x, w: lax.reduce_sum(lax.sin(impl.grad(g)(x, w)), (0, 1)),
                                        argnums=(0, 1)), (X, W))
    return table


def cases(m) -> dict:
    """``name -> (function, arguments)`` for every body, policy and derivative."""
    table = {}
    for body_name, body in functions(m).items():
        for policy_name, policy in policies(m).items():
            g = m.ck(body, policy=policy)
            for transform_name, case in transforms(m, g, policy_name.startswith("offload")).items():
                table[f"{body_name}-{policy_name}-{transform_name}"] = case
    for policy_name, policy in policies(m).items():
        g = m.ck(while_loop(m), policy=policy)
        linearized = lambda x, w, g=g: m.impl.linearize(g, x, w)[1](x, w)
        table[f"while-{policy_name}-linearize"] = (linearized, (X, W))
        table[f"while-{policy_name}-jit_linearize"] = (m.impl.jit(linearized), (X, W))
    return table


def main() -> None:
    write_golden(cases, "checkpoint_loops_golden.json")


if __name__ == "__main__":
    main()
