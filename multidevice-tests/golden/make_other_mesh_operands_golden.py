"""Write other_mesh_operands_golden.json: what jnp and lax functions do, under ``set_mesh`` of a mesh of Explicit
axes, with operands laid out over a mesh of Auto axes (the same devices), on eight CPU devices: called eagerly and
traced (``make_jaxpr``), the types of their results or JAX's ValueError, from a primitive's check of its operands'
mesh, from the sharding a function passes on from its operand's type (``full_like``'s ``broadcast_in_dim``,
``argsort``'s ``broadcasted_iota``), or, for a sort of floating keys, from its comparison when lowered. Under
``set_mesh`` of a mesh of Auto axes they compute. Recorded from the module named on the command line:

    /work/jaxpeer/bin/python multidevice-tests/golden/make_other_mesh_operands_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import in_golden, outcome

HERE = pathlib.Path(__file__).parent
VALUES = np.array([3.0, -1.0, 2.0, 0.5, -0.0, 7.0, 1.0, 4.0], np.float32)


def _meshes(jax) -> tuple:
    kinds = jax.sharding.AxisType
    return (jax.make_mesh((2, 4), ("x", "y"), axis_types=(kinds.Auto,) * 2),
            jax.make_mesh((2, 4), ("x", "y"), axis_types=(kinds.Explicit,) * 2))


def _operands(jax) -> dict:
    auto, _ = _meshes(jax)
    split = jax.sharding.NamedSharding(auto, jax.sharding.PartitionSpec("x"))
    return {"float": jax.device_put(VALUES, split), "complex": jax.device_put(VALUES * (1 - 2j), split),
            "int": jax.device_put(np.arange(8, dtype=np.int32)[::-1].copy(), split)}


def _functions(jax) -> dict:
    """Each function called from a line of this file (the line JAX's errors name, where they name one)."""
    jnp = importlib.import_module(jax.__name__ + ".numpy")
    lax = importlib.import_module(jax.__name__ + ".lax")
    return {"real": lambda x: jnp.real(x), "imag": lambda x: jnp.imag(x), "isreal": lambda x: jnp.isreal(x),
            "iscomplex": lambda x: jnp.iscomplex(x), "angle": lambda x: jnp.angle(x), "conj": lambda x: jnp.conj(x),
            "abs": lambda x: jnp.abs(x), "sort": lambda x: jnp.sort(x), "argsort": lambda x: jnp.argsort(x),
            "lax_sort": lambda x: lax.sort(x), "lexsort": lambda x: jnp.lexsort((x,)),
            "lexsort_two_keys": lambda x: jnp.lexsort((x, x)), "zeros_like": lambda x: jnp.zeros_like(x),
            "ones_like": lambda x: jnp.ones_like(x), "full_like": lambda x: jnp.full_like(x, 2),
            "empty_like": lambda x: jnp.empty_like(x), "lax_full_like": lambda x: lax.full_like(x, 0)}


def _outcome(jax, run) -> str:
    return outcome(run, message=in_golden, errors=ValueError)


def _case(jax, name: str, kind: str, how: str, mesh: str) -> str:
    f = _functions(jax)[name]
    x = _operands(jax)[kind]
    auto, explicit = _meshes(jax)
    with jax.sharding.set_mesh(explicit if mesh == "explicit" else auto):
        if how == "traced":
            return _outcome(jax, lambda: str(jax.make_jaxpr(f)(x).out_avals))
        return _outcome(jax, lambda: (lambda y: f"{jax.typeof(y)} {np.asarray(y).tolist()}")(f(x)))


CASES = {f"{name}_{kind}_{how}_{mesh}": (lambda jax, n=name, k=kind, h=how, m=mesh: _case(jax, n, k, h, m))
         for name in ("real", "imag", "isreal", "iscomplex", "angle", "conj", "abs", "sort", "argsort", "lax_sort",
                      "lexsort", "lexsort_two_keys", "zeros_like", "ones_like", "full_like", "empty_like",
                      "lax_full_like")
         for kind in ("float", "complex", "int") for how in ("eager", "traced") for mesh in ("explicit", "auto")}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "other_mesh_operands_golden.json")
