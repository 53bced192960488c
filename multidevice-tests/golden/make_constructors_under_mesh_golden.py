"""Write constructors_under_mesh_golden.json: where ``jnp.asarray``/``jnp.array`` and the other constructors from
host data put their arrays under ``jax.set_mesh`` on eight CPU devices (sharding, committedness, type), with a
``device=`` (and JAX's errors where it refuses one), and where eager operations on host values only put theirs,
recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_constructors_under_mesh_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import MESH_KINDS, failure, first_line, typed_mesh

HERE = pathlib.Path(__file__).parent


def _mesh(jax, kind: str):
    return typed_mesh(jax, *MESH_KINDS[kind])


def _named(jax, *spec):
    """A NamedSharding over the set mesh's axes and devices (of Explicit axes outside ``set_mesh``)."""
    mesh = jax.sharding.get_mesh()
    mesh = _mesh(jax, "explicit") if mesh.empty else mesh
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))


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
    # device= a device or one device's sharding: refused under set_mesh by the functions that convert their value
    "asarray_on_a_device": lambda jax, jnp: jnp.asarray(np.arange(4.0, dtype=np.float32), device=jax.devices()[5]),
    "asarray_scalar_on_a_device": lambda jax, jnp: jnp.asarray(3, device=jax.devices()[0]),
    "array_of_list_on_a_device": lambda jax, jnp: jnp.array([1.0, 2.0], device=jax.devices()[1]),
    "asarray_on_a_single_device_sharding": lambda jax, jnp: jnp.asarray(
        np.ones(4, np.float32), device=jax.sharding.SingleDeviceSharding(jax.devices()[2])),
    "asarray_of_device_array_on_a_device": lambda jax, jnp: jnp.asarray(jnp.ones(4), device=jax.devices()[3]),
    "asarray_of_committed_array_on_another_device": lambda jax, jnp: jnp.asarray(
        jax.device_put(np.ones(4, np.float32), jax.devices()[0]), device=jax.devices()[1]),
    "astype_of_committed_array_on_another_device": lambda jax, jnp: jax.device_put(
        np.ones(4, np.float32), jax.devices()[0]).astype(jnp.int32, device=jax.devices()[1]),
    "astype_on_a_device": lambda jax, jnp: jnp.ones(4).astype(jnp.int32, device=jax.devices()[1]),
    "linspace_on_a_device": lambda jax, jnp: jnp.linspace(0.0, 1.0, 3, device=jax.devices()[1]),
    "asarray_on_a_memory_space": lambda jax, jnp: jnp.asarray(np.ones(4, np.float32), device=jax.memory.Space.Host),
    "asarray_on_a_named_sharding": lambda jax, jnp: jnp.asarray(np.ones((4, 4), np.float32), device=_named(jax, "x")),
    "asarray_on_a_replicated_named_sharding": lambda jax, jnp: jnp.asarray(np.ones((4, 4), np.float32),
                                                                          device=_named(jax)),
    "arange_on_a_device": lambda jax, jnp: jnp.arange(3, device=jax.devices()[5]),
    "zeros_on_a_device": lambda jax, jnp: jnp.zeros(3, device=jax.devices()[5]),
    "zeros_like_on_a_device": lambda jax, jnp: jnp.zeros_like(np.ones(3, np.float32), device=jax.devices()[5]),
    # eager operations on host values only: laid out as their rules keep the host values' (empty) layout
    "sin_of_host_values": lambda jax, jnp: jnp.sin(np.arange(4.0, dtype=np.float32)),
    "exp_of_host_matrix": lambda jax, jnp: jax.lax.exp(np.ones((2, 4), np.float32)),
    "sum_over_axis_of_host_matrix": lambda jax, jnp: jnp.sum(np.ones((2, 4), np.float32), axis=0),
    "dot_of_host_values": lambda jax, jnp: jax.lax.dot(np.ones((2, 4), np.float32), np.ones((4, 2), np.float32)),
    "reshape_of_host_values": lambda jax, jnp: jax.lax.reshape(np.arange(8.0, dtype=np.float32), (2, 4)),
    "convert_of_host_values": lambda jax, jnp: jax.lax.convert_element_type(np.ones(4, np.float32), np.int32),
    "pad_of_host_values": lambda jax, jnp: jax.lax.pad(np.ones(4, np.float32), np.float32(0), [(1, 1, 0)]),
    "clamp_of_host_values": lambda jax, jnp: jax.lax.clamp(np.float32(0), np.arange(4.0, dtype=np.float32),
                                                           np.float32(2)),
    "add_of_host_values": lambda jax, jnp: jax.lax.add(np.ones(4, np.float32), np.ones(4, np.float32)),
    "select_of_host_values": lambda jax, jnp: jax.lax.select(np.array([True, False]), np.ones(2, np.float32),
                                                             np.zeros(2, np.float32)),
    "concatenate_of_host_values": lambda jax, jnp: jax.lax.concatenate([np.ones(2, np.float32)] * 2, 0),
    "broadcast_of_host_values": lambda jax, jnp: jax.lax.broadcast_in_dim(np.ones(4, np.float32), (2, 4), (1,)),
    "iota": lambda jax, jnp: jax.lax.iota(np.int32, 4),
    "ravel_of_host_vector": lambda jax, jnp: jnp.ravel(np.ones(4, np.float32)),
}


def _case(constructor, kind: str | None):
    def case(jax):
        jnp = importlib.import_module(jax.__name__ + ".numpy")
        try:
            if kind is None:
                return _placement(jax, constructor(jax, jnp))
            with jax.sharding.set_mesh(_mesh(jax, kind)):
                return _placement(jax, constructor(jax, jnp))
        except Exception as error:  # the type and message are what is compared
            return failure(error, first_line)
    return case


CASES = {f"{name}_{kind or 'no_mesh'}": _case(constructor, kind)
         for name, constructor in CONSTRUCTORS.items() for kind in (None, *MESH_KINDS)}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "constructors_under_mesh_golden.json")
