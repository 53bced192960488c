"""Write context_mesh_programs_golden.json: jitted functions under ``jax.set_mesh`` of Explicit, Auto and mixed axes
on eight CPU devices (and outside it, given an argument laid out over a mesh) whose arguments are host values,
arrays made elsewhere, scalars, or none, recorded from the module named on the command line: the head of the
lowered text (the module's partitions, its meshes and ``main``'s signature, the whole text for a few), the
compiled input and output shardings, and where each result lies with its type, or JAX's error; and, outside any
mesh, the head of the lowered text and the compiled input shardings of a function given jit's shardings for some
of its arguments.

    /work/jaxpeer/bin/python multidevice-tests/golden/make_context_mesh_programs_golden.py jax
"""

import importlib
import pathlib

import golden_main
import numpy as np
from golden_cases import MESH_KINDS, failure, first_line, typed_mesh

HERE = pathlib.Path(__file__).parent


def _mesh(jax, kind: str):
    return typed_mesh(jax, *MESH_KINDS[kind])


def _on_mesh(jax, kind: str, value, *spec):
    return jax.device_put(value, jax.sharding.NamedSharding(_mesh(jax, kind), jax.sharding.PartitionSpec(*spec)))


def _scalar_from_callback(jax, kind: str):
    sharding = jax.sharding.NamedSharding(_mesh(jax, kind), jax.sharding.PartitionSpec())
    return jax.make_array_from_callback((), sharding, lambda index: np.array(2.0, np.float32))


# Each makes the arguments (outside any mesh) for a mesh of ``kind``.
ARGUMENTS = {
    "host_matrix_and_python_float": lambda jax, jnp, kind: (np.arange(16.0, dtype=np.float32).reshape(4, 4), 1.0),
    "numpy_scalar": lambda jax, jnp, kind: (np.float32(1),),
    "numpy_0d_array": lambda jax, jnp, kind: (np.array(1.0, np.float32),),
    "python_int": lambda jax, jnp, kind: (3,),
    "host_vector": lambda jax, jnp, kind: (np.ones(3, np.float32),),
    "uncommitted_vector": lambda jax, jnp, kind: (jnp.ones(3),),
    "uncommitted_weak_scalar": lambda jax, jnp, kind: (jnp.asarray(1.5),),
    "committed_to_one_device": lambda jax, jnp, kind: (jax.device_put(np.ones(3, np.float32), jax.devices()[0]),),
    "none": lambda jax, jnp, kind: (),
    "split_over_mesh_with_scalar_and_vector": lambda jax, jnp, kind: (
        _on_mesh(jax, kind, np.ones((4, 4), np.float32), "x"), 1.0, np.ones(3, np.float32)),
    "scalar_over_mesh_and_python_float": lambda jax, jnp, kind: (_on_mesh(jax, kind, np.float32(2)), 2.0),
    "scalar_from_callback": lambda jax, jnp, kind: (_scalar_from_callback(jax, kind),),
}

FUNCTIONS = {
    "each_doubled_and_zeros": lambda jnp: lambda *a: [x * 2 + 1 for x in a] + [jnp.zeros(2)],
    "identity": lambda jnp: lambda *a: a,
    "sum_of_each": lambda jnp: lambda *a: [jnp.sum(x) for x in a],
}

# the whole lowered text of these
WHOLE_TEXT = {("each_doubled_and_zeros", "host_matrix_and_python_float"),
              ("each_doubled_and_zeros", "split_over_mesh_with_scalar_and_vector")}


def _head(text: str) -> str:
    """The lines of a lowered module that say where it runs: its partitions, meshes and ``main``'s signature."""
    return "\n".join(line for line in text.splitlines()
                     if line.startswith("module ") or "sdy.mesh @" in line or "func.func public @main" in line)


def _placement(jax, array) -> str:
    aval = jax.typeof(array)
    return (f"{array.sharding} committed={array.committed} {aval.str_short()} weak={aval.weak_type} "
            f"{aval.sharding.spec} mesh={aval.sharding.mesh.axis_names}")


# jit's shardings (over a mesh of Auto axes) for a function of a vector split over the mesh and a Python scalar
GIVEN_SHARDINGS = {
    "in_sharding_and_none": lambda jax, named: {"in_shardings": (named("x"), None)},
    "out_sharding_only": lambda jax, named: {"out_shardings": named("x")},
    "both_in_shardings": lambda jax, named: {"in_shardings": (named("x"), named())},
}


def _given_case(given: str):
    def case(jax):
        def named(*spec):
            return jax.sharding.NamedSharding(_mesh(jax, "auto"), jax.sharding.PartitionSpec(*spec))

        jitted = jax.jit(lambda x, s: x * s, **GIVEN_SHARDINGS[given](jax, named))
        args = (np.arange(8.0, dtype=np.float32), 2.0)
        return {"lowered": _head(jitted.lower(*args).as_text()),
                "compiled": str(jitted.lower(*args).compile().input_shardings)}
    return case


def _case(function: str, arguments: str, kind: str | None):
    def case(jax):
        jnp = importlib.import_module(jax.__name__ + ".numpy")
        args = ARGUMENTS[arguments](jax, jnp, kind or "auto")
        jitted = jax.jit(FUNCTIONS[function](jnp))

        def run() -> dict:
            outcome = {}
            try:
                text = jitted.lower(*args).as_text()
                outcome["lowered"] = text if (function, arguments) in WHOLE_TEXT else _head(text)
                compiled = jitted.lower(*args).compile()
                outcome["compiled"] = f"{compiled.input_shardings} {compiled.output_shardings}"
                outcome["results"] = [_placement(jax, r) for r in jax.tree.leaves(jitted(*args))]
            except Exception as error:  # the type and message are what is compared
                outcome["error"] = failure(error, first_line)
            return outcome

        if kind is None:
            return run()
        with jax.sharding.set_mesh(_mesh(jax, kind)):
            return run()
    return case


# the arguments each function is given (the first every one)
PASSED = {"each_doubled_and_zeros": tuple(ARGUMENTS),
          "identity": ("host_matrix_and_python_float", "uncommitted_vector", "python_int",
                       "split_over_mesh_with_scalar_and_vector"),
          "sum_of_each": ("host_matrix_and_python_float", "uncommitted_vector", "scalar_over_mesh_and_python_float")}

CASES = {
    **{f"{function}_of_{arguments}_{kind}": _case(function, arguments, kind)
       for function, passed in PASSED.items() for arguments in passed for kind in MESH_KINDS},
    # outside any mesh, the mesh is an argument's
    **{f"each_doubled_and_zeros_of_{arguments}_no_mesh": _case("each_doubled_and_zeros", arguments, None)
       for arguments in ("split_over_mesh_with_scalar_and_vector", "scalar_over_mesh_and_python_float",
                         "scalar_from_callback")},
    **{f"given_{given}_no_mesh": _given_case(given) for given in GIVEN_SHARDINGS},
}


def run(module) -> dict:
    return {name: case(module) for name, case in CASES.items()}


if __name__ == "__main__":
    golden_main.main(run, HERE / "context_mesh_programs_golden.json")
