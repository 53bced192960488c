"""Write ordered_effects_lowering_golden.json: the StableHLO text (``jit(f).lower(*args).as_text()``) of programs
whose loops, conditionals and nested jits have ordered effects (``debug.print(..., ordered=True)``,
``io_callback(..., ordered=True)``), recorded from the module named on the command line:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_ordered_effects_lowering_golden.py jax

The cases: a scan (forward, reversed, between prints outside it), a fori_loop, a while_loop, a cond, a nested jit
and a scan calling an ordered io_callback; then programs with both ordered effects (one token each):
straight, through nested jits (one with no effect), loops, a conditional and a scan, and with a donated argument
(aliased past the tokens). Each also records what the program prints and returns, called once, and what three
calls in a row print.

JAX orders the two effects' tokens as its sets of effects iterate, which changes from run to run (the effects hash
by address, so PYTHONHASHSEED does not fix it): in some runs the io_callback's token comes first in every program,
in others the debug print's, in others the order depends on which the program calls first. Every order is JAX's,
and the texts differ only in it. The generator records a run passing the io_callback's token first in every
program, starting itself again until a run does.
"""

import contextlib
import importlib
import io
import os
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
XS = np.arange(3, dtype=np.float32)


def _cases(m):
    lax, jnp = m.lax, m.numpy

    def show(label, value):
        m.debug.print(label + "={v}", v=value, ordered=True)

    def scan(xs):
        def step(c, x):
            show("x", x)
            return c + x, x * 2
        return lax.scan(step, 0.0, xs)

    def scan_between_prints(c, xs):
        show("before", c)

        def step(carry, x):
            show("x", x)
            return carry + x * c, carry
        out = lax.scan(step, c, xs, reverse=True)
        show("after", out[0])
        return out

    def fori(xs):
        def step(i, c):
            show("c", c)
            return c + 1
        return lax.fori_loop(0, 3, step, xs)

    def while_loop(xs):
        def step(c):
            show("c", c[1])
            return c[0] + 1, c[1] * 2
        return lax.while_loop(lambda c: c[0] < 3, step, (0, xs))

    def cond(xs):
        def shown(v):
            show("v", v)
            return v + 1
        return lax.cond(xs[0] > -1, shown, lambda v: v, xs)

    def nested_jit(xs):
        inner = m.jit(lambda v: (show("inner", v), v * 3)[1])
        show("outer", xs)
        return inner(xs) + 1

    def scan_io_callback(xs):
        def step(c, x):
            y = m.experimental.io_callback(lambda v: np.float32(v + 1), m.ShapeDtypeStruct((), jnp.float32), x,
                                           ordered=True)
            return c + y, y
        return lax.scan(step, 0.0, xs)

    def io(x):
        return m.experimental.io_callback(lambda v: np.asarray(v) * 2, m.ShapeDtypeStruct(x.shape, x.dtype), x,
                                          ordered=True)

    def io_then_print(xs):
        y = io(xs)
        show("y", y)
        return y + 1

    def print_then_io(xs):
        show("xs", xs)
        return io(xs) + 1

    inner_show = m.jit(lambda v: (show("inner", v), v * 2)[1])
    inner_plain = m.jit(lambda v: v * 3)

    def both_nested_jits(xs):
        return inner_plain(inner_show(io(xs)))

    def both_in_loops(xs):
        def step(c):
            show("c", c[1])
            return c[0] + 1, c[1] + 1
        n, y = lax.while_loop(lambda c: c[0] < 2, step, (0, io(xs)))
        return lax.cond(y[0] > 2, inner_show, lambda v: v, y)

    def both_in_scan(xs):
        def step(c, x):
            show("x", x)
            return c + io(x), c
        return lax.scan(step, np.float32(0), xs)

    return {"scan": (scan, XS), "scan_between_prints": (scan_between_prints, np.float32(2), XS),
            "fori_loop": (fori, XS), "while_loop": (while_loop, XS), "cond": (cond, XS),
            "nested_jit": (nested_jit, XS), "scan_io_callback": (scan_io_callback, XS),
            "io_then_print": (io_then_print, XS), "print_then_io": (print_then_io, XS),
            "both_nested_jits": (both_nested_jits, XS), "both_in_loops": (both_in_loops, XS),
            "both_in_scan": (both_in_scan, XS), "donated": (io_then_print, XS)}


# the jit options of the cases that take some
JIT_OPTIONS = {"donated": {"donate_argnums": 0}}


def _jitted(m, name):
    fun, *args = _cases(m)[name]
    return m.jit(fun, **JIT_OPTIONS.get(name, {})), [np.array(a) for a in args]


def lowered(m, name):
    """Case ``name``'s lowered text with ``m`` as jax."""
    fun, args = _jitted(m, name)
    return fun.lower(*args).as_text()


def run(m, name):
    """Case ``name`` run with ``m`` as jax: what it prints and the leaves of its results."""
    fun, args = _jitted(m, name)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        outs = fun(*args)
        m.effects_barrier()
    return {"printed": printed.getvalue(), "results": [np.asarray(x).tolist() for x in m.tree.leaves(outs)]}


def run_three_times(m, name):
    """What case ``name`` prints when called three times in a row (its array arguments plus 0, 10, 20) with ``m``
    as jax, waiting for its effects only after the last."""
    fun, args = _jitted(m, name)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        for shift in (0, 10, 20):
            fun(*[a + np.asarray(shift, a.dtype) for a in args])
        m.effects_barrier()
    return printed.getvalue()


def record(m):
    return {name: {"text": lowered(m, name), "run": run(m, name), "three_runs": run_three_times(m, name)}
            for name in _cases(m)}


def io_token_first(m) -> bool:
    """Whether ``m``'s programs take the ordered io_callback's token before the ordered debug print's, whichever
    they call first."""
    def io_first(name):
        io_call = next(line for line in lowered(m, name).splitlines()
                       if "xla_ffi_python_cpu_callback" in line and "-> (!stablehlo.token, tensor" in line)
        return "callback(%arg0," in io_call

    return io_first("io_then_print") and io_first("print_then_io")


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.experimental")
    runs = int(os.environ.get("ORDERED_EFFECTS_GOLDEN_RUNS", "0"))
    if not io_token_first(module) and runs < 32:  # this run's order is the other one: start again
        os.environ["ORDERED_EFFECTS_GOLDEN_RUNS"] = str(runs + 1)
        os.execv(sys.executable, [sys.executable, *sys.argv])
    write_golden(record(module), HERE / "ordered_effects_lowering_golden.json")
