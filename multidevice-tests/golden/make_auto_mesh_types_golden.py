"""Write auto_mesh_types_golden.json: the types (``jax.typeof(x)`` and its ``sharding``) of arrays laid out over
meshes of Auto axes on eight CPU devices, of the arguments a jitted function sees, and of the results of jit,
eager operations, pmap and shard_map, recorded from the module named on the command line.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 /work/jaxpeer/bin/python \
        multidevice-tests/golden/make_auto_mesh_types_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
GRID = np.arange(32.0, dtype=np.float32).reshape(4, 8)


def _mesh(jax, *kinds):
    types = tuple(getattr(jax.sharding.AxisType, kind) for kind in kinds)
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=types)


def _put(jax, *spec, kinds=("Auto", "Auto")):
    sharding = jax.sharding.NamedSharding(_mesh(jax, *kinds), jax.sharding.PartitionSpec(*spec))
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


def _shard_map(jax):
    p = jax.sharding.PartitionSpec
    return jax.shard_map(lambda a: a * 2, mesh=_mesh(jax, "Auto", "Auto"), in_specs=p("x"), out_specs=p("x"))


CASES = {
    "put_split": lambda jax: _typed(jax, _put(jax, "x", "y")),
    "put_replicated": lambda jax: _typed(jax, _put(jax)),
    "put_mixed_mesh": lambda jax: _typed(jax, _put(jax, "x", "y", kinds=("Explicit", "Auto"))),
    "put_explicit_mesh": lambda jax: _typed(jax, _put(jax, "x", kinds=("Explicit", "Explicit"))),
    "one_device": lambda jax: _typed(jax, jax.device_put(GRID, jax.devices()[3])),
    "jit_elementwise": lambda jax: _typed(jax, jax.jit(lambda a: a * 2)(_put(jax, "x", "y"))),
    "jit_reduction": lambda jax: _typed(jax, jax.jit(lambda a: a.sum(0))(_put(jax, "x", "y"))),
    "jit_out_shardings": lambda jax: _typed(jax, jax.jit(lambda a: a * 2, out_shardings=jax.sharding.NamedSharding(
        _mesh(jax, "Auto", "Auto"), jax.sharding.PartitionSpec("y")))(GRID)),
    "jit_on_one_device": lambda jax: _typed(jax, jax.jit(lambda a: a * 2)(GRID)),
    "eager_elementwise": lambda jax: _typed(jax, jax.numpy.sin(_put(jax, "x", "y"))),
    "eager_reshape": lambda jax: _typed(jax, _put(jax, "x", "y").reshape(8, 4)),
    "pmap": lambda jax: _typed(jax, jax.pmap(lambda a: a + 1)(np.ones((8, 2), np.float32))),
    "shard_map": lambda jax: _typed(jax, _shard_map(jax)(_put(jax, "x", "y"))),
    "make_array_from_callback": lambda jax: _typed(jax, jax.make_array_from_callback(
        GRID.shape, jax.sharding.NamedSharding(_mesh(jax, "Auto", "Auto"), jax.sharding.PartitionSpec("x")),
        lambda index: GRID[index])),
    "make_array_from_callback_explicit_mesh": lambda jax: _typed(jax, jax.make_array_from_callback(
        GRID.shape, jax.sharding.NamedSharding(_mesh(jax, "Explicit", "Explicit"), jax.sharding.PartitionSpec("x")),
        lambda index: GRID[index])),
    "argument_in_jit": lambda jax: _argument_type(jax, _put(jax, "x", "y")),
    "argument_in_jit_one_device": lambda jax: _argument_type(jax, GRID),
    "shard_data": lambda jax: str(jax.typeof(_put(jax, "x", "y").addressable_shards[0].data).sharding),
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    assert module.device_count() == 8, "run with XLA_FLAGS=--xla_force_host_platform_device_count=8"
    (HERE / "auto_mesh_types_golden.json").write_text(json.dumps(run(module), indent=1, sort_keys=True) + "\n")
