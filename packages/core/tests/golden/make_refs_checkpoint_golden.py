"""Write refs_checkpoint_golden.json: ``checkpoint`` (``remat``) closing over or taking mutable array references,
differentiated with the named module. Per case: the value; ``jvp``'s, ``linearize``'s (eager and jitted), ``vjp``'s
and ``grad``'s (eager and jitted) values, or the error they raise; what the references made outside the function
hold after each; and, for the cases in ``JAXPR_CASES``, the jaxprs of ``jvp``, ``linearize`` and ``grad``:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_refs_checkpoint_golden.py jax
"""

from __future__ import annotations

import importlib
import sys
import types

import numpy as np
from make_refs_golden import write_golden

f32 = np.float32
X = np.array([0.5, -1.0, 2.0], f32)
T = np.array([0.3, -0.7, 1.1], f32)
WEIGHTS = np.array([1.0, 2.0, 3.0], f32)

# Each case builds a fresh function of one f32[3] and the references made outside it that it reads or writes.


def _accumulate_inside(m):
    def f(y):
        r = m.new_ref(m.lax.full((3,), 0.0, f32))

        @m.checkpoint
        def g(z):
            r[...] += m.lax.sin(z)
            return m.lax.cos(z) * r[...]
        return m.lax.reduce_sum(g(y), (0,)) + m.lax.reduce_sum(m.freeze(r), (0,))
    return f, []


def _read_outer(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        g = m.checkpoint(lambda z: m.lax.sin(z) * outer[...])
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _write_outer(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        @m.checkpoint
        def g(z):
            outer[...] = outer[...] + 1.0
            return m.lax.sin(z) * outer[0]
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _accumulate_outer(m):
    outer = m.new_ref(np.zeros(3, f32))

    def f(y):
        @m.checkpoint
        def g(z):
            outer[...] += WEIGHTS
            return m.lax.sin(z) * outer[1]
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _outer_argument(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        g = m.checkpoint(lambda ref, z: m.lax.cos(z) * ref[1:2] + ref[0])
        return m.lax.reduce_sum(g(outer, y), (0,))
    return f, [outer]


def _ref_argument(m):
    def f(y):
        r = m.new_ref(y)

        @m.checkpoint
        def g(ref, z):
            ref[...] = m.lax.sin(ref[...]) * z
            return m.lax.cos(z)
        return m.lax.reduce_sum(g(r, y) * m.freeze(r), (0,))
    return f, []


def _write_only(m):
    def f(y):
        r = m.new_ref(m.lax.full((3,), 0.0, f32))

        @m.checkpoint
        def g(z):
            r[...] = m.lax.sin(z)
            return z
        g(y)
        return m.lax.reduce_sum(m.freeze(r) ** 2, (0,))
    return f, []


def _read_only(m):
    def f(y):
        r = m.new_ref(y * 2.0)
        g = m.checkpoint(lambda z: m.lax.sin(r[...]) * z)
        return m.lax.reduce_sum(g(y), (0,))
    return f, []


def _everything_saveable(m):
    def f(y):
        r = m.new_ref(m.lax.full((3,), 0.0, f32))

        def g(z):
            r[...] += m.lax.sin(z)
            return m.lax.cos(z) * r[...]
        g = m.checkpoint(g, policy=m.checkpoint_policies.everything_saveable)
        return m.lax.reduce_sum(g(y), (0,)) + m.lax.reduce_sum(m.freeze(r), (0,))
    return f, []


def _dots_saveable_outer(m):
    outer = m.new_ref(np.eye(3, dtype=f32) * 2.0)

    def f(y):
        def g(z):
            w = m.lax.dot(outer[...], z)
            return m.lax.sin(w) * z
        g = m.checkpoint(g, policy=m.checkpoint_policies.dots_saveable)
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _names_outer(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        def g(z):
            a = m.checkpoint_name(m.lax.sin(z) * outer[...], "a")
            outer[0] = outer[0] * 2.0
            return m.lax.cos(a) * outer[0]
        g = m.checkpoint(g, policy=m.checkpoint_policies.save_only_these_names("a"))
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _inside_jit(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        @m.jit
        def h(z):
            return m.checkpoint(lambda u: m.lax.sin(u) * outer[...])(z)
        return m.lax.reduce_sum(h(y) * y, (0,))
    return f, [outer]


def _in_scan(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        @m.checkpoint
        def body(c, x):
            outer[0] = outer[0] + 1.0
            return c * m.lax.sin(x) + outer[1], c
        c, ys = m.lax.scan(body, f32(1.0), y)
        return c + m.lax.reduce_sum(ys, (0,))
    return f, [outer]


def _in_fori(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        def body(i, c):
            return m.checkpoint(lambda a: m.lax.sin(a * outer[i]))(c)
        return m.lax.reduce_sum(m.lax.fori_loop(0, 3, body, y), (0,))
    return f, [outer]


def _scan_inside(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        @m.checkpoint
        def g(z):
            def body(c, x):
                outer[...] = outer[...] * 0.5
                return c + m.lax.sin(x) * outer[2], None
            return m.lax.scan(body, f32(0.0), z)[0]
        return g(y)
    return f, [outer]


def _prevent_cse_static(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        def g(z, n):
            return m.lax.sin(z) * outer[n] + z ** 2
        g = m.checkpoint(g, prevent_cse=False, static_argnums=(1,))
        return m.lax.reduce_sum(g(y, 2), (0,))
    return f, [outer]


def _ref_made_inside(m):
    def f(y):
        @m.checkpoint
        def g(z):
            r = m.new_ref(z * 2.0)
            r[1:] += m.lax.sin(z[:2])
            return m.freeze(r) * z
        return m.lax.reduce_sum(g(y), (0,))
    return f, []


def _cond_inside(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        @m.checkpoint
        def g(z):
            def yes(u):
                outer[0] = outer[0] + 1.0
                return m.lax.sin(u) * outer[1]
            return m.lax.cond(z[0] > 0, yes, lambda u: u * outer[2], z)
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _while_inside(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        @m.checkpoint
        def g(z):
            def body(c):
                i, acc = c
                outer[i] = outer[i] * 2.0
                return i + 1, acc * m.lax.cos(z) + outer[i]
            return m.lax.while_loop(lambda c: c[0] < 3, body, (0, z))[1]
        return m.lax.reduce_sum(g(y), (0,))
    return f, [outer]


def _jit_of_checkpoint_taking_ref(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        g = m.jit(m.checkpoint(lambda ref, z: m.lax.exp(z * ref[...]) + ref[0]))
        return m.lax.reduce_sum(g(outer, y), (0,))
    return f, [outer]


def _remat_freeze(m):
    def f(y):
        r = m.new_ref(y)
        g = m.remat(lambda z: m.lax.sin(m.freeze(r)) * z + r[0])
        return m.lax.reduce_sum(g(y), (0,))
    return f, []


CASES = {"accumulate_inside": _accumulate_inside, "read_outer": _read_outer, "write_outer": _write_outer,
         "accumulate_outer": _accumulate_outer, "outer_argument": _outer_argument, "ref_argument": _ref_argument,
         "write_only": _write_only, "read_only": _read_only, "everything_saveable": _everything_saveable,
         "dots_saveable_outer": _dots_saveable_outer, "names_outer": _names_outer, "inside_jit": _inside_jit,
         "in_scan": _in_scan, "in_fori": _in_fori, "scan_inside": _scan_inside,
         "prevent_cse_static": _prevent_cse_static, "ref_made_inside": _ref_made_inside,
         "cond_inside": _cond_inside, "while_inside": _while_inside,
         "jit_of_checkpoint_taking_ref": _jit_of_checkpoint_taking_ref, "remat_freeze": _remat_freeze}
# Those whose jaxprs are recorded too: every case
JAXPR_CASES = sorted(CASES)


def _attempt(record: dict, key: str, build, compute) -> None:
    """``record[key]`` computed on a fresh function of ``build`` (or ``record[key + "_error"]``), and what its
    outer references hold after, ``record[key + "_held"]``."""
    f, refs = build()
    try:
        record[key] = compute(f)
    except Exception as error:  # noqa: BLE001 - the error is what we record
        record[key + "_error"] = {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    record[key + "_held"] = [np.asarray(r[...]).tolist() for r in refs]


def run_case(m, name: str) -> dict:
    """The record of case ``name`` under the namespace ``m``."""
    record: dict = {}
    build = lambda: CASES[name](m)
    listed = lambda a: np.asarray(a).tolist()
    computations = {
        "value": lambda f: listed(f(X)),
        "jvp": lambda f: listed(m.jvp(f, (X,), (T,))[1]),
        "linearize": lambda f: listed(m.linearize(f, X)[1](T)),
        "jit_linearize": lambda f: listed(m.jit(lambda x, t: m.linearize(f, x)[1](t))(X, T)),
        "vjp": lambda f: listed(m.vjp(f, X)[1](f32(1.0))[0]),
        "grad": lambda f: listed(m.grad(f)(X)),
        "jit_grad": lambda f: listed(m.jit(m.grad(f))(X)),
    }
    if name in JAXPR_CASES:
        computations.update({
            "jvp_jaxpr": lambda f: str(m.make_jaxpr(lambda x, t: m.jvp(f, (x,), (t,)))(X, T)),
            "linearize_jaxpr": lambda f: str(m.make_jaxpr(lambda x, t: m.linearize(f, x)[1](t))(X, T)),
            "grad_jaxpr": lambda f: str(m.make_jaxpr(m.grad(f))(X)),
        })
    for key, compute in computations.items():
        _attempt(record, key, build, compute)
    return record


def namespace(impl, new_ref, freeze, checkpoint_name):
    """The functions the cases call: ``impl``'s, with its ``new_ref``, ``freeze`` and ``checkpoint_name``."""
    return types.SimpleNamespace(new_ref=new_ref, freeze=freeze, lax=impl.lax, jit=impl.jit,
                                 checkpoint=impl.checkpoint, remat=impl.remat, checkpoint_name=checkpoint_name,
                                 checkpoint_policies=impl.checkpoint_policies, jvp=impl.jvp, vjp=impl.vjp,
                                 linearize=impl.linearize, grad=impl.grad, make_jaxpr=impl.make_jaxpr)


def main() -> None:
    impl = importlib.import_module(sys.argv[1])
    m = namespace(impl, impl.new_ref, impl.freeze,
                  importlib.import_module(f"{sys.argv[1]}.ad_checkpoint").checkpoint_name)
    write_golden("refs_checkpoint_golden.json", {name: run_case(m, name) for name in CASES})


if __name__ == "__main__":
    main()
