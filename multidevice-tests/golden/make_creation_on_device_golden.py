"""Write creation_on_device_golden.json: the arrays ``jnp.full``/``zeros``/``ones``/``empty``, their ``*_like``
forms, ``jnp.arange`` and ``jnp.eye`` make with ``device=`` (a device or its SingleDeviceSharding) on eight CPU
devices, outside any mesh and under ``jax.set_mesh`` (dtype, weak type, the type's mesh and spec, where the array
lies, its values), recorded from the module named on the command line.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_creation_on_device_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import failure, first_line, typed_mesh

HERE = pathlib.Path(__file__).parent
MESH_KINDS = {"explicit": ("Explicit", "Explicit"), "auto": ("Auto", "Auto")}


def _mesh(jax, kind: str):
    return typed_mesh(jax, *MESH_KINDS[kind])


CREATORS = {
    "full_of_int": lambda jnp, device: jnp.full(3, 2, device=device),
    "full_of_float": lambda jnp, device: jnp.full((2, 2), 2.5, device=device),
    "full_of_bool": lambda jnp, device: jnp.full((2,), True, device=device),
    "full_of_complex": lambda jnp, device: jnp.full((2,), 1j, device=device),
    "full_with_dtype": lambda jnp, device: jnp.full((2,), 2, dtype=jnp.float16, device=device),
    "full_of_numpy_scalar": lambda jnp, device: jnp.full((2,), np.float32(2), device=device),
    "full_of_weak_array": lambda jnp, device: jnp.full((2,), jnp.asarray(1.5), device=device),
    "full_like_of_int_array": lambda jnp, device: jnp.full_like(np.ones(2, np.int32), 2.5, device=device),
    "full_like_of_python_scalar": lambda jnp, device: jnp.full_like(3.0, 1, device=device),
    "zeros": lambda jnp, device: jnp.zeros(3, device=device),
    "ones_with_dtype": lambda jnp, device: jnp.ones(3, dtype=int, device=device),
    "empty": lambda jnp, device: jnp.empty((1, 2), device=device),
    "zeros_like_of_python_scalar": lambda jnp, device: jnp.zeros_like(2.0, device=device),
    "ones_like_of_python_int": lambda jnp, device: jnp.ones_like(2, device=device),
    "empty_like_with_dtype": lambda jnp, device: jnp.empty_like(3.0, dtype=jnp.int8, device=device),
    "arange": lambda jnp, device: jnp.arange(3, device=device),
    # computed (under set_mesh typed over its mesh), then put on the device: a device keeps that type
    "eye": lambda jnp, device: jnp.eye(2, device=device),
    "eye_rectangular_with_k_and_dtype": lambda jnp, device: jnp.eye(2, 3, k=1, dtype=jnp.int8, device=device),
}


def _case(creator, kind: str | None, on_sharding: bool):
    def case(jax):
        jnp = importlib.import_module(jax.__name__ + ".numpy")
        device = jax.devices()[3]
        device = jax.sharding.SingleDeviceSharding(device) if on_sharding else device
        try:
            if kind is None:
                out = creator(jnp, device)
            else:
                with jax.sharding.set_mesh(_mesh(jax, kind)):
                    out = creator(jnp, device)
        except Exception as error:  # the type and message are what is compared
            return failure(error, first_line)
        aval = jax.typeof(out)
        return (f"{aval.str_short()} weak={aval.weak_type} mesh={aval.sharding.mesh.axis_names} "
                f"{aval.sharding.spec} {out.sharding} {np.asarray(out).tolist()}")
    return case


CASES = {f"{name}_{'sharding' if on_sharding else 'device'}_{kind or 'no_mesh'}": _case(creator, kind, on_sharding)
         for name, creator in CREATORS.items() for kind in (None, *MESH_KINDS) for on_sharding in (False, True)}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "creation_on_device_golden.json")
