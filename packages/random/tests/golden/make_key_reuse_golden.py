"""Golden outcomes of JAX 0.10.2's key-reuse checker (``jax_debug_key_reuse``).

Run with JAX's venv: ``/work/jaxpeer/bin/python make_key_reuse_golden.py jax`` writes key_reuse_golden.json.
Each case is ``build(ns)`` run with the flag on (``flag_off`` cases: off); it returns nothing, or raises. The
record is ``{"outcome": "ok"}``, or the exception's type and message, and, for an eager reuse, the message of the
error it was raised from (the one whose traceback shows where the key was first consumed).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
from types import SimpleNamespace

GOLDEN = pathlib.Path(__file__).parent / "key_reuse_golden.json"


def namespace(which: str) -> SimpleNamespace:
    """What the cases use, from JAX (``jax``) or from jaxle's packages (``jaxle``: core, numpy and random)."""
    top = importlib.import_module("jax" if which == "jax" else "jaxle_core")
    ns = SimpleNamespace(jit=top.jit, vmap=top.vmap, grad=top.grad, make_jaxpr=top.make_jaxpr,
                         checkpoint=top.checkpoint, lax=top.lax)
    if which == "jax":
        ns.random, ns.numpy, ns.debug_key_reuse = top.random, top.numpy, top.debug_key_reuse
    else:
        ns.random, ns.numpy = importlib.import_module("jaxle_random"), importlib.import_module("jaxle_numpy")
        ns.debug_key_reuse = top.config.debug_key_reuse
    return ns


def _cases() -> dict:
    cases = {}

    def case(build):
        cases[build.__name__] = (build, not build.__name__.startswith("flag_off_"))  # whether the flag is on
        return build

    # ---- eager: keys remember being consumed

    @case
    def eager_normal_twice(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        ns.random.normal(key)

    @case
    def eager_split_twice(ns):
        key = ns.random.key(0)
        ns.random.split(key)
        ns.random.split(key, 3)

    @case
    def eager_split_then_uniform(ns):
        key = ns.random.key(0)
        ns.random.split(key)
        ns.random.uniform(key)

    @case
    def eager_split_results_fresh(ns):
        k1, k2 = ns.random.split(ns.random.key(0))
        ns.random.normal(k1)
        ns.random.normal(k2)

    @case
    def eager_split_result_twice(ns):
        k1, k2 = ns.random.split(ns.random.key(0))
        ns.random.normal(k1)
        ns.random.normal(k2)
        ns.random.normal(k1)

    @case
    def eager_bits_twice(ns):
        key = ns.random.key(0)
        ns.random.bits(key)
        ns.random.bits(key)

    @case
    def eager_fold_in_does_not_consume(ns):
        key = ns.random.key(0)
        ns.random.fold_in(key, 1)
        ns.random.fold_in(key, 2)
        ns.random.normal(key)

    @case
    def eager_fold_in_result_twice(ns):
        key = ns.random.fold_in(ns.random.key(0), 1)
        ns.random.normal(key)
        ns.random.normal(key)

    @case
    def eager_clone(ns):
        key = ns.random.key(0)
        ns.random.normal(ns.random.clone(key))
        ns.random.normal(key)

    @case
    def eager_clone_of_consumed_key(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        ns.random.normal(ns.random.clone(key))

    @case
    def eager_clone_twice_used_twice(ns):
        key = ns.random.clone(ns.random.key(0))
        ns.random.normal(key)
        ns.random.normal(key)

    @case
    def eager_raw_keys_unchecked(ns):
        key = ns.random.PRNGKey(0)
        ns.random.normal(key)
        ns.random.normal(key)
        ns.random.split(key)
        ns.random.split(key)

    @case
    def eager_key_data_of_consumed_key(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        ns.random.key_data(key)

    @case
    def eager_wrap_key_data_fresh(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        ns.random.normal(ns.random.wrap_key_data(ns.random.key_data(key)))

    @case
    def eager_equality_does_not_consume(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        _ = key == key
        _ = key != ns.random.key(1)

    @case
    def eager_index_distinct_keys(ns):
        keys = ns.random.split(ns.random.key(0), 3)
        ns.random.normal(keys[0])
        ns.random.normal(keys[1])

    @case
    def eager_index_same_key_twice(ns):
        keys = ns.random.split(ns.random.key(0), 3)
        ns.random.normal(keys[0])
        ns.random.normal(keys[1])
        ns.random.normal(keys[0])

    @case
    def eager_slice_then_whole(ns):
        keys = ns.random.split(ns.random.key(0), 3)
        ns.random.normal(keys[2])
        ns.vmap(ns.random.normal)(keys)

    @case
    def eager_vmap_twice(ns):
        keys = ns.random.split(ns.random.key(0), 2)
        ns.vmap(ns.random.normal)(keys)
        ns.vmap(ns.random.normal)(keys)

    @case
    def eager_stack_of_consumed_key(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        ns.numpy.stack([key, key])

    @case
    def eager_samplers_consume(ns):
        key = ns.random.key(0)
        ns.random.randint(key, (2,), 0, 5)
        ns.random.bernoulli(key)

    @case
    def eager_gamma_twice(ns):
        key = ns.random.key(0)
        ns.random.gamma(key, 2.0)
        ns.random.gamma(key, 2.0)

    @case
    def eager_permutation_twice(ns):
        key = ns.random.key(0)
        ns.random.permutation(key, 5)
        ns.random.permutation(key, 5)

    @case
    def eager_complex_normal_then_normal(ns):
        key = ns.random.key(0)
        ns.random.normal(key, dtype=ns.numpy.complex64)
        ns.random.normal(key)

    # ---- eager calls of jitted functions: the function's signature

    @case
    def jit_call_twice(ns):
        key = ns.random.key(0)
        f = ns.jit(lambda k: ns.random.normal(k))
        f(key)
        f(key)

    @case
    def jit_unused_key_consumed(ns):
        key = ns.random.key(0)
        f = ns.jit(lambda k: 1.0)
        f(key)
        f(key)

    @case
    def jit_passthrough_keeps_state(ns):
        key = ns.random.key(0)
        same = ns.jit(lambda k: k)(key)
        ns.random.normal(key)
        ns.random.normal(same)

    @case
    def jit_passthrough_of_fresh_key(ns):
        f = ns.jit(lambda k: k)
        ns.random.normal(f(f(ns.random.key(0))))

    @case
    def jit_result_key_used_twice(ns):
        key = ns.jit(lambda k: ns.random.split(k)[0])(ns.random.key(0))
        ns.random.normal(key)
        ns.random.normal(key)

    @case
    def jit_closed_over_key_twice(ns):
        key = ns.random.key(0)
        f = ns.jit(lambda x: x + ns.random.normal(key))
        f(1.0)
        f(1.0)

    @case
    def eager_cond_consumes(ns):
        key = ns.random.key(0)
        ns.lax.cond(True, lambda k: ns.random.normal(k), lambda k: 0.0, key)
        ns.random.normal(key)

    @case
    def grad_then_reuse(ns):
        key = ns.random.key(0)
        ns.grad(lambda x, k: x * ns.random.normal(k))(1.0, key)
        ns.random.normal(key)

    # ---- traced: the jaxpr is checked when jit traces it

    @case
    def traced_normal_uniform(ns):
        ns.jit(lambda k: (ns.random.normal(k), ns.random.uniform(k)))(ns.random.key(0))

    @case
    def traced_split_then_normal(ns):
        def f(k):
            ns.random.split(k)
            return ns.random.normal(k)
        ns.jit(f)(ns.random.key(0))

    @case
    def traced_bits_twice(ns):
        ns.make_jaxpr(lambda k: (ns.random.bits(k), ns.random.bits(k)))(ns.random.key(0))

    @case
    def traced_split_twice(ns):
        ns.make_jaxpr(lambda k: (ns.random.split(k), ns.random.split(k)))(ns.random.key(0))

    @case
    def traced_split_results(ns):
        def f(k):
            a, b = ns.random.split(k)
            return ns.random.normal(a), ns.random.normal(b)
        ns.jit(f)(ns.random.key(0))

    @case
    def traced_fold_in_twice(ns):
        ns.jit(lambda k: (ns.random.fold_in(k, 1), ns.random.fold_in(k, 2), ns.random.normal(k)))(ns.random.key(0))

    @case
    def traced_clone(ns):
        ns.jit(lambda k: (ns.random.normal(ns.random.clone(k)), ns.random.normal(k)))(ns.random.key(0))

    @case
    def traced_raw_key(ns):
        ns.jit(lambda k: (ns.random.normal(k), ns.random.uniform(k)))(ns.random.PRNGKey(0))

    @case
    def traced_key_data(ns):
        ns.jit(lambda k: (ns.random.normal(k), ns.random.key_data(k)))(ns.random.key(0))

    @case
    def traced_wrap_twice(ns):
        def f(data):
            return ns.random.normal(ns.random.wrap_key_data(data)), ns.random.normal(ns.random.wrap_key_data(data))
        ns.jit(f)(ns.random.key_data(ns.random.key(0)))

    @case
    def traced_index_same_key(ns):
        ns.jit(lambda ks: (ns.random.normal(ks[0]), ns.random.normal(ks[0])))(ns.random.split(ns.random.key(0)))

    @case
    def traced_index_distinct_keys(ns):
        ns.jit(lambda ks: (ns.random.normal(ks[0]), ns.random.normal(ks[1])))(ns.random.split(ns.random.key(0)))

    @case
    def traced_reshape_forwards(ns):
        ns.jit(lambda k: (ns.random.normal(k), ns.random.normal(k.reshape(1)[0])))(ns.random.key(0))

    @case
    def traced_concatenate_consumes(ns):
        def f(k):
            both = ns.numpy.concatenate([k[None], k[None]])
            return ns.random.normal(k), both
        ns.jit(f)(ns.random.key(0))

    @case
    def traced_set_consumes_update(ns):
        def f(ks, k):
            return ks.at[0].set(k), ns.random.normal(k)
        ns.jit(f)(ns.random.split(ns.random.key(0)), ns.random.key(1))

    @case
    def traced_nested_jit(ns):
        g = ns.jit(lambda k: ns.random.normal(k))
        ns.jit(lambda k: g(k) + g(k))(ns.random.key(0))

    @case
    def traced_vmap(ns):
        ns.jit(ns.vmap(lambda k: ns.random.normal(k) + ns.random.normal(k)))(ns.random.split(ns.random.key(0)))

    @case
    def traced_checkpoint(ns):
        ns.jit(ns.checkpoint(lambda k: ns.random.normal(k) + ns.random.normal(k)))(ns.random.key(0))

    @case
    def traced_grad_of_checkpoint(ns):
        def f(x, k):
            return x * ns.random.normal(k)
        ns.jit(ns.grad(ns.checkpoint(f)))(1.0, ns.random.key(0))

    @case
    def cond_then_reuse(ns):
        def f(k, p):
            return ns.lax.cond(p, ns.random.normal, ns.random.uniform, k) + ns.random.normal(k)
        ns.jit(f)(ns.random.key(0), True)

    @case
    def cond_one_branch_consumes(ns):
        def f(k, p):
            return ns.lax.cond(p, ns.random.normal, lambda k: 0.0, k) + ns.random.normal(k)
        ns.jit(f)(ns.random.key(0), True)

    @case
    def cond_each_branch_once(ns):
        ns.jit(lambda k, p: ns.lax.cond(p, ns.random.normal, ns.random.uniform, k))(ns.random.key(0), True)

    @case
    def cond_branch_returns_key(ns):
        def f(k, p):
            k2 = ns.lax.cond(p, lambda k: k, lambda k: ns.random.split(k)[0], k)
            return ns.random.normal(k2), ns.random.normal(k)
        ns.jit(f)(ns.random.key(0), True)

    @case
    def scan_consumes_constant_key(ns):
        def f(k):
            return ns.lax.scan(lambda c, _: (c + ns.random.normal(k), None), 0.0, None, length=3)
        ns.jit(f)(ns.random.key(0))

    @case
    def scan_carry_split(ns):
        def body(c, _):
            k1, k2 = ns.random.split(c)
            return k1, ns.random.normal(k2)
        ns.jit(lambda k: ns.lax.scan(body, k, None, length=3))(ns.random.key(0))

    @case
    def scan_carry_consumed_not_replaced(ns):
        ns.jit(lambda k: ns.lax.scan(lambda c, _: (c, ns.random.normal(c)), k, None, length=3))(ns.random.key(0))

    @case
    def scan_over_keys(ns):
        def f(k):
            return ns.lax.scan(lambda c, kk: (c + ns.random.normal(kk), None), 0.0, ns.random.split(k, 3))
        ns.jit(f)(ns.random.key(0))

    @case
    def scan_over_keys_then_reuse(ns):
        def f(ks):
            total, _ = ns.lax.scan(lambda c, kk: (c + ns.random.normal(kk), None), 0.0, ks)
            return total + ns.random.normal(ks[0])
        ns.jit(f)(ns.random.split(ns.random.key(0), 3))

    @case
    def while_body_consumes_carry(ns):
        def f(k):
            return ns.lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0], c[1] + ns.random.normal(c[0])), (k, 0.0))
        ns.jit(f)(ns.random.key(0))

    @case
    def while_body_consumes_constant(ns):
        ns.jit(lambda k: ns.lax.while_loop(lambda c: c < 3, lambda c: c + ns.random.normal(k), 0.0))(
            ns.random.key(0))

    @case
    def while_cond_consumes_constant(ns):
        ns.jit(lambda k: ns.lax.while_loop(lambda c: c < ns.random.normal(k), lambda c: c + 1.0, 0.0))(
            ns.random.key(0))

    @case
    def while_carry_split(ns):
        def body(c):
            k1, k2 = ns.random.split(c[0])
            return k1, c[1] + ns.random.normal(k2)
        ns.jit(lambda k: ns.lax.while_loop(lambda c: c[1] < 3, body, (k, 0.0)))(ns.random.key(0))

    @case
    def while_cond_and_body_share_key(ns):
        def body(c):
            k1, _ = ns.random.split(c[0])
            return k1, c[1] + 1.0
        ns.jit(lambda k: ns.lax.while_loop(lambda c: ns.random.normal(c[0]) < c[1], body, (k, 0.0)))(
            ns.random.key(0))

    # ---- the flag off: nothing is checked

    @case
    def flag_off_eager(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        ns.random.normal(key)
        ns.random.split(key)
        ns.random.split(key)

    @case
    def flag_off_traced(ns):
        ns.jit(lambda k: (ns.random.normal(k), ns.random.uniform(k)))(ns.random.key(0))

    @case
    def consumed_key_used_with_flag_off(ns):
        key = ns.random.key(0)
        ns.random.normal(key)
        with ns.debug_key_reuse(False):
            ns.random.normal(key)

    return cases


CASES = _cases()


def run_case(ns: SimpleNamespace, name: str) -> dict:
    """The outcome of case ``name`` with ``ns``."""
    build, flag_on = CASES[name]
    try:
        with ns.debug_key_reuse(flag_on):
            build(ns)
    except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
        record = {"error": type(error).__name__, "message": str(error)}
        if type(error.__cause__).__name__ == "KeyReuseError":
            record["cause"] = str(error.__cause__)
        return record
    return {"outcome": "ok"}


if __name__ == "__main__":
    ns = namespace(sys.argv[1])
    GOLDEN.write_text(json.dumps({name: run_case(ns, name) for name in CASES}, indent=1, sort_keys=True) + "\n")
