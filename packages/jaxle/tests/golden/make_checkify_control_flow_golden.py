"""Write checkify_control_flow_golden.json: what ``jax.experimental.checkify`` reports (``error.get()``) and computes
for checks inside ``cond``/``switch``, ``scan``, ``while_loop``/``fori_loop`` and ``checkpoint`` (user, NaN, division
and index checks; which failure is reported; under jit, vmap and grad); replayed by
test_checkify_control_flow.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_checkify_control_flow_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

F32 = np.float32
XS = np.arange(6.0, dtype=F32)


def _ck(m):
    return importlib.import_module(m.__name__ + ".experimental.checkify")


def _scan_body(m):
    ck = _ck(m)

    def body(c, x):
        ck.check(x < 3, "x too big: {}", x)
        ck.check(c < 4, "carry too big: {} at {}", c, x)
        return c + x, c * x

    return body


def _branch(m):
    def branch(x):
        _ck(m).check(x > 0, "neg {}", x)
        return x * 2

    return branch


def _while(m, checked_cond=True):
    ck = _ck(m)

    def cond(c):
        if checked_cond:
            ck.check(c[1] < 10, "cond sees {}", c[1])
        return c[0] < 5

    def body(c):
        ck.check(c[1] < 6, "body sees {}", c[1])
        return c[0] + 1, c[1] * 2

    return cond, body


def _fori(m):
    def body(i, c):
        _ck(m).check(c < 5, "fori {} {}", i, c)
        return c * 2.0

    return lambda x: m.lax.fori_loop(0, 4, body, x)


def _switch(m):
    def second(y):
        _ck(m).check(y < 0, "b1 {}", y)
        return y

    return lambda x: m.lax.switch(m.numpy.int32(x), [_branch(m), second, lambda y: y], x)


def _nested(m):
    def inner(c, x):
        _ck(m).check(c + x < 7, "nested {} {}", c, x)
        return c + x, None

    return lambda xs: m.lax.cond(xs[0] < 1, lambda v: m.lax.scan(inner, 0.0, v)[0], lambda v: v[0], xs)


# name -> (function of the module, arguments, error categories' name)
CASES = {
    "scan_first_failure": (lambda m: lambda xs: m.lax.scan(_scan_body(m), 0.0, xs), [XS], "user_checks"),
    "scan_holds": (lambda m: lambda xs: m.lax.scan(_scan_body(m), 0.0, xs[:3]), [XS], "user_checks"),
    "scan_reverse_jit": (lambda m: m.jit(lambda xs: m.lax.scan(_scan_body(m), 0.0, xs, reverse=True)), [XS],
                         "user_checks"),
    "cond_taken_holds": (lambda m: lambda x: m.lax.cond(x > 1, _branch(m), lambda y: y + 1, x), [F32(2.0)],
                         "user_checks"),
    "cond_taken_fails": (lambda m: lambda x: m.lax.cond(x > 1, lambda y: y + 1, _branch(m), x), [F32(-2.0)],
                         "user_checks"),
    "cond_other_branch": (lambda m: lambda x: m.lax.cond(x > 1, lambda y: y + 1, _branch(m), x), [F32(5.0)],
                          "user_checks"),
    "switch": (_switch, [F32(1.0)], "user_checks"),
    "while_cond_and_body": (lambda m: lambda x: m.lax.while_loop(*_while(m), (0, x)), [F32(1.0)], "user_checks"),
    "while_body": (lambda m: lambda x: m.lax.while_loop(lambda c: c[0] < 5, _while(m)[1], (0, x)), [F32(1.0)],
                   "user_checks"),
    "while_cond_first": (lambda m: lambda x: m.lax.while_loop(*_while(m), (0, x)), [F32(12.0)], "user_checks"),
    "while_cond_holds": (lambda m: lambda x: m.lax.while_loop(_while(m)[0], lambda c: (c[0] + 1, c[1] + 1.0),
                                                              (0, x)), [F32(1.0)], "user_checks"),
    "fori_loop": (_fori, [F32(1.0)], "user_checks"),
    "fori_loop_jit": (lambda m: m.jit(_fori(m)), [F32(0.5)], "user_checks"),
    "nested_scan_in_cond": (_nested, [XS], "user_checks"),
    "scan_nan": (lambda m: lambda xs: m.lax.scan(lambda c, x: (c + m.numpy.log(x), None), 0.0, xs), [XS - 1],
                 "float_checks"),
    "cond_division": (lambda m: lambda x: m.lax.cond(x > 1, lambda y: y / 0.0, m.numpy.sin, x), [F32(2.0)],
                      "all_checks"),
    "scan_index": (lambda m: lambda xs: m.lax.scan(lambda c, i: (c + xs[i], None), 0.0, m.numpy.arange(8)), [XS],
                   "index_checks"),
    "checkpoint": (lambda m: m.checkpoint(_branch(m)), [F32(-1.0)], "user_checks"),
    "grad_of_checkpoint": (lambda m: m.grad(m.checkpoint(lambda x: m.numpy.sin(_branch(m)(x)))), [F32(-1.0)],
                           "user_checks"),
    "grad": (lambda m: m.grad(lambda x: m.numpy.sin(_branch(m)(x))), [F32(-1.0)], "user_checks"),
    "grad_of_scan": (lambda m: m.grad(lambda x: m.lax.scan(lambda c, _: (c * 2.0, None), x, None, length=2)[0]),
                     [F32(1.0)], "float_checks"),
}

# vmapped outside checkify: one message per failing mapped index (``throw`` raises one of them)
VMAPPED = {
    "vmap_scan": (lambda m: lambda xs: m.lax.scan(_scan_body(m), 0.0, xs), [np.stack([XS, XS - 3])]),
    "vmap_cond": (lambda m: lambda x: m.lax.cond(x > 1, lambda y: y + 1, _branch(m), x),
                  [np.array([2.0, -1.0, -3.0], F32)]),
    "vmap_while": (lambda m: lambda x: m.lax.while_loop(*_while(m), (0, x)), [np.array([0.5, 1.0, 20.0], F32)]),
}

# vmapped twice outside checkify: indices of two axes
VMAPPED_TWICE = {
    "vmap_vmap_while": (lambda m: lambda x: m.lax.while_loop(*_while(m), (0, x)),
                        [np.array([[0.5, 20.0, 0.25], [1.0, 0.25, 0.1]], F32)]),
}


def _leaves(m, out):
    return [np.asarray(x).tolist() for x in m.tree_util.tree_leaves(out)]


def run_case(m, name):
    build, args, errors = CASES[name]
    ck = _ck(m)
    error, out = ck.checkify(build(m), errors=getattr(ck, errors))(*[m.numpy.asarray(a) for a in args])
    return {"get": error.get(), "out": _leaves(m, out)}


def reported(error) -> dict:
    """What a checkify ``error`` reports: ``get()``, and the type and message of what ``throw()`` raises and of
    ``get_exception()`` (None when every check held)."""
    exception = error.get_exception()
    try:
        error.throw()
        raised = None
    except Exception as e:  # noqa: BLE001 - recorded: JAX's type and message
        raised = [type(e).__name__, str(e)]
    return {"get": error.get(), "throw": raised,
            "exception": None if exception is None else [type(exception).__name__, str(exception)]}


def run_vmapped(m, name):
    build, args = {**VMAPPED, **VMAPPED_TWICE}[name]
    checked = m.vmap(_ck(m).checkify(build(m)))
    error, out = (m.vmap(checked) if name in VMAPPED_TWICE else checked)(*[m.numpy.asarray(a) for a in args])
    return {**reported(error), "out": _leaves(m, out)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in CASES}
    golden.update({name: run_vmapped(module, name) for name in {**VMAPPED, **VMAPPED_TWICE}})
    out = pathlib.Path(__file__).parent / "checkify_control_flow_golden.json"
    write_golden(golden, out, indent=0)
