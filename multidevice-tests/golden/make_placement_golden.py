"""Write placement_golden.json: where arrays are put on eight CPU devices, outside any mesh and under
``jax.set_mesh`` of Explicit, Auto and mixed axes (sharding, committedness, type, value, or JAX's error), recorded
from the module named on the command line:

- arrays of rank 0, made by every creation route (``zeros(())``, ``*_like`` of scalars, ``asarray`` of scalars,
  lax's ``full``, eager operations on scalars);
- ``zeros_like``/``ones_like``/``full_like``/``empty_like`` (and lax's ``full_like``) of arrays committed to one
  device or laid out over a mesh;
- values converted to a NamedSharding (``asarray``/``array``/``astype``/``linspace`` with ``device=``) over
  another mesh than the one set.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_placement_golden.py jax
"""

import functools
import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import MESH_KINDS, first_line, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent


def _axis_types(jax, kind: str) -> tuple:
    return tuple(getattr(jax.sharding.AxisType, t) for t in MESH_KINDS[kind])


def _mesh(jax, kind: str):
    return typed_mesh(jax, *MESH_KINDS[kind])


def _placement(jax, array) -> str:
    """The array's sharding and committedness, its type (spec and mesh axes) and its value."""
    aval = jax.typeof(array)
    return (f"{array.sharding} committed={array.committed} {aval.str_short()} weak={aval.weak_type} "
            f"{aval.sharding.spec} mesh={aval.sharding.mesh.axis_names} {np.asarray(array).tolist()}")


def _outcome(jax, thunk, kind: str | None) -> str:
    """``thunk(jax, jnp)`` run under ``set_mesh`` of a mesh of ``kind`` (None: no mesh): where its result lies, or
    the first line of the error raised."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")

    def described() -> str:
        if kind is None:
            return _placement(jax, thunk(jax, jnp))
        with jax.sharding.set_mesh(_mesh(jax, kind)):
            return _placement(jax, thunk(jax, jnp))
    return outcome(described, message=first_line)


RANK_0 = {
    "zeros": lambda jax, jnp: jnp.zeros(()),
    "ones_int": lambda jax, jnp: jnp.ones((), jnp.int32),
    "full_of_python_float": lambda jax, jnp: jnp.full((), 2.5),
    "full_of_numpy_scalar": lambda jax, jnp: jnp.full((), np.float32(2)),
    "empty": lambda jax, jnp: jnp.empty(()),
    "zeros_like_python_float": lambda jax, jnp: jnp.zeros_like(1.0),
    "ones_like_numpy_scalar": lambda jax, jnp: jnp.ones_like(np.float32(1)),
    "full_like_0d_numpy_array": lambda jax, jnp: jnp.full_like(np.array(1, np.int32), 3),
    "empty_like_python_int": lambda jax, jnp: jnp.empty_like(3),
    "zeros_like_weak_array": lambda jax, jnp: jnp.zeros_like(jnp.asarray(1.0)),
    "asarray_numpy_scalar": lambda jax, jnp: jnp.asarray(np.float32(1)),
    "array_python_int": lambda jax, jnp: jnp.array(2),
    "asarray_0d_numpy_array": lambda jax, jnp: jnp.asarray(np.array(1.0)),
    "scalar_type_constructor": lambda jax, jnp: jnp.float32(3),
    "device_put_python_float": lambda jax, jnp: jax.device_put(1.0),
    "lax_full": lambda jax, jnp: jax.lax.full((), 1.0),
    "lax_full_with_dtype": lambda jax, jnp: jax.lax.full((), 1, np.int8),
    "lax_convert_python_float": lambda jax, jnp: jax.lax.convert_element_type(1.0, np.int32),
    "sin_of_python_float": lambda jax, jnp: jnp.sin(1.0),
    "add_of_python_scalars": lambda jax, jnp: jnp.add(1.0, 2),
    "lax_add_of_numpy_scalars": lambda jax, jnp: jax.lax.add(np.float32(1), np.float32(2)),
    "sum_of_host_vector": lambda jax, jnp: jnp.sum(np.ones(3, np.float32)),
    "max_of_host_vector": lambda jax, jnp: jnp.max(np.arange(4)),
    "index_of_array": lambda jax, jnp: jnp.arange(3.0)[1],
    "weak_array_times_python_int": lambda jax, jnp: jnp.asarray(2.0) * 3,
    "dot_of_vectors": lambda jax, jnp: jnp.dot(jnp.ones(3), jnp.ones(3)),
    "grad_with_scalar_constant": lambda jax, jnp: jax.grad(lambda x: x * jnp.zeros(()) + x ** 2)(3.0),
    "jvp_tangent": lambda jax, jnp: jax.jvp(jnp.sin, (1.0,), (1.0,))[1],
    "value_of_value_and_grad": lambda jax, jnp: jax.value_and_grad(lambda x: jnp.sum(x ** 2))(
        np.ones(3, np.float32))[0],
}


def _rank_0_case(thunk, kind: str | None, jax) -> str:
    return _outcome(jax, thunk, kind)


def _committed_source(jax, name: str):
    """An array for the ``*_like`` functions: committed to device 3, or laid out over a 2x4 mesh."""
    device = jax.devices()[3]
    named = jax.sharding.NamedSharding
    spec = jax.sharding.PartitionSpec
    matrix = np.arange(8, dtype=np.float32).reshape(2, 4)
    return {
        "committed_vector": lambda: jax.device_put(np.arange(4, dtype=np.float32), device),
        "committed_scalar": lambda: jax.device_put(np.float32(2), device),
        "committed_weak_scalar": lambda: jax.device_put(2.0, device),
        "auto_mesh_split": lambda: jax.device_put(matrix, named(_mesh(jax, "auto"), spec("x"))),
        "explicit_mesh_split": lambda: jax.device_put(matrix, named(_mesh(jax, "explicit"), spec("x"))),
        "auto_mesh_replicated": lambda: jax.device_put(matrix[0], named(_mesh(jax, "auto"), spec())),
        "explicit_mesh_scalar": lambda: jax.device_put(np.float32(1), named(_mesh(jax, "explicit"), spec())),
    }[name]()


LIKE = {
    "zeros_like": lambda jax, jnp, x: jnp.zeros_like(x),
    "ones_like_with_dtype": lambda jax, jnp, x: jnp.ones_like(x, dtype=jnp.int8),
    "full_like": lambda jax, jnp, x: jnp.full_like(x, 7),
    "empty_like": lambda jax, jnp, x: jnp.empty_like(x),
    "ones_like_other_shape": lambda jax, jnp, x: jnp.ones_like(x, shape=(2,)),
    "full_like_rank_0": lambda jax, jnp, x: jnp.full_like(x, 1.5, shape=()),
    "lax_full_like_other_shape": lambda jax, jnp, x: jax.lax.full_like(x, 3, shape=(3,)),
}

SOURCES = ("committed_vector", "committed_scalar", "committed_weak_scalar", "auto_mesh_split", "explicit_mesh_split",
           "auto_mesh_replicated", "explicit_mesh_scalar")


def _like_case(source: str, like, kind: str | None):
    def case(jax):
        x = _committed_source(jax, source)  # made outside the mesh set
        return _outcome(jax, lambda jax, jnp: like(jax, jnp, x), kind)
    return case


def _other_mesh(jax, name: str, kind: str):
    """A mesh other than ``_mesh(jax, kind)``: other devices, axes or axis types."""
    devices = np.array(jax.devices())
    types = _axis_types(jax, kind)
    mesh = jax.sharding.Mesh
    return {
        "reversed_devices": lambda: mesh(devices[::-1].reshape(2, 4), ("x", "y"), axis_types=types),
        "four_devices": lambda: mesh(devices[:4].reshape(2, 2), ("x", "y"), axis_types=types),
        "other_axis_names": lambda: mesh(devices.reshape(2, 4), ("a", "b"), axis_types=types),
        "other_axis_sizes": lambda: mesh(devices.reshape(4, 2), ("x", "y"), axis_types=types),
        "other_axis_types": lambda: mesh(devices.reshape(2, 4), ("x", "y"), axis_types=tuple(
            jax.sharding.AxisType.Auto if t == jax.sharding.AxisType.Explicit else jax.sharding.AxisType.Explicit
            for t in types)),
        "same_axes_and_devices": lambda: mesh(devices.reshape(2, 4), ("x", "y"), axis_types=types),
        "one_axis": lambda: mesh(devices, ("x",), axis_types=types[:1]),
    }[name]()


def _on(jax, mesh, split: bool):
    """A NamedSharding over ``mesh``: splitting the first dimension over its first axis, or replicated."""
    spec = jax.sharding.PartitionSpec(mesh.axis_names[0]) if split else jax.sharding.PartitionSpec()
    return jax.sharding.NamedSharding(mesh, spec)


CONVERSIONS = {
    "asarray_host_matrix_split": lambda jax, jnp, mesh: jnp.asarray(np.ones((8, 1), np.float32),
                                                                    device=_on(jax, mesh, True)),
    "asarray_host_matrix_replicated": lambda jax, jnp, mesh: jnp.asarray(np.ones((2, 2), np.float32),
                                                                         device=_on(jax, mesh, False)),
    "array_of_list_split": lambda jax, jnp, mesh: jnp.array([[1.0]] * 8, device=_on(jax, mesh, True)),
    "asarray_python_scalar": lambda jax, jnp, mesh: jnp.asarray(2.0, device=_on(jax, mesh, False)),
    "asarray_uncommitted_array_split": lambda jax, jnp, mesh: jnp.asarray(jax.device_put(np.ones((8, 1), np.float32)),
                                                                          device=_on(jax, mesh, True)),
    "astype_of_host_matrix_split": lambda jax, jnp, mesh: jnp.astype(np.ones((8, 1), np.float32), jnp.int32,
                                                                     device=_on(jax, mesh, True)),
    "linspace_replicated": lambda jax, jnp, mesh: jnp.linspace(0.0, 1.0, 4, device=_on(jax, mesh, False)),
}

OTHER_MESHES = ("reversed_devices", "four_devices", "other_axis_names", "other_axis_sizes", "other_axis_types",
                "same_axes_and_devices")
# JAX 0.10.2 fails in its own implementation there (an IndivisibleError naming a shape of its own making): an array
# already on the devices split over the Auto axes of a mesh of other axis sizes
LEFT_OUT = {("asarray_uncommitted_array_split", "other_axis_sizes", "auto"),
            ("astype_of_host_matrix_split", "other_axis_sizes", "auto")}


def _conversion_case(conversion, other: str, kind: str):
    def case(jax):
        mesh = _other_mesh(jax, other, kind)
        return _outcome(jax, lambda jax, jnp: conversion(jax, jnp, mesh), kind)
    return case


CASES = {
    **{f"rank_0_{name}_{kind or 'no_mesh'}": functools.partial(_rank_0_case, thunk, kind)
       for name, thunk in RANK_0.items() for kind in (None, *MESH_KINDS)},
    **{f"like_{source}_{name}_{kind or 'no_mesh'}": _like_case(source, like, kind)
       for source in SOURCES for name, like in LIKE.items() for kind in (None, "explicit", "auto")},
    **{f"convert_{name}_{other}_{kind}": _conversion_case(conversion, other, kind)
       for name, conversion in CONVERSIONS.items() for other in OTHER_MESHES for kind in MESH_KINDS
       if (name, other, kind) not in LEFT_OUT},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "placement_golden.json")
