"""Write auto_mesh_types_golden.json: the types (``jax.typeof(x)`` and its ``sharding``) of arrays laid out over
meshes of Auto axes on eight CPU devices, of the arguments a jitted function sees, of the results of jit, eager
operations, pmap and shard_map, and of the values computed from them inside a trace (over two meshes, under
set_mesh); whether such types compare equal and how often jit traces for them, recorded from the module named on
the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_auto_mesh_types_golden.py jax
"""

import functools
import pathlib

import golden_main
import numpy as np
from golden_cases import typed_mesh

HERE = pathlib.Path(__file__).parent
GRID = np.arange(32.0, dtype=np.float32).reshape(4, 8)


def _put(jax, *spec, kinds=("Auto", "Auto")):
    sharding = jax.sharding.NamedSharding(typed_mesh(jax, *kinds), jax.sharding.PartitionSpec(*spec))
    return jax.device_put(GRID, sharding)


def _typed(jax, array) -> str:
    """The array's type and the type's sharding, and the array's own sharding."""
    aval = jax.typeof(array)
    return f"{aval} | {aval.sharding} | {array.sharding}"


def _argument_type(jax, array) -> str:
    """The type a jitted function sees for ``array``."""
    seen = []
    jax.jit(lambda a: seen.append(f"{jax.typeof(a)} | {jax.typeof(a).sharding}"))(array)
    return seen[0]


def _typed_in_trace(jax, f, *args) -> str:
    """The type (and its sharding's mesh) of what ``f`` computes inside ``make_jaxpr``."""
    seen = []

    def traced(*a):
        y = f(*a)
        seen.append(f"{jax.typeof(y)} | {jax.typeof(y).sharding}")
        return y
    try:
        jax.make_jaxpr(traced)(*args)
    except ValueError as error:
        return f"ValueError: {error}"
    return seen[0]


def _traced(jax, name):
    """A function of the array laid out over the mesh, for ``_typed_in_trace``."""
    jnp = jax.numpy
    return {
        "reduce_sum": lambda a: a.sum(0),
        "reduce_all": lambda a: a.sum(),
        "argmax": lambda a: a.argmax(0),
        "dot_general": lambda a: a @ a.T,
        "reshape": lambda a: a.reshape(8, 4),
        "broadcast": lambda a: jnp.broadcast_to(a, (2, 4, 8)),
        "concatenate": lambda a: jnp.concatenate([a, a]),
        "transpose": lambda a: a.T,
        "slice": lambda a: a[1:],
        "elementwise": lambda a: jnp.sin(a) * 2,
        "convert": lambda a: a.astype(jnp.int32),
        "constant_alone": lambda a: jnp.zeros(3),
        "constant_combined": lambda a: a.sum() + jnp.ones(3),
        "stack_with_constant": lambda a: jnp.stack([a.sum(0), jnp.zeros(8)]),
        "where": lambda a: jnp.where(a > 0, a, 0.0),
        "scan_carry": lambda a: jax.lax.scan(lambda c, _: (c + a.sum(0), None), jnp.zeros(8), None, length=3)[0],
        "cond_branches_differ": lambda a: jax.lax.cond(True, lambda: a.sum(0), lambda: jnp.zeros(8)),
        "fori_loop": lambda a: jax.lax.fori_loop(0, 3, lambda i, c: c + a.sum(0), jnp.zeros(8)),
        "nested_jit": lambda a: jax.jit(lambda b: b.sum(0))(a),
        "custom_jvp": lambda a: jax.nn.relu(a),
        "grad": lambda a: jax.grad(lambda b: (b * b).sum())(a),
        "vmap": lambda a: jax.vmap(lambda row: row.sum())(a),
    }[name]


TRACED = ("reduce_sum", "reduce_all", "argmax", "dot_general", "reshape", "broadcast", "concatenate", "transpose",
          "slice", "elementwise", "convert", "constant_alone", "constant_combined", "stack_with_constant", "where",
          "scan_carry", "cond_branches_differ", "fori_loop", "nested_jit", "custom_jvp", "grad", "vmap")


def _traced_case(jax, name) -> str:
    return _typed_in_trace(jax, _traced(jax, name), _put(jax, "x", "y"))


def _two_meshes(jax, kinds, swap=False) -> str:
    """An operation on arrays over two different meshes: typed over none when both are of Auto axes, else JAX's
    ValueError."""
    other = jax.make_mesh((4, 2), ("x", "y"), axis_types=tuple(getattr(jax.sharding.AxisType, k) for k in kinds))
    b = jax.device_put(GRID, jax.sharding.NamedSharding(other, jax.sharding.PartitionSpec()))
    a = _put(jax, "x", "y")
    return _typed_in_trace(jax, lambda u, v: u + v, *((b, a) if swap else (a, b)))


def _under_set_mesh(jax, f, *args, kinds=("Auto", "Auto")) -> str:
    with jax.sharding.set_mesh(typed_mesh(jax, *kinds)):
        return _typed_in_trace(jax, f, *args)


def _identity(jax) -> dict:
    """Whether types over different meshes (or none) compare and hash alike."""
    over = jax.typeof(_put(jax, "x", "y"))
    other_shape = jax.typeof(jax.device_put(GRID, jax.sharding.NamedSharding(
        jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2),
        jax.sharding.PartitionSpec())))
    none = jax.typeof(GRID)
    return {"same_mesh": over == jax.typeof(_put(jax, "x")), "other_mesh": over == other_shape,
            "no_mesh": over == none, "hash_no_mesh": hash(over) == hash(none),
            "hash_same_mesh": hash(over) == hash(jax.typeof(_put(jax)))}


def _traces_per_mesh(jax) -> int:
    """How often a jitted function is traced for the same array on one device, over a mesh, over another."""
    count = []
    double = jax.jit(lambda a: count.append(1) or a * 2)
    other = jax.make_mesh((4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2)
    for array in (GRID, _put(jax, "x", "y"), jax.device_put(GRID, jax.sharding.NamedSharding(
            other, jax.sharding.PartitionSpec())), _put(jax, "y")):
        double(array)
    return len(count)


def _shard_map(jax):
    p = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: a * 2, mesh=typed_mesh(jax, "Auto"), in_specs=p("x"), out_specs=p("x"))


CASES = {
    "put_split": lambda jax: _typed(jax, _put(jax, "x", "y")),
    "put_replicated": lambda jax: _typed(jax, _put(jax)),
    "put_mixed_mesh": lambda jax: _typed(jax, _put(jax, "x", "y", kinds=("Explicit", "Auto"))),
    "put_explicit_mesh": lambda jax: _typed(jax, _put(jax, "x", kinds=("Explicit", "Explicit"))),
    "one_device": lambda jax: _typed(jax, jax.device_put(GRID, jax.devices()[3])),
    "jit_elementwise": lambda jax: _typed(jax, jax.jit(lambda a: a * 2)(_put(jax, "x", "y"))),
    "jit_reduction": lambda jax: _typed(jax, jax.jit(lambda a: a.sum(0))(_put(jax, "x", "y"))),
    "jit_out_shardings": lambda jax: _typed(jax, jax.jit(lambda a: a * 2, out_shardings=jax.sharding.NamedSharding(
        typed_mesh(jax, "Auto"), jax.sharding.PartitionSpec("y")))(GRID)),
    "jit_on_one_device": lambda jax: _typed(jax, jax.jit(lambda a: a * 2)(GRID)),
    "eager_elementwise": lambda jax: _typed(jax, jax.numpy.sin(_put(jax, "x", "y"))),
    "eager_reshape": lambda jax: _typed(jax, _put(jax, "x", "y").reshape(8, 4)),
    "pmap": lambda jax: _typed(jax, jax.pmap(lambda a: a + 1)(np.ones((8, 2), np.float32))),
    "shard_map": lambda jax: _typed(jax, _shard_map(jax)(_put(jax, "x", "y"))),
    "make_array_from_callback": lambda jax: _typed(jax, jax.make_array_from_callback(
        GRID.shape, jax.sharding.NamedSharding(typed_mesh(jax, "Auto"), jax.sharding.PartitionSpec("x")),
        lambda index: GRID[index])),
    "make_array_from_callback_explicit_mesh": lambda jax: _typed(jax, jax.make_array_from_callback(
        GRID.shape, jax.sharding.NamedSharding(typed_mesh(jax, "Explicit"), jax.sharding.PartitionSpec("x")),
        lambda index: GRID[index])),
    "argument_in_jit": lambda jax: _argument_type(jax, _put(jax, "x", "y")),
    "argument_in_jit_one_device": lambda jax: _argument_type(jax, GRID),
    "shard_data": lambda jax: str(jax.typeof(_put(jax, "x", "y").addressable_shards[0].data).sharding),
    **{f"traced_{name}": functools.partial(_traced_case, name=name) for name in TRACED},
    "traced_with_numpy_operand": lambda jax: _typed_in_trace(jax, lambda a, b: a.sum(0) + b, _put(jax, "x", "y"),
                                                             np.ones(8, np.float32)),
    "traced_numpy_alone": lambda jax: _typed_in_trace(jax, lambda a, b: b * 2, _put(jax, "x", "y"),
                                                      np.ones(8, np.float32)),
    "two_auto_meshes": lambda jax: _two_meshes(jax, ("Auto", "Auto")),
    "auto_and_explicit_meshes": lambda jax: _two_meshes(jax, ("Explicit", "Explicit")),
    "explicit_and_auto_meshes": lambda jax: _two_meshes(jax, ("Explicit", "Explicit"), swap=True),
    "auto_and_mixed_meshes": lambda jax: _two_meshes(jax, ("Explicit", "Auto")),
    "set_mesh_constant": lambda jax: _under_set_mesh(jax, lambda a: jax.numpy.zeros(3), _put(jax, "x", "y")),
    "set_mesh_numpy_argument": lambda jax: _under_set_mesh(jax, lambda b: b * 2, np.ones(3, np.float32)),
    "set_mesh_reduce_sum": lambda jax: _under_set_mesh(jax, lambda a: a.sum(0), _put(jax, "x", "y")),
    "set_mesh_explicit_operand_over_auto": lambda jax: _under_set_mesh(
        jax, lambda a: a.sum(0), _put(jax, "x", "y"), kinds=("Explicit", "Explicit")),
    "set_mesh_auto_operand_over_explicit": lambda jax: _under_set_mesh(
        jax, lambda a: a * 2, _put(jax, "x", kinds=("Explicit", "Explicit"))),
    "set_mesh_other_auto_mesh": lambda jax: _under_set_mesh(
        jax, lambda a: a * 2, jax.device_put(GRID, jax.sharding.NamedSharding(jax.make_mesh(
            (4, 2), ("x", "y"), axis_types=(jax.sharding.AxisType.Auto,) * 2), jax.sharding.PartitionSpec()))),
    "traced_shard_map": lambda jax: _typed_in_trace(jax, lambda a: _shard_map(jax)(a).sum(), GRID),
    "traced_pmap": lambda jax: _typed_in_trace(jax, lambda a: jax.pmap(lambda b: b + 1)(a).sum(), GRID),
    "identity": _identity,
    "traces_per_mesh": _traces_per_mesh,
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "auto_mesh_types_golden.json")
