"""Write refs_grad_golden.json: gradients and jvps through mutable array references with the named module (the
values; differentiating writes into a reference made outside raises), under "jaxprs" the jaxprs of ``jvp`` and
``grad`` of the functions in ``JAXPR_CASES`` with the jitted gradient's value, and under "loop_jvps" the jaxprs of
``jvp`` and ``grad`` of the functions in ``LOOP_CASES`` (loops and conditionals closing over references) with the
jitted jvp's and gradient's values (or the gradient's error):

    /work/jaxpeer/bin/python packages/core/tests/golden/make_refs_grad_golden.py jax
"""

from __future__ import annotations

import importlib
import sys

import numpy as np
from make_refs_golden import write_golden

f32 = np.float32
X = np.array([0.5, -1.0, 2.0], f32)
WEIGHTS = np.array([1.0, 2.0, 3.0], f32)


def _writes_and_reads(m):
    def f(y):
        r = m.new_ref(y)
        r[0] = y[1] * 3.0
        r[1:] += y[0] * y[0]
        return m.lax.reduce_sum(m.freeze(r) * WEIGHTS, (0,)) + r[2] * r[0]
    return f


def _from_constant(m):
    def f(y):
        r = m.new_ref(np.zeros(3, f32))
        r[1] = y[0]
        r[...] += y * 2.0
        return m.lax.reduce_sum(r[...] * r[...], (0,))
    return f


def _scan_and_cond(m):
    def f(y):
        r = m.new_ref(y)

        def body(c, x):
            r[...] = r[...] * x + c
            return c + r[0], None
        c, _ = m.lax.scan(body, f32(0), np.array([1.0, 2.0, 0.5], f32))
        m.lax.cond(c > 0, lambda: r.__setitem__(1, r[1] * r[2]), lambda: None)
        return m.lax.reduce_sum(m.freeze(r), (0,)) * c
    return f


def _read_outer(m):
    outer = m.new_ref(WEIGHTS)
    return lambda y: m.lax.reduce_sum(outer[...] * y, (0,))


def _write_outer(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        outer[0] = y[0]
        return outer[0]
    return f


def _ds_and_swap(m):
    def f(y):
        r = m.new_ref(y)
        i = m.lax.argmax(y, 0, np.int32)
        r[m.ops.ds(m.lax.rem(i, np.int32(2)), 2)] = r[m.ops.ds(0, 2)] * y[1]
        m.ops.addupdate(r, m.ops.ds(1, 2), y[:2])
        old = m.ops.swap(r, 0, y[2])
        return m.lax.reduce_sum(m.freeze(r), (0,)) * old + r[i]
    return f


def _empty(m):
    def f(y):
        r = m.empty_ref(m.ShapeDtypeStruct((3,), f32))
        r[...] = y * 2.0
        r[1] += y[0]
        return m.lax.reduce_sum(m.freeze(r) ** 2, (0,))
    return f


def _array_index(m):
    def f(y):
        r = m.new_ref(y)
        j = np.array([2, 0], np.int32)
        r[j] = r[j] * y[1]
        m.ops.addupdate(r, np.array([1, 1], np.int32), y[:2])
        return m.lax.reduce_sum(r[np.array([[0, 2]], np.int32)] * y[2], (0, 1))
    return f


def _scalar_ref(m):
    def f(y):
        r = m.new_ref(y[0])
        r[...] = r[...] * y[1]
        return r[...] + m.freeze(r) * y[2]
    return f


def _strided(m):
    def f(y):
        r = m.new_ref(m.lax.full((6,), 0.0, f32))
        r[::2] = y
        r[m.ops.ds(1, 3, 2)] += y * y
        return m.lax.reduce_sum(r[1:5] ** 2, (0,))
    return f


def _fori(m):
    def f(y):
        r = m.new_ref(np.zeros(3, f32))

        def body(i, c):
            r[i] = y[i] * c
            return c * 2.0
        m.lax.fori_loop(0, 3, body, f32(1))
        return m.lax.reduce_sum(m.freeze(r) ** 2, (0,))
    return f


def _while(m):
    def f(y):
        r = m.new_ref(y)

        def body(c):
            r[c] = r[c] * y[c] + 1.0
            return c + 1
        m.lax.while_loop(lambda c: c < 3, body, 0)
        return m.lax.reduce_sum(m.freeze(r) ** 2, (0,))
    return f


def _scan_reading_outer(m):
    outer = m.new_ref(WEIGHTS)

    def f(y):
        return m.lax.scan(lambda c, x: (c + outer[0] * x, None), f32(0), y)[0]
    return f


def _scan_over_ref(m):
    def f(y):
        r = m.new_ref(m.lax.broadcast_in_dim(y, (2, 3), (1,)) * np.array([[1.0], [-2.0]], f32))

        def body(c, ref):  # a reference to one row of ``r``
            v = ref[...]
            ref[...] = m.lax.sin(v) * 2.0 + c
            ref[0] += v[1] * v[2]
            return c + m.lax.reduce_sum(v, (0,)), v[0] * c
        c, ys = m.lax.scan(body, f32(0.5), r)
        return m.lax.reduce_sum(m.freeze(r), (0, 1)) * c + m.lax.reduce_sum(ys, (0,))
    return f


CASES = {"writes_and_reads": _writes_and_reads, "from_constant": _from_constant, "scan_and_cond": _scan_and_cond,
         "read_outer": _read_outer, "write_outer": _write_outer, "scan_over_ref": _scan_over_ref}
# Straight-line functions, whose jvp and grad jaxprs hold reference operations on tangents and cotangents
JAXPR_CASES = {"writes_and_reads": _writes_and_reads, "from_constant": _from_constant, "read_outer": _read_outer,
               "ds_and_swap": _ds_and_swap, "empty": _empty, "array_index": _array_index, "scalar_ref": _scalar_ref,
               "strided": _strided}
LOOP_CASES = {"scan_and_cond": _scan_and_cond, "fori": _fori, "while": _while,
              "scan_reading_outer": _scan_reading_outer, "scan_over_ref": _scan_over_ref}


def run_case(m, name: str) -> dict:
    f = CASES[name](m)
    try:
        grad = np.asarray(m.grad(f)(X))
        jvp = np.asarray(m.jvp(f, (X,), (np.ones(3, f32),))[1])
        jit_grad = np.asarray(m.jit(m.grad(f))(X))
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return {"grad": grad.tolist(), "jvp": jvp.tolist(), "jit_grad": jit_grad.tolist()}


def run_jaxpr_case(m, name: str) -> dict:
    f = JAXPR_CASES[name](m)
    return {"jvp_jaxpr": str(m.make_jaxpr(lambda x, t: m.jvp(f, (x,), (t,)))(X, X)),
            "grad_jaxpr": str(m.make_jaxpr(m.grad(f))(X)), "jit_grad": np.asarray(m.jit(m.grad(f))(X)).tolist()}


def run_loop_case(m, name: str) -> dict:
    f = LOOP_CASES[name](m)
    record = {"jvp_jaxpr": str(m.make_jaxpr(lambda x, t: m.jvp(f, (x,), (t,)))(X, X)),
              "jit_jvp": float(m.jit(lambda x, t: m.jvp(f, (x,), (t,))[1])(X, np.ones(3, f32)))}
    try:
        record["jit_grad"] = np.asarray(m.jit(m.grad(f))(X)).tolist()
        record["grad_jaxpr"] = str(m.make_jaxpr(m.grad(f))(X))
    except Exception as error:  # noqa: BLE001 - the error is what we record
        record["grad_error"] = {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return record


def namespace(impl, new_ref, freeze, ops=None):
    """The functions the cases call; ``ops`` has ``swap``, ``addupdate``, ``ds`` and ``empty_ref`` (by default
    ``impl.ref``'s, ``impl.ds`` and ``impl.empty_ref``)."""
    import types

    if ops is None:
        ops = types.SimpleNamespace(swap=impl.ref.swap, addupdate=impl.ref.addupdate, ds=impl.ds)
    return types.SimpleNamespace(new_ref=new_ref, freeze=freeze, grad=impl.grad, jvp=impl.jvp, jit=impl.jit,
                                 lax=impl.lax, make_jaxpr=impl.make_jaxpr, ShapeDtypeStruct=impl.ShapeDtypeStruct,
                                 empty_ref=getattr(ops, "empty_ref", None) or impl.empty_ref, ops=ops)


def main() -> None:
    impl = importlib.import_module(sys.argv[1])
    m = namespace(impl, impl.new_ref, impl.freeze)
    write_golden("refs_grad_golden.json", {**{name: run_case(m, name) for name in CASES},
                                           "jaxprs": {name: run_jaxpr_case(m, name) for name in JAXPR_CASES},
                                           "loop_jvps": {name: run_loop_case(m, name) for name in LOOP_CASES}})


if __name__ == "__main__":
    main()
