"""Write lowered_scans_golden.json: the whole StableHLO text (``jit(f).lower(*args).as_text()``) of scans that
unroll their steps, recorded from the module named on the command line:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_lowered_scans_golden.py jax

The cases cover ``unroll`` as a count dividing the length or leaving steps over (run after the loop), as ``True``,
``0`` (every step unrolled, no loop) and the length itself (one trip: no loop either), forward and reversed, over
several xs and ys of several dtypes, closing over constants, over no xs (``fori_loop``'s ``unroll``), of length 0,
and the scans that ``grad`` and ``vmap`` make of an unrolled one.
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
XS = np.arange(5, dtype=np.float32)
ROWS = np.arange(12, dtype=np.float32).reshape(6, 2)
COLUMN = np.linspace(0.0, 1.0, 6, dtype=np.float32)


def one(c, x):
    """A step of one (weak-typed) carry and one x and y."""
    c = c * 2.0 + x
    return c, c + 1.0


def two(m):
    """A step of two carries, two xs and two ys (one of them float16)."""
    def step(c, xs):
        a, b = c
        x, y = xs
        return (a + x, b * y), (a * y, m.numpy.sin(x).astype(np.float16))
    return step


def _cases(m):
    lax = m.lax
    cases = {}
    for unroll in (2, 3, 5, 7, 0, True):
        for reverse in (False, True):
            tag = f"{unroll}{'_reversed' if reverse else ''}"
            cases[f"one_unroll_{tag}"] = (
                lambda c, xs, u=unroll, r=reverse: lax.scan(one, c, xs, unroll=u, reverse=r), 1.0, XS)
            cases[f"two_unroll_{tag}"] = (
                lambda c, xs, u=unroll, r=reverse: lax.scan(two(m), c, xs, unroll=u, reverse=r),
                (np.ones(2, np.float32), np.float32(1.0)), (ROWS, COLUMN))
    cases["unroll_of_the_length_divided"] = (lambda c, xs: lax.scan(one, c, xs[:4], unroll=2), 1.0, XS)
    cases["unroll_false"] = (lambda c, xs: lax.scan(one, c, xs, unroll=False), 1.0, XS)
    cases["consts"] = (lambda w, xs: lax.scan(lambda c, a: (c * w + a.sum(), a * w), w, xs, unroll=3),
                       np.float32(3.0), ROWS)
    cases["no_xs"] = (lambda c: lax.scan(lambda c, _: (c + 1.0, c), c, None, length=5, unroll=2), np.float32(1.0))
    cases["length_zero"] = (lambda c, xs: lax.scan(one, c, xs, unroll=2), np.float32(1.0), np.zeros(0, np.float32))
    cases["fori_loop"] = (lambda x: lax.fori_loop(0, 7, lambda i, c: c * 2.0 + i, x, unroll=3), np.float32(1.0))
    cases["fori_loop_unrolled"] = (lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2.0 + i, x, unroll=True),
                                   np.float32(1.0))
    cases["grad"] = (m.grad(lambda c, xs: lax.scan(lambda c, x: (m.numpy.sin(c) * x, c), c, xs, unroll=2)[0]),
                     np.float32(0.5), XS)
    cases["vmap"] = (m.vmap(lambda c, xs: lax.scan(one, c, xs, unroll=2, reverse=True)),
                     np.arange(3, dtype=np.float32), np.ones((3, 5), np.float32))
    return cases


def lowered(m, name):
    """The lowered text of case ``name`` with ``m`` as jax."""
    f, *args = _cases(m)[name]
    return m.jit(f).lower(*args).as_text()


def record(m):
    return {name: lowered(m, name) for name in _cases(m)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "lowered_scans_golden.json")
