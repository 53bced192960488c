"""Write lowered_refs_golden.json: the whole StableHLO text (``jit(f).lower(*args).as_text()``) of programs taking or
closing over mutable array references, recorded from the module named on the command line:

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_lowered_refs_golden.py jax

The cases cover references passed as arguments (read, written, both, neither, written without their value being read,
several, donated beside them, with keep_unused), references the function closes over (of several ranks, alongside
arguments), references made inside, a reference written under ``lax.cond``, and references read and written at static
integer indices (negative ones too), at a traced index, through slices and both, through slices from traced starts
(``ds(i, n)``, also in a ``fori_loop``), added to (``ref.addupdate``) at static and traced starts, with a read that
nothing uses, a jit given its device (``jit(device=...)``), and loops: a ``fori_loop`` and ``scan``s closing over
references or scanning over them (forward, reversed, beside arrays), whose bodies JAX calls as private functions
(``@closed_call``, ``@dynamic_index_in_dim``), and a ``scan`` without references lowered alike. Each case also records
the values its program gives (run twice).
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden

HERE = pathlib.Path(__file__).parent
X = np.arange(3, dtype=np.float32)
M = np.arange(6, dtype=np.float32).reshape(2, 3)
_OPTIONS = {"donated_beside": {"donate_argnums": 0}, "unused_kept": {"keep_unused": True}}


def _options(m, name):
    """The ``jit`` options of case ``name`` (``on_a_device``: the first device, as ``jit(device=...)``)."""
    return {"device": m.devices()[0]} if name == "on_a_device" else _OPTIONS.get(name, {})


def _cases(m):
    jnp, lax = m.numpy, m.lax
    closed_vector = m.new_ref(jnp.arange(3.0))
    closed_matrix = m.new_ref(jnp.ones((2, 3)))
    closed_scalar = m.new_ref(jnp.float32(5))

    def add_to(r, y):
        r[...] += y
        return y * 2

    def read_one_write_other(a, b, y):
        b[...] = y
        return a[...] + 1

    def untouched_and_written(a, b):
        b[...] = jnp.ones(3)
        return jnp.float32(1)

    def closes_over(y):
        closed_vector[...] = closed_vector[...] + y
        return y.sum()

    def closes_over_ranks(y):
        closed_matrix[...] += y
        closed_scalar[...] += 1.0
        return {"a": y, "b": (y,)}

    def made_inside(x):
        r = m.new_ref(x)
        r[...] += 1
        return r[...]

    def written_only(x, r):
        r[...] = x
        return x

    def read_only(r, unused):
        return r[...] * 2

    def under_cond(p, r):
        lax.cond(p, lambda: r.__setitem__(..., r[...] + 1), lambda: None)
        return r[...]

    def integer_indices(r, y):
        r[1] = y
        r[-1] = y * 2
        return r[2]

    def traced_index(r, i, y):
        r[i] = y
        return r[i]

    def sliced(r, y):
        r[1:] = r[:2] * y[0]
        return r[::2]

    def dead_read(r, y):
        _ = r[1]
        r[0] += y
        return y

    def row_and_columns(a, y):
        a[1, :2] = y[:2]
        return a[0, 1:]

    def argument_and_closed(r, y):
        r[...] += closed_vector[...]
        closed_vector[...] = y
        return jnp.sum(r[...])

    def fori_over(r, y):
        def step(i, c):
            r[i] += y[i]
            return c + 1.0

        return lax.fori_loop(0, 3, step, 0.0)

    def scan_closing_over(r, xs):
        def step(c, x):
            r[...] += x
            closed_scalar[...] += c
            return c + x.sum(), c

        return lax.scan(step, 0.0, xs)

    def scan_over(rows, w, reverse=False):
        def step(c, row):
            row[...] *= c * w
            return c + 1.0, row[0]

        return lax.scan(step, 1.0, rows, reverse=reverse)

    def scan_over_and_xs(rows, xs):
        return lax.scan(lambda c, x_row: (c + x_row[0].sum(), x_row[1].__setitem__(..., x_row[0])), 0.0, (xs, rows))

    def dynamic_slices(r, i):
        a = r[m.ds(i, 2)]
        b = r[1:3, m.ds(i, 2)]
        c = r[m.ds(i, 2), 1]
        d = r[i, m.ds(i, 1)]
        r[m.ds(i, 2)] = a * 2
        return a, b, c, d

    def fori_rows(r, y):
        def step(i, c):
            r[m.ds(i, 1)] += y[m.ds(i, 1)] * c
            return c + r[m.ds(i, 1)].sum()

        return lax.fori_loop(0, 2, step, 1.0)

    def added_windows(r, v, i):
        m.ref.addupdate(r, (slice(1, 3),), v)
        m.ref.addupdate(r, (m.ds(i, 2),), v)
        m.ref.addupdate(r, 1, v[0])

    def plain_scan(xs, w):
        return lax.scan(lambda c, x: (c * w.sum() + x[0].sum(), x * c), 0.0, xs, reverse=True)

    return {
        "fori_loop_over": (fori_over, m.new_ref(jnp.zeros(3)), X),
        "scan_closing_over": (scan_closing_over, m.new_ref(jnp.zeros(3)), np.ones((4, 3), np.float32)),
        "scan_over": (scan_over, m.new_ref(jnp.ones((3, 2))), np.float32(2)),
        "scan_over_reversed": (lambda rows, w: scan_over(rows, w, reverse=True), m.new_ref(jnp.ones((3, 2))),
                               np.float32(2)),
        "scan_over_beside_xs": (scan_over_and_xs, m.new_ref(jnp.zeros((2, 3))), M),
        "scan_without_references": (plain_scan, np.ones((4, 2, 3), np.float32), X),
        "dynamic_slices": (dynamic_slices, m.new_ref(jnp.arange(32.0).reshape(8, 4)), 1),
        "fori_loop_dynamic_rows": (fori_rows, m.new_ref(jnp.zeros((2, 3))), M),
        "added_windows": (added_windows, m.new_ref(jnp.zeros((4, 3))), np.ones((2, 3), np.float32), 1),
        "argument_read_and_written": (add_to, m.new_ref(jnp.zeros(3)), X),
        "one_read_one_written": (read_one_write_other, m.new_ref(jnp.zeros(3)), m.new_ref(jnp.zeros(3)), X),
        "untouched_pruned": (untouched_and_written, m.new_ref(jnp.zeros(3)), m.new_ref(jnp.zeros(3))),
        "closed_over": (closes_over, X),
        "closed_over_ranks": (closes_over_ranks, M),
        "made_inside": (made_inside, X),
        "donated_beside": (written_only, X, m.new_ref(jnp.zeros(3))),
        "read_only": (read_only, m.new_ref(jnp.zeros(3)), X),
        "unused_kept": (untouched_and_written, m.new_ref(jnp.zeros(3)), m.new_ref(jnp.zeros(3))),
        "under_cond": (under_cond, True, m.new_ref(jnp.zeros(3))),
        "argument_and_closed": (argument_and_closed, m.new_ref(jnp.zeros(3)), X),
        "integer_indices": (integer_indices, m.new_ref(jnp.zeros(3)), np.float32(2)),
        "traced_index": (traced_index, m.new_ref(jnp.arange(3.0)), -1, np.float32(7)),
        "sliced": (sliced, m.new_ref(jnp.arange(3.0)), X + 1),
        "dead_read": (dead_read, m.new_ref(jnp.zeros(3)), np.float32(1)),
        "row_and_columns": (row_and_columns, m.new_ref(jnp.zeros((2, 3))), X),
        "on_a_device": (add_to, m.new_ref(jnp.zeros(3)), X),
    }


def lowered(m, name):
    """Case ``name``'s lowered text with ``m`` as jax."""
    fun, *args = _cases(m)[name]
    return m.jit(fun, **_options(m, name)).lower(*args).as_text()


def run(m, name):
    """Case ``name`` run (twice) with ``m`` as jax: the results' leaves and the reference arguments' values after."""
    fun, *args = _cases(m)[name]
    jitted = m.jit(fun, **{k: v for k, v in _options(m, name).items() if k != "donate_argnums"})
    jitted(*args)
    outs = jitted(*args)
    refs = [a for a in args if type(a).__name__ == "Ref"]
    return {"results": [np.asarray(x).tolist() for x in m.tree_util.tree_leaves(outs)],
            "references": [np.asarray(r[...]).tolist() for r in refs]}


def record(m):
    return {name: {"text": lowered(m, name), "values": run(m, name)} for name in _cases(m)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    write_golden(record(module), HERE / "lowered_refs_golden.json")
