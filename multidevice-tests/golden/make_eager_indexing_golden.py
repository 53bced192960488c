"""Write eager_indexing_golden.json: indexing arrays laid out over eight CPU devices, recorded from the module named
on the command line. Eagerly, an index taking part of a dimension of such an array (an integer, a slice leaving
elements out or of another step than 1) gathers, as JAX's indexing of arrays over several devices does, so its
result's layout (over Auto axes) and errors (over Explicit axes) are the gather's; iterating over such an array not
held whole by every device gives its rows read back and put on the default device. An array typed unreduced or
reduced over mesh axes (partial sums) refuses any gather or scatter, eagerly or under ``jit`` (``ValueError``).

    /work/jaxpeer/bin/python multidevice-tests/golden/make_eager_indexing_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import first_line, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
X = np.arange(32.0, dtype=np.float32).reshape(4, 8)

# name -> the indexing, given (jax, jax.numpy, operand)
INDEXINGS = {
    "integer": lambda jax, jnp, v: v[0],
    "slice": lambda jax, jnp, v: v[1:3],
    "column": lambda jax, jnp, v: v[:, 0],
    "element": lambda jax, jnp, v: v[-1, 2],
    "columns": lambda jax, jnp, v: v[:, 2:6],
    "stride": lambda jax, jnp, v: v[::2],
    "reversed": lambda jax, jnp, v: v[::-1],
    "full": lambda jax, jnp, v: v[:, :],
    "new_axis": lambda jax, jnp, v: v[None],
    "traced_integer": lambda jax, jnp, v: v[jnp.int32(1)],
    "at_get": lambda jax, jnp, v: v.at[1].get(),
    "at_set": lambda jax, jnp, v: v.at[1].set(0.0),
    "mask": lambda jax, jnp, v: v[np.arange(4) > 1],
    "array": lambda jax, jnp, v: v[np.array([3, 0])],
    "take": lambda jax, jnp, v: jnp.take(v, 1, axis=1),
    "row_of_iteration": lambda jax, jnp, v: list(v)[1],
}

# name -> the operation on an array of partial sums (or one reduced over the same axis)
PARTIAL_SUM_INDEXINGS = {
    "integer": lambda jax, jnp, v: v[0],
    "slice": lambda jax, jnp, v: v[1:3],
    "column": lambda jax, jnp, v: v[:, 0],
    "scalar_false": lambda jax, jnp, v: v[False],
    "mask": lambda jax, jnp, v: v[np.arange(4) > 1],
    "full": lambda jax, jnp, v: v[:, :],
    "new_axis": lambda jax, jnp, v: v[None],
    "at_set": lambda jax, jnp, v: v.at[0].set(1.0),
    "at_add": lambda jax, jnp, v: v.at[:, 0].add(1.0),
    "take": lambda jax, jnp, v: jnp.take(v, 0, axis=1),
    "take_along_axis": lambda jax, jnp, v: jnp.take_along_axis(v, jnp.zeros((4, 1), jnp.int32), axis=1),
    "jit_array": lambda jax, jnp, v: jax.jit(lambda a: a[np.array([0, 1])])(v),
    "jit_at_set": lambda jax, jnp, v: jax.jit(lambda a: a.at[0].set(1.0))(v),
    "jit_column": lambda jax, jnp, v: jax.jit(lambda a: a[:, 0])(v),
}


def _outcome(jax, indexing, operand) -> str:
    """The layout (spec, or kind of sharding), type and sum (its partial sums' total when it is unreduced) of the
    result of ``indexing`` of ``operand``, or the error raised."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")

    def described() -> str:
        out = indexing(jax, jnp, operand)
        layout = getattr(out.sharding, "spec", type(out.sharding).__name__)
        total = sum(float(np.asarray(s.data).sum()) for s in out.addressable_shards) if layout.unreduced \
            else float(np.asarray(out).sum())
        return f"{layout} committed={out.committed} {jax.typeof(out)} sum={total:.4f}"
    return outcome(described, message=first_line)


def _indexing_case(jax, name: str) -> dict:
    """Indexing ``name`` of arrays laid out in several ways over a mesh of Explicit and one of Auto axes, inside
    and outside ``set_mesh``."""
    P = jax.sharding.PartitionSpec
    found = {}
    for kind in ("Explicit", "Auto"):
        mesh = typed_mesh(jax, kind)
        for spec in (P(), P("x"), P(None, "y"), P("x", "y")):
            x = jax.device_put(X, jax.sharding.NamedSharding(mesh, spec))
            found[f"{kind} {spec} outside"] = _outcome(jax, INDEXINGS[name], x)
            with jax.sharding.set_mesh(mesh):
                found[f"{kind} {spec} set_mesh"] = _outcome(jax, INDEXINGS[name], x)
    return found


def _partial_sum_case(jax, name: str) -> dict:
    """Operation ``name`` on a product left unreduced over ``y`` by an eager shard_map, and on its sum reduced over
    ``y``."""
    mesh = typed_mesh(jax, "Explicit")
    P = jax.sharding.PartitionSpec
    a = jax.device_put(X, jax.sharding.NamedSharding(mesh, P("x", "y")))
    b = jax.device_put(np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2), jax.sharding.NamedSharding(mesh, P("y")))
    unreduced = jax.shard_map(lambda u, v: u @ v, mesh=mesh, in_specs=(P("x", "y"), P("y")),
                              out_specs=P("x", unreduced={"y"}))(a, b)
    with jax.sharding.set_mesh(mesh):
        reduced = jax.sharding.reshard(unreduced, P("x", None, reduced={"y"}))
    operands = {"unreduced": unreduced, "reduced": reduced}
    return {label: _outcome(jax, PARTIAL_SUM_INDEXINGS[name], operand) for label, operand in operands.items()}


CASES = {**{f"indexing/{name}": (lambda jax, name=name: _indexing_case(jax, name)) for name in INDEXINGS},
         **{f"partial_sums/{name}": (lambda jax, name=name: _partial_sum_case(jax, name))
            for name in PARTIAL_SUM_INDEXINGS}}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "eager_indexing_golden.json")
