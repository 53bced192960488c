"""Write mesh_conversions_golden.json: values converted to arrays under ``jax.set_mesh`` of Explicit and Auto axes on
eight CPU devices, recorded from the module named on the command line (where the result lies, with its type, or
JAX's error):

- ``jnp.asarray``/``jnp.array`` of NumPy arrays and of Arrays with and without their own dtype asked for (a NumPy
  array of that dtype stays uncommitted on the default device, an Array is returned where it lies), and
  ``jnp.full``/``jnp.full_like`` filled with such arrays;
- ``jit(f).lower(...)`` (and ``trace(...).lower()``) of arguments committed to one device, refused when lowered;
- ``jit`` given ``device=`` or ``backend=``, refused when called, traced or lowered;
- filling functions (and other constructors) given ``device=`` a NamedSharding whose axes do not divide the shape
  (JAX's ``IndivisibleError``, a ``ValueError``, or the type's ``ValueError``).

    /work/jaxpeer/bin/python multidevice-tests/golden/make_mesh_conversions_golden.py jax
"""

import functools
import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import first_line, outcome, typed_mesh

HERE = pathlib.Path(__file__).parent
MESH_KINDS = ("Explicit", "Auto")


def _placement(jax, array) -> str:
    """The array's sharding and committedness, its type (spec, weak type) and its value."""
    aval = jax.typeof(array)
    return (f"{array.sharding} committed={array.committed} {aval.str_short()} weak={aval.weak_type} "
            f"{aval.sharding.spec} {np.asarray(array).tolist()}")


def _outcome(jax, thunk, kind: str) -> str:
    """``thunk(jax, jnp)`` run under ``set_mesh`` of a mesh of ``kind``: where its result lies (a type's name for
    what is not an array), or the type and first line of the error raised."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")

    def described() -> str:
        with jax.sharding.set_mesh(typed_mesh(jax, kind)):
            out = thunk(jax, jnp)
            return _placement(jax, out) if hasattr(out, "sharding") else type(out).__name__
    return outcome(described, message=first_line)


def _committed(jax, value, device: int = 3):
    return jax.device_put(value, jax.devices()[device])


CONVERSIONS = {
    "asarray_own_dtype": lambda jax, jnp: jnp.asarray(np.arange(4, dtype=np.float32), dtype=np.float32),
    "asarray_own_dtype_by_name": lambda jax, jnp: jnp.asarray(np.arange(4, dtype=np.int8), dtype="int8"),
    "asarray_own_dtype_python_type": lambda jax, jnp: jnp.asarray(np.arange(4, dtype=np.float32), dtype=float),
    "asarray_own_dtype_bool": lambda jax, jnp: jnp.asarray(np.array([True, False]), dtype=bool),
    "asarray_own_dtype_0d": lambda jax, jnp: jnp.asarray(np.array(1.5, np.float32), dtype=np.float32),
    "asarray_own_dtype_strided": lambda jax, jnp: jnp.asarray(np.arange(8, dtype=np.float32)[::2], dtype=np.float32),
    "asarray_own_dtype_no_copy": lambda jax, jnp: jnp.asarray(np.ones(2, np.int32), dtype=np.int32, copy=False),
    "asarray_own_dtype_copied": lambda jax, jnp: jnp.asarray(np.ones(2, np.int32), dtype=np.int32, copy=True),
    "asarray_without_dtype": lambda jax, jnp: jnp.asarray(np.arange(4, dtype=np.float32)),
    "asarray_other_dtype": lambda jax, jnp: jnp.asarray(np.arange(4, dtype=np.float32), dtype=np.int32),
    "asarray_numpy_scalar_own_dtype": lambda jax, jnp: jnp.asarray(np.float32(2), dtype=np.float32),
    "asarray_list_with_dtype": lambda jax, jnp: jnp.asarray([1.0, 2.0], dtype=np.float32),
    "array_own_dtype": lambda jax, jnp: jnp.array(np.arange(4, dtype=np.float32), dtype=np.float32),
    "array_own_dtype_no_copy": lambda jax, jnp: jnp.array(np.arange(4, dtype=np.float32), dtype=np.float32,
                                                          copy=False),
    "array_own_dtype_no_copy_ndmin": lambda jax, jnp: jnp.array(np.arange(4, dtype=np.float32), dtype=np.float32,
                                                                copy=False, ndmin=2),
    "asarray_uncommitted_array_own_dtype": lambda jax, jnp: jnp.asarray(jax.device_put(np.ones(2, np.float32)),
                                                                        dtype=np.float32),
    "asarray_committed_array_own_dtype": lambda jax, jnp: jnp.asarray(_committed(jax, np.ones(2, np.float32)),
                                                                      dtype=np.float32),
    "asarray_weak_array_strong_dtype": lambda jax, jnp: jnp.asarray(jax.device_put(1.5), dtype=np.float32),
    "full_like_filled_with_array_of_own_dtype": lambda jax, jnp: jnp.full_like(jnp.zeros(4), np.ones(4, np.float32)),
    "full_like_filled_with_array_of_other_dtype": lambda jax, jnp: jnp.full_like(jnp.zeros(4), np.ones(4, np.int32)),
    "full_like_of_host_array_filled_with_array": lambda jax, jnp: jnp.full_like(np.zeros(4, np.int32),
                                                                                np.arange(4, dtype=np.int32)),
    "full_like_filled_with_broadcast_array": lambda jax, jnp: jnp.full_like(jnp.zeros((2, 4)),
                                                                            np.ones(4, np.float32)),
    "full_like_filled_with_committed_array": lambda jax, jnp: jnp.full_like(jnp.zeros(2),
                                                                            _committed(jax, np.ones(2, np.float32))),
    "full_filled_with_array_and_its_dtype": lambda jax, jnp: jnp.full((4,), np.ones(4, np.float32), np.float32),
    "full_filled_with_array": lambda jax, jnp: jnp.full((4,), np.ones(4, np.float32)),
}



def _doubled(jax, **jit_options):
    return jax.jit(lambda x: x * 2, **jit_options)


def _one_device_sharding(jax):
    return jax.sharding.SingleDeviceSharding(jax.devices()[3])


LOWERINGS = {
    "lower_committed": lambda jax, jnp: _doubled(jax).lower(_committed(jax, np.ones(8, np.float32))),
    "lower_committed_to_default_device": lambda jax, jnp: _doubled(jax).lower(
        _committed(jax, np.ones(8, np.float32), 0)),
    "lower_committed_scalar": lambda jax, jnp: _doubled(jax).lower(_committed(jax, np.float32(1), 2)),
    "lower_uncommitted": lambda jax, jnp: _doubled(jax).lower(jax.device_put(np.ones(8, np.float32))),
    "trace_then_lower_committed": lambda jax, jnp: _doubled(jax).trace(_committed(jax, np.ones(8, np.float32))).lower(),
    "trace_committed": lambda jax, jnp: _doubled(jax).trace(_committed(jax, np.ones(8, np.float32))),
    "lower_then_compile_committed": lambda jax, jnp: _doubled(jax).lower(
        _committed(jax, np.ones(8, np.float32))).compile(),
    "lower_second_argument_committed": lambda jax, jnp: jax.jit(lambda x, y: x + y).lower(
        np.ones(8, np.float32), _committed(jax, np.ones(8, np.float32))),
    "lower_keyword_argument_committed": lambda jax, jnp: jax.jit(lambda x, y: x + y).lower(
        np.ones(8, np.float32), y=_committed(jax, np.ones(8, np.float32))),
    "lower_committed_leaf_of_pytree": lambda jax, jnp: jax.jit(lambda d: d["a"] + d["b"]).lower(
        {"a": np.ones(8, np.float32), "b": _committed(jax, np.ones(8, np.float32))}),
    "lower_committed_beside_static": lambda jax, jnp: jax.jit(lambda x, n: x * n, static_argnums=1).lower(
        _committed(jax, np.ones(8, np.float32)), 2),
    "lower_shape_dtype_struct_on_one_device": lambda jax, jnp: _doubled(jax).lower(
        jax.ShapeDtypeStruct((8,), np.float32, sharding=_one_device_sharding(jax))),
    "lower_in_sharding_on_one_device": lambda jax, jnp: _doubled(jax, in_shardings=_one_device_sharding(jax)).lower(
        _committed(jax, np.ones(8, np.float32))),
}



def _pinned_jit_used(use: str, option: str, jax, jnp):
    """``jit`` given a device or a backend (``option``), called, lowered, traced or shape-evaluated (``use``)."""
    pinned = jax.jit(lambda x: x * 2, **{option: jax.devices()[3] if option == "device" else "cpu"})
    return getattr(pinned, use)(np.ones(8, np.float32))


# refused under set_mesh however it is used
PINNED = {f"{use}_with_jit_{option}": functools.partial(_pinned_jit_used, use, option)
          for use in ("__call__", "lower", "trace", "eval_shape") for option in ("device", "backend")}


def _split(jax, *spec):
    """A NamedSharding over the mesh set (of the axis types set) splitting dimensions over ``spec``'s axes."""
    return jax.sharding.NamedSharding(jax.sharding.get_mesh(), jax.sharding.PartitionSpec(*spec))


INDIVISIBLE = {
    "zeros": lambda jax, jnp: jnp.zeros((3,), device=_split(jax, "y")),
    "ones_of_rank_2": lambda jax, jnp: jnp.ones((3, 2), device=_split(jax, "x", "y")),
    "full": lambda jax, jnp: jnp.full((6,), 2.0, device=_split(jax, "y")),
    "empty": lambda jax, jnp: jnp.empty((6,), device=_split(jax, "y")),
    "zeros_over_two_axes": lambda jax, jnp: jnp.zeros((4,), device=_split(jax, ("x", "y"))),
    "zeros_like": lambda jax, jnp: jnp.zeros_like(np.ones(6, np.float32), device=_split(jax, "y")),
    "full_like": lambda jax, jnp: jnp.full_like(np.ones(6, np.float32), 3, device=_split(jax, "y")),
    "ones_like_other_shape": lambda jax, jnp: jnp.ones_like(np.ones(8, np.float32), shape=(2,),
                                                            device=_split(jax, "y")),
    "arange": lambda jax, jnp: jnp.arange(6, device=_split(jax, "y")),
    "eye": lambda jax, jnp: jnp.eye(3, device=_split(jax, "y")),
    "asarray": lambda jax, jnp: jnp.asarray(np.ones(6, np.float32), device=_split(jax, "y")),
    "device_put": lambda jax, jnp: jax.device_put(np.ones(6, np.float32), _split(jax, "y")),
    "zeros_dividing": lambda jax, jnp: jnp.zeros((8,), device=_split(jax, "y")),
}

CASES = {f"{prefix}{name}_{kind.lower()}": (thunk, kind)
         for prefix, group in (("", CONVERSIONS), ("", LOWERINGS), ("indivisible_", INDIVISIBLE), ("", PINNED))
         for name, thunk in group.items() for kind in MESH_KINDS}


def run(module) -> dict:
    return {name: _outcome(module, thunk, kind) for name, (thunk, kind) in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "mesh_conversions_golden.json")
