"""Write checkify_shard_map_golden.json: what ``jax.experimental.checkify`` reports (``error.get()``) and computes for
checks inside ``shard_map`` bodies on eight CPU devices (an error per shard, at its mapped index), recorded from the
module named on the command line.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 /work/jaxpeer/bin/python \
        multidevice-tests/golden/make_checkify_shard_map_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
X = np.arange(16.0, dtype=np.float32)


def _checked_shard_map(m, body, mesh_shape, names, in_specs, out_specs, errors="user_checks", check_vma=True):
    ck = importlib.import_module(m.__name__ + ".experimental.checkify")
    mesh = m.make_mesh(mesh_shape, names, axis_types=(m.sharding.AxisType.Auto,) * len(names))
    f = m.shard_map(body(m, ck), mesh=mesh, in_specs=in_specs, out_specs=out_specs, check_vma=check_vma)
    return ck.checkify(f, errors=getattr(ck, errors))


def _below_ten(m, ck):
    def body(x):
        ck.check(m.numpy.all(x < 10), "shard {}", x)
        return x * 2

    return body


def _loop_in_body(m, ck):
    def body(x):
        def step(c, v):
            ck.check(v < 13, "element {}", v)
            return c + v, None

        return m.lax.scan(step, 0.0, x)[0][None]

    return body


def _divide(m, ck):
    return lambda x: 1.0 / x


def cases(m):
    P = m.sharding.PartitionSpec
    return {
        "one_axis": (_checked_shard_map(m, _below_ten, (8,), ("i",), P("i"), P("i")), X),
        "one_axis_jit": (m.jit(_checked_shard_map(m, _below_ten, (8,), ("i",), P("i"), P("i"))), X),
        "holds": (_checked_shard_map(m, _below_ten, (8,), ("i",), P("i"), P("i")), X / 2),
        "two_axes": (_checked_shard_map(m, _below_ten, (2, 4), ("i", "j"), P(("i", "j")), P(("i", "j"))), X),
        # JAX 0.10.2 cannot carry a check's state through a scan whose types vary over manual axes
        "scan_in_body": (_checked_shard_map(m, _loop_in_body, (4,), ("i",), P("i"), P("i"), check_vma=False), X),
        "division": (_checked_shard_map(m, _divide, (8,), ("i",), P("i"), P("i"), "div_checks"), X),
    }


def record(m, name):
    fun, x = cases(m)[name]
    error, out = fun(m.numpy.asarray(x))
    return {"get": error.get(), "out": np.asarray(out).tolist()}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    importlib.import_module(f"{sys.argv[1]}.experimental.checkify")
    golden = {name: record(module, name) for name in cases(module)}
    (HERE / "checkify_shard_map_golden.json").write_text(json.dumps(golden, indent=0, sort_keys=True) + "\n")
    print(f"{len(golden)} cases")
