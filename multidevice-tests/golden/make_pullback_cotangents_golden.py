"""Write pullback_cotangents_golden.json: what a pullback (``jax.vjp``) of a function of arrays laid out over a
mesh on eight CPU devices makes of the cotangents it is given (untyped, typed as its output, typed otherwise, over
another mesh), eagerly, under set_mesh and under jit, with shard_map over a mesh of Explicit axes; recorded from the
module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_pullback_cotangents_golden.py jax
"""

import functools
import pathlib

import golden_main
import numpy as np
from golden_cases import outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
GRID = np.arange(32.0, dtype=np.float32).reshape(4, 8) / 8
ROW = np.arange(8.0, dtype=np.float32) / 4


def _mesh(jax, kind, shape=(2, 4), names=("x", "y")):
    return typed_mesh(jax, kind, shape=shape, names=names)


def _put(jax, value, mesh, *spec):
    return jax.device_put(value, jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec)))


def _outcome(jax, thunk) -> str:
    """The cotangent's type, layout and sum, or the error raised."""
    def described(cts) -> str:
        (ct,) = cts
        layout = getattr(ct.sharding, "spec", f"{len(ct.sharding.device_set)} device")
        return f"{jax.typeof(ct)} | {layout} | {float(np.asarray(ct).sum()):.4f}"
    return outcome(thunk, described, errors=ValueError)


def _cotangents(jax, kind, shape):
    """The cotangents given: a NumPy array, a one-device array, ones laid out otherwise, ones over another mesh."""
    explicit = _mesh(jax, kind)
    other_kind = "Auto" if kind == "Explicit" else "Explicit"
    ones = np.ones(shape, np.float32)
    return {"numpy": lambda: ones, "one_device": lambda: jax.numpy.asarray(ones),
            "same_layout": lambda: _put(jax, ones, explicit, "x"),
            "other_layout": lambda: _put(jax, ones, explicit, *([None, "y"] if len(shape) == 2 else ["y"])),
            "other_mesh": lambda: _put(jax, ones, _mesh(jax, other_kind), "x")}


def _sine(jax, kind, ct_name, where="eager"):
    """The pullback of 2 sin(x) for x split over 'x', given the cotangent ``ct_name``."""
    mesh = _mesh(jax, kind)
    x = _put(jax, GRID, mesh, "x")
    _, pullback = jax.vjp(lambda a: jax.numpy.sin(a) * 2, x)
    ct = _cotangents(jax, kind, GRID.shape)[ct_name]
    if where == "set_mesh":
        with jax.sharding.set_mesh(mesh):
            return _outcome(jax, lambda: pullback(ct()))
    if where == "jit":
        return _outcome(jax, lambda: jax.jit(pullback)(ct()))
    return _outcome(jax, lambda: pullback(ct()))


def _shard_map(jax, ct_name, body):
    """The pullback of a shard_map over a mesh of one Explicit axis: a psum of sums (one replicated scalar out), or
    doubling (out split like the argument)."""
    P = jax.sharding.PartitionSpec
    mesh = _mesh(jax, "Explicit", (4,), ("i",))
    if body == "psum":
        f = jax.shard_map(lambda a: jax.lax.psum(a.sum(), "i"), mesh=mesh, in_specs=P("i"), out_specs=P())
        cts = {"numpy": lambda: np.float32(1), "typed": lambda: _put(jax, np.float32(1), mesh)}
    else:
        f = jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P("i"), out_specs=P("i"))
        cts = {"numpy": lambda: np.ones(8, np.float32), "typed": lambda: _put(jax, np.ones(8, np.float32), mesh, "i"),
               "replicated": lambda: _put(jax, np.ones(8, np.float32), mesh)}
    _, pullback = jax.vjp(f, _put(jax, ROW, mesh, "i"))
    return _outcome(jax, lambda: pullback(cts[ct_name]()))


CASES = {
    **{f"{kind.lower()}_{ct}_{where}": functools.partial(_sine, kind=kind, ct_name=ct, where=where)
       for kind in ("Explicit", "Auto") for ct in ("numpy", "one_device", "same_layout", "other_layout", "other_mesh")
       for where in ("eager", "set_mesh", "jit")},
    **{f"shard_map_{body}_{ct}": functools.partial(_shard_map, ct_name=ct, body=body)
       for body, cts in (("psum", ("numpy", "typed")), ("double", ("numpy", "typed", "replicated"))) for ct in cts},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "pullback_cotangents_golden.json")
