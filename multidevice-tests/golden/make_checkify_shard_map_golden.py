"""Write checkify_shard_map_golden.json: what ``jax.experimental.checkify`` reports (``error.get()``, the message
``error.throw()`` raises) and computes for checks inside ``shard_map`` and ``pmap`` bodies on eight CPU devices (an
error per shard, at its mapped index; one of them raised), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_checkify_shard_map_golden.py jax
"""

import importlib
import pathlib
import sys

import golden_main
import numpy as np

HERE = pathlib.Path(__file__).parent
CHECKIFY_GOLDEN_DIR = HERE.parents[1] / "packages" / "jaxle" / "tests" / "golden"
if str(CHECKIFY_GOLDEN_DIR) not in sys.path:
    sys.path.insert(0, str(CHECKIFY_GOLDEN_DIR))

import make_checkify_control_flow_golden  # noqa: E402 - found through the path set just above

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


def _two_checks(m, ck, second_as_int=False):
    """Two checks per shard: their message values of one type (one kind of error, as JAX groups them when it raises
    a mapped error) or of two."""

    def body(x):
        ck.check(m.numpy.all(x > 0), "positive {}", m.numpy.min(x))
        big = m.numpy.max(x)
        ck.check(m.numpy.all(x < 5), "small {}", big.astype(m.numpy.int32) if second_as_int else big)
        return m.lax.pmean(x, "i") + x

    return body


def _pmapped(m, second_as_int=False, checkify_inside=False, laid_out=False):
    """``pmap`` over four devices of a body with two checks, checkified outside it or inside; ``laid_out``: the
    argument already lies over a mesh of those devices whose axis has another name (as chex's tests lay them out)."""
    ck = importlib.import_module(m.__name__ + ".experimental.checkify")
    body = _two_checks(m, ck, second_as_int)
    f = m.pmap(ck.checkify(body), axis_name="i") if checkify_inside else ck.checkify(m.pmap(body, axis_name="i"))
    if not laid_out:
        return f
    mesh = m.sharding.Mesh(np.array(m.devices()[:4]), ("replicas",))
    sharding = m.sharding.NamedSharding(mesh, m.sharding.PartitionSpec("replicas"))
    return lambda x: f(m.device_put(x, sharding))


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
        # the failing shards: first check at 1, second at 2 (raised: the kind's last failing shard)
        "pmap_one_kind": (_pmapped(m), np.array([1.0, -1.0, 6.0, 2.0], np.float32)),
        # two kinds: the earlier check's raised, at its last failing shard
        "pmap_two_kinds": (_pmapped(m, second_as_int=True), np.array([1.0, -1.0, 6.0, -2.0], np.float32)),
        "pmap_checkify_inside": (_pmapped(m, checkify_inside=True), np.array([7.0, 1.0, -1.0, 2.0], np.float32)),
        "pmap_laid_out": (_pmapped(m, laid_out=True), np.array([[1.0, 2.0], [-1.0, 2.0], [3.0, 1.0], [9.0, 1.0]],
                                                                np.float32)),
        "pmap_laid_out_holds": (_pmapped(m, laid_out=True), np.ones((4, 2), np.float32)),
    }


def record(m, name):
    fun, x = cases(m)[name]
    error, out = fun(m.numpy.asarray(x))
    return {**make_checkify_control_flow_golden.reported(error), "out": np.asarray(out).tolist()}


if __name__ == "__main__":
    golden_main.main(lambda m: {name: record(m, name) for name in cases(m)}, HERE / "checkify_shard_map_golden.json",
                     "experimental.checkify", indent=0)
