"""Write refs_under_mesh_golden.json: programs writing mutable array references laid out over a mesh of Explicit
axes (2 x 4 CPU devices), as JAX 0.10.2 traces, lowers and runs them (their jaxprs, lowered texts, results, and the
references after two calls), and the errors it raises where an index would change the layout (an integer index, a
slice of part of a split dimension, also from a traced start). The loops read and write rows of a reference laid out
along its columns from a traced start (``ds(i, n)``):

    /work/jaxpeer/bin/python multidevice-tests/golden/make_refs_under_mesh_golden.py jax
"""

import pathlib

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
Y = np.arange(32, dtype=np.float32).reshape(8, 4)


def _cases(m):
    jnp, lax = m.numpy, m.lax

    def rows(r, y):
        r[2:5, :] += y[2:5]
        return jnp.sum(r[...])

    def loop(r, y):
        def step(i, c):
            r[...] = r[...] * c + y
            return c + 1.0

        return lax.fori_loop(0, 3, step, 1.0)

    def rows_in_loop(r, y):
        def step(i, c):
            r[m.ds(i, 1)] = y[m.ds(i, 1)] * c
            return c + 1.0

        return lax.fori_loop(0, 8, step, 1.0)

    def rows_read_in_loop(r, y):
        return lax.fori_loop(0, 8, lambda i, c: c + r[m.ds(i, 1)].sum(), 0.0)

    def rows_in_scan(r, y):
        def step(c, i):
            r[m.ds(i, 2)] += c
            return c + 1.0, r[m.ds(i, 2), :].sum()

        return lax.scan(step, 0.0, jnp.arange(3))

    def integer_index(r, y):
        r[1] = y[1]

    def part_of_split_axis(r, y):
        return r[:, 1:]

    def columns_in_loop(r, y):
        return lax.fori_loop(0, 4, lambda i, c: c + r[:, m.ds(i, 1)].sum(), 0.0)

    return {"rows": rows, "loop": loop, "rows_in_loop": rows_in_loop, "rows_read_in_loop": rows_read_in_loop,
            "rows_in_scan": rows_in_scan, "integer_index": integer_index, "part_of_split_axis": part_of_split_axis,
            "columns_in_loop": columns_in_loop}


def record(m, name):
    """Case ``name`` with ``m`` as jax: its lowered text, result and the reference after two calls, or the error."""
    P = m.sharding.PartitionSpec
    mesh = m.make_mesh((2, 4), ("x", "y"), axis_types=(m.sharding.AxisType.Explicit,) * 2)
    with m.set_mesh(mesh):
        layout = m.NamedSharding(mesh, P(None, "y"))
        r = m.new_ref(m.device_put(m.numpy.zeros((8, 4)), layout))
        y = m.device_put(Y, layout)
        fun = _cases(m)[name]
        jitted = m.jit(fun)
        try:
            jaxpr = str(m.make_jaxpr(fun)(r, y))
            text = jitted.lower(r, y).as_text()
        except Exception as error:  # noqa: BLE001 - the error is what is recorded
            return {"error": type(error).__name__, "message": str(error)}
        jitted(r, y)
        out = jitted(r, y)
        return {"jaxpr": jaxpr, "text": text, "result": [np.asarray(x).tolist() for x in m.tree.leaves(out)],
                "reference": np.asarray(r[...]).tolist(), "reference_sharding": str(r[...].sharding.spec)}


if __name__ == "__main__":
    golden_main.main(lambda m: {name: record(m, name) for name in _cases(m)}, HERE / "refs_under_mesh_golden.json")
