"""Write refs_under_mesh_golden.json: programs writing mutable array references laid out over a mesh of Explicit
axes (2 x 4 CPU devices), as JAX 0.10.2 lowers and runs them, and the errors it raises where an index would change
the layout (an integer index, a slice of part of a split dimension):

    XLA_FLAGS=--xla_force_host_platform_device_count=8 \\
        /work/jaxpeer/bin/python multidevice-tests/golden/make_refs_under_mesh_golden.py jax
"""

import importlib
import json
import pathlib
import sys

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

    def integer_index(r, y):
        r[1] = y[1]

    def part_of_split_axis(r, y):
        return r[:, 1:]

    return {"rows": rows, "loop": loop, "integer_index": integer_index,
            "part_of_split_axis": part_of_split_axis}


def record(m, name):
    """Case ``name`` with ``m`` as jax: its lowered text, result and the reference after two calls, or the error."""
    P = m.sharding.PartitionSpec
    mesh = m.make_mesh((2, 4), ("x", "y"), axis_types=(m.sharding.AxisType.Explicit,) * 2)
    with m.set_mesh(mesh):
        layout = m.NamedSharding(mesh, P(None, "y"))
        r = m.new_ref(m.device_put(m.numpy.zeros((8, 4)), layout))
        y = m.device_put(Y, layout)
        jitted = m.jit(_cases(m)[name])
        try:
            text = jitted.lower(r, y).as_text()
        except Exception as error:  # noqa: BLE001 - the error is what is recorded
            return {"error": type(error).__name__, "message": str(error)}
        jitted(r, y)
        out = jitted(r, y)
        return {"text": text, "result": np.asarray(out).tolist(), "reference": np.asarray(r[...]).tolist(),
                "reference_sharding": str(r[...].sharding.spec)}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    records = {name: record(module, name) for name in _cases(module)}
    (HERE / "refs_under_mesh_golden.json").write_text(json.dumps(records, indent=1, sort_keys=True) + "\n")
