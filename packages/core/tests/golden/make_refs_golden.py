"""Write refs_golden.json: mutable array references with the named module: per case the jaxpr, the values of
the eager and the jitted call and what the references passed in hold afterwards, or the error:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_refs_golden.py jax

A case is ``build(m) -> (function, args)``; ``m`` has ``new_ref``, ``freeze``, ``empty_ref``, ``free_ref``, ``ref``
(get, swap, set, addupdate), ``ds``, ``lax``, ``make_jaxpr``, ``jit`` and ``ShapeDtypeStruct``. An argument given
as ``REF(array)`` is passed as a new reference holding it (a fresh one for each call).
"""

from __future__ import annotations

import importlib
import json
import pathlib
import sys
import types

import numpy as np

HERE = pathlib.Path(__file__).parent
f32 = np.float32


class REF:
    """An argument passed as a new reference holding ``value``."""

    def __init__(self, value):
        self.value = value


def namespace(jax_like, ref_module) -> types.SimpleNamespace:
    return types.SimpleNamespace(new_ref=jax_like.new_ref, freeze=jax_like.freeze, empty_ref=jax_like.empty_ref,
                                 free_ref=jax_like.free_ref, ref=ref_module, ds=jax_like.ds, lax=jax_like.lax,
                                 make_jaxpr=jax_like.make_jaxpr, jit=jax_like.jit,
                                 ShapeDtypeStruct=jax_like.ShapeDtypeStruct)


x5 = np.arange(5, dtype=f32)
x23 = np.arange(6, dtype=f32).reshape(2, 3)


def _basic(m):
    def f(x):
        r = m.new_ref(x)
        r[0] = 5.0
        r[1:] += 1.0
        return r[...], r[1:], m.freeze(r)
    return f, (x5,)


def _reads(m):
    def f(x, i):
        r = m.new_ref(x)
        return (r[:], r[1:3], r[::2], r[-1], r[m.ds(1, 2)], r[m.ds(i, 2)], r[np.int32(1)], r[i],
                r[(Ellipsis, 1)], r[m.ds(3)], r[-2:], r[m.ds(0, 2, 2)])
    return f, (x5, 2)


def _two_dims(m):
    def f(x, i):
        r = m.new_ref(x)
        old = m.ref.swap(r, (0, 1), 7.0)
        m.ref.addupdate(r, (1,), np.ones(3, f32))
        m.ref.set(r, (slice(None), 0), np.zeros(2, f32))
        r.addupdate(np.full(3, 2.0, f32), (0,))
        return old, m.ref.get(r, (i,)), r[i, 1:], r[m.ds(0, 1)], r[:, m.ds(i - 1, 2)], m.freeze(r)
    return f, (x23, 1)


def _array_index(m):
    def f(x, idx):
        r = m.new_ref(x)
        a = r[idx]
        r[idx] = np.full((2, 4), 10.0, f32)
        b = r[idx, 1]
        c = r[:, np.array([2, 0])]
        return a, b, c, m.freeze(r)
    return f, (np.arange(12, dtype=f32).reshape(3, 4), np.array([2, 0], np.int32))


def _ref_argument(m):
    def g(r, y):
        r[...] += y
        r[0] = r[1] * 2.0
        return r[2]
    return g, (REF(x5), f32(3.0))


def _two_ref_arguments(m):
    def g(a, b):
        a[...] = b[...] + a[...]
        b[0] = a[0]
    return g, (REF(np.ones(3, f32)), REF(np.arange(3, dtype=f32)))


def _fori_cond(m):
    def f(x):
        r = m.new_ref(x)

        def body(i, c):
            r[i] += c
            return c * 2
        c = m.lax.fori_loop(0, 3, body, 1.0)
        m.lax.cond(c > 2, lambda: r.__setitem__(0, 9.0), lambda: None)
        return m.freeze(r), c
    return f, (np.zeros(3, f32),)


def _scan(m):
    def f(x, xs):
        r = m.new_ref(x)

        def body(c, xi):
            r[0] += xi
            r[1] = c
            return c + r[0], xi * 2
        c, ys = m.lax.scan(body, f32(0.0), xs)
        return m.freeze(r), c, ys
    return f, (np.zeros(3, f32), np.arange(4, dtype=f32))


def _scan_over_ref(m):
    def f(x, xs):
        r = m.new_ref(x)

        def body(c, args):
            ref, xi = args  # a reference to one row of ``r``, and one of ``xs``
            old = ref[...]
            ref[1:] += xi
            ref[0] = c
            return c + old[2], old * 2
        c, ys = m.lax.scan(body, f32(1.0), (r, xs), reverse=True)
        return m.freeze(r), c, ys
    return f, (x23, np.array([10.0, 20.0], f32))


def _scan_over_ref_argument(m):
    def g(r, y):
        def body(c, row):
            row[...] = row[...] * c
            return c + y, row[0]
        return m.lax.scan(body, y, r)
    return g, (REF(x23), f32(2.0))


def _while(m):
    def f(x):
        r = m.new_ref(x)

        def body(c):
            r[1] += c
            return c + 1.0
        n = m.lax.while_loop(lambda c: c < 4.0, body, 0.0)
        return m.freeze(r), n
    return f, (np.zeros(3, f32),)


def _dynamic_fori(m):
    def f(x, n):
        r = m.new_ref(x)

        def body(i, c):
            r[m.ds(i, 2)] = r[m.ds(i, 2)] + c
            return c + 1.0
        m.lax.fori_loop(0, n, body, 1.0)
        return m.freeze(r)
    return f, (np.zeros(5, f32), 3)


def _nested_jit(m):
    def f(r, x):
        def inner(q):
            q[1:] = q[:-1] * x
        m.jit(inner)(r)
        return r[0]
    return f, (REF(x5), f32(2.0))


def _jit_closes_over_refs(m):
    outer = m.new_ref(np.arange(3, dtype=f32))
    other = m.new_ref(np.ones(2, f32))

    @m.jit
    def g(x, y):
        outer[...] += x
        other[0] = y
        return outer[1] * y

    def f(x, y):
        return g(x, y), g(x, 3.0), outer[...], other[...]
    return f, (np.ones(3, f32), 2.0)


def _jit_ref_argument_and_closed_over(m):
    outer = m.new_ref(np.arange(3, dtype=f32))

    @m.jit
    def g(s, y):
        s[...] += y
        outer[...] = outer[...] * 2.0
        return y

    def f(s, y):
        return g(s, y), outer[...]
    return f, (REF(np.zeros(3, f32)), np.ones(3, f32))


def _jit_closes_over_tracer_and_ref(m):
    outer = m.new_ref(np.arange(3, dtype=f32))
    c = np.full(3, 2.0, f32)

    def f(x):
        return m.jit(lambda y: x * y + c + outer[...])(x[0])
    return f, (np.ones(3, f32),)


def _implicit_cast(m):
    def f(x, y, n):
        r = m.new_ref(x)
        r[0] = y
        old = m.ref.swap(r, 1, y)
        i = m.new_ref(np.zeros(3, np.int32))
        i[0] = n
        i[1] = 7
        m.ref.set(i, 2, np.int16(3))
        return old, m.freeze(r), m.freeze(i)
    return f, (np.ones(3, f32), 2.0, np.int8(3))


def _cond_local_ref(m):
    def f(x):
        def branch():
            q = m.new_ref(x)
            q[0] = 2.0
            return m.freeze(q)
        return m.lax.cond(x[1] > 0, branch, lambda: x)
    return f, (x5,)


def _free_and_empty(m):
    def f(x):
        r = m.empty_ref(m.ShapeDtypeStruct((2,), np.dtype("float32")))
        r[...] = x
        s = m.new_ref(x)
        m.free_ref(s)
        return m.freeze(r)
    return m.jit(f), (np.ones(2, f32),)  # JAX 0.10.2 has no eager empty_ref


def _err_shape(m):
    def f(x):
        r = m.new_ref(x)
        r[...] = 1.0
    return f, (np.ones((5, 2), f32),)


def _err_shape_indexed(m):
    def f(x, i):
        r = m.new_ref(x)
        r[i] = 4.0
    return f, (np.ones((5, 2), f32), 2)


def _err_dtype(m):
    def f(x):
        r = m.new_ref(x)
        r[0] = 3
    return f, (np.ones(3, f32),)


def _err_addupdate(m):
    def f(x):
        r = m.new_ref(x)
        m.ref.addupdate(r, (), np.ones(2, f32))
    return f, (np.ones(3, f32),)


def _err_step(m):
    def f(x):
        return m.new_ref(x)[::-1]
    return f, (np.ones(3, f32),)


CASES = {"basic": _basic, "reads": _reads, "two_dims": _two_dims, "array_index": _array_index,
         "ref_argument": _ref_argument, "two_ref_arguments": _two_ref_arguments, "fori_cond": _fori_cond,
         "scan": _scan, "scan_over_ref": _scan_over_ref, "scan_over_ref_argument": _scan_over_ref_argument,
         "while": _while, "dynamic_fori": _dynamic_fori, "nested_jit": _nested_jit,
         "jit_closes_over_refs": _jit_closes_over_refs,
         "jit_ref_argument_and_closed_over": _jit_ref_argument_and_closed_over,
         "jit_closes_over_tracer_and_ref": _jit_closes_over_tracer_and_ref, "implicit_cast": _implicit_cast,
         "cond_local_ref": _cond_local_ref,
         "free_and_empty": _free_and_empty, "err_shape": _err_shape, "err_shape_indexed": _err_shape_indexed,
         "err_dtype": _err_dtype, "err_addupdate": _err_addupdate, "err_step": _err_step}


def _value(x) -> dict:
    a = np.asarray(x)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "data": a.ravel().tolist()}


def _leaves(out) -> list:
    if out is None:
        return []
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _leaves(o)]
    return [out]


def run_case(m, build) -> dict:
    """{'jaxpr', 'eager', 'jit', 'eager_refs', 'jit_refs'} or {'error', 'message'}."""
    fn, args = build(m)

    def call(f):
        actual = [m.new_ref(a.value) if isinstance(a, REF) else a for a in args]
        outs = _leaves(f(*actual))
        return [_value(o) for o in outs], [_value(m.freeze(a)) for a in actual if isinstance(a, REF)]

    try:
        text = str(m.make_jaxpr(fn)(*[m.new_ref(a.value) if isinstance(a, REF) else a for a in args]))
        eager, eager_refs = call(fn)
        jitted, jit_refs = call(m.jit(fn))
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return {"jaxpr": text, "eager": eager, "jit": jitted, "eager_refs": eager_refs, "jit_refs": jit_refs}


def errors(m) -> dict:
    """Errors outside tracing (an eager out-of-range index, a jitted function returning a reference or given one
    reference twice), and a loop's or conditional's function returning a reference."""
    def jit_returning_ref(x):
        return m.jit(lambda y: m.new_ref(y))(x)

    def twice(r):
        return m.jit(lambda a, b: a[...])(r, r)

    def out_of_bounds(r):
        return r[7]

    def traced(fun):  # traced with make_jaxpr on an f32[3]
        return lambda x: m.make_jaxpr(fun)(x)

    def body(i, c):
        return m.new_ref(c)

    lax = m.lax
    returning = {
        "scan_returns_ref": lambda x: lax.scan(lambda c, xi: (m.new_ref(c), None), x, x),
        "scan_y_is_ref": lambda x: lax.scan(lambda c, xi: (c, {"a": m.new_ref(c)}), x, x),
        "fori_returns_ref": lambda x: lax.fori_loop(0, 2, body, x),
        "while_cond_returns_ref": lambda x: lax.while_loop(lambda c: m.new_ref(c), lambda c: c, x),
        "while_body_returns_ref": lambda x: lax.while_loop(lambda c: False, lambda c: m.new_ref(c), x),
        "cond_returns_ref": lambda x: lax.cond(True, lambda: m.new_ref(x), lambda: m.new_ref(x)),
        "switch_returns_ref": lambda x: lax.switch(1, [lambda: (x, m.new_ref(x)), lambda: (x, m.new_ref(x))]),
    }
    cases = {name: (traced(fun), lambda: np.ones(3, f32)) for name, fun in returning.items()}
    cases["dynamic_fori_returns_ref"] = (lambda x: m.make_jaxpr(lambda y, n: lax.fori_loop(0, n, body, y))(x, 2),
                                         lambda: np.ones(3, f32))
    cases |= {"jit_returns_ref": (jit_returning_ref, lambda: np.ones(2, f32)),
             "ref_passed_twice": (twice, lambda: m.new_ref(np.ones(3, f32))),
             "eager_out_of_bounds": (out_of_bounds, lambda: m.new_ref(np.ones(5, f32)))}
    records = {}
    for name, (fn, arg) in cases.items():
        try:
            fn(arg())
            records[name] = {"error": None}
        except Exception as error:  # noqa: BLE001
            records[name] = {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    return records


def assert_record_matches(actual: dict, expected: dict, rtol: float = 1e-6) -> None:
    """A replayed record of the reference generators against its golden one: the same error, or the jaxprs
    character for character and each value within ``rtol``."""
    if "error" in expected or "error" in actual:
        assert actual == expected
        return
    for key, want in expected.items():
        if key.endswith("jaxpr"):
            assert actual[key] == want, "\n" + str(actual[key]) + "\n!=\n" + str(want)
        elif key == "values":  # one entry per result, of different shapes
            for got, value in zip(actual[key], want, strict=True):
                np.testing.assert_allclose(got, value, rtol=rtol)
        else:
            np.testing.assert_allclose(actual[key], want, rtol=rtol)


def write_golden(filename: str, records: dict) -> None:
    """Write a generator's ``records`` beside it."""
    (HERE / filename).write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records)} cases -> {HERE / filename}")


def main() -> None:
    jax_like = importlib.import_module(sys.argv[1])
    m = namespace(jax_like, importlib.import_module(f"{sys.argv[1]}.ref"))
    records = {"cases": {name: run_case(m, build) for name, build in CASES.items()}, "errors": errors(m)}
    (HERE / "refs_golden.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
    print(f"{len(records['cases'])} cases -> {HERE / 'refs_golden.json'}")


if __name__ == "__main__":
    main()
