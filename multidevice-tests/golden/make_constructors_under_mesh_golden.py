"""Write constructors_under_mesh_golden.json: where ``jnp.asarray``/``jnp.array`` and the other constructors from
host data put their arrays under ``jax.set_mesh`` on eight CPU devices (sharding, committedness, type), recorded
from the module named on the command line.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 /work/jaxpeer/bin/python \
        multidevice-tests/golden/make_constructors_under_mesh_golden.py jax
"""

import importlib
import json
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).parent
MESH_KINDS = {"explicit": ("Explicit", "Explicit"), "auto": ("Auto", "Auto"), "mixed": ("Explicit", "Auto")}


def _mesh(jax, kind: str):
    types = tuple(getattr(jax.sharding.AxisType, t) for t in MESH_KINDS[kind])
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=types)


def _placement(jax, array) -> str:
    """The array's sharding and committedness, its type and the type's sharding, and its value."""
    aval = jax.typeof(array)
    return (f"{array.sharding} committed={array.committed} {aval.str_short()} weak={aval.weak_type} "
            f"{aval.sharding} {np.asarray(array).tolist()}")


CONSTRUCTORS = {
    "asarray_host_array": lambda jax, jnp: jnp.asarray(np.arange(8.0, dtype=np.float32).reshape(2, 4)),
    "asarray_float64_host_array": lambda jax, jnp: jnp.asarray(np.ones(3)),
    "asarray_python_scalar": lambda jax, jnp: jnp.asarray(3.0),
    "asarray_python_int_dtype": lambda jax, jnp: jnp.asarray(2, dtype=jnp.int16),
    "array_of_nested_lists": lambda jax, jnp: jnp.array([[1, 2], [3, 4]]),
    "array_of_mixed_scalars": lambda jax, jnp: jnp.array([np.float32(1), 2.0]),
    "array_of_bools": lambda jax, jnp: jnp.array([True, False]),
    "array_ndmin": lambda jax, jnp: jnp.array(np.arange(3), ndmin=2),
    "frombuffer": lambda jax, jnp: jnp.frombuffer(np.arange(2, dtype=np.float32).tobytes(), dtype=jnp.float32),
    "asarray_of_list": lambda jax, jnp: jnp.asarray(list(range(4))),
    "asarray_of_device_array": lambda jax, jnp: jnp.asarray(jax.device_put(np.ones(4, np.float32),
                                                                          jax.devices()[1])),
    "device_put_host_array": lambda jax, jnp: jax.device_put(np.ones(4, np.float32)),
}


def _case(constructor, kind: str | None):
    def case(jax):
        jnp = importlib.import_module(jax.__name__ + ".numpy")
        if kind is None:
            return _placement(jax, constructor(jax, jnp))
        with jax.sharding.set_mesh(_mesh(jax, kind)):
            return _placement(jax, constructor(jax, jnp))
    return case


CASES = {f"{name}_{kind or 'no_mesh'}": _case(constructor, kind)
         for name, constructor in CONSTRUCTORS.items() for kind in (None, *MESH_KINDS)}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    assert module.device_count() == 8, "run with XLA_FLAGS=--xla_force_host_platform_device_count=8"
    (HERE / "constructors_under_mesh_golden.json").write_text(json.dumps(run(module), indent=1, sort_keys=True)
                                                               + "\n")
