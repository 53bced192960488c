"""Every public name of JAX 0.10.2's ``jax`` namespace, and of the submodules a program imports, exists in
``jaxle`` as the same kind of object.

The lists are data generated from JAX (golden/make_jax_names.py: jax_names.json).
"""

import functools
import inspect
import json
import pathlib

import pytest

import jaxle

NAMES = json.loads((pathlib.Path(__file__).parent / "golden" / "jax_names.json").read_text())

MULTI_DEVICE = "multi-device work"
REFS = "mutable array references (jax.ref) are not implemented"

# Names whose subsystem is its own piece of work, per namespace ("" is the top level); each says why it waits.
LATER: dict[str, dict[str, str]] = {
    "": {
        **dict.fromkeys(["NamedSharding", "P", "Shard", "auto_pcast", "distributed", "make_array_from_callback",
                         "make_array_from_process_local_data", "make_array_from_single_device_arrays", "make_mesh",
                         "memory", "pmap", "remove_size_one_mesh_axis_from_type", "reshard", "set_mesh", "shard_map",
                         "sharding", "smap"], MULTI_DEVICE),
        **dict.fromkeys(["Ref", "ad", "ds", "empty_ref", "free_ref", "freeze", "new_ref", "ref"], REFS),
        "api_util": "helpers over JAX's internals, for libraries built on them",
        "interpreters": "JAX's internal tracing machinery",
        "lib": "jaxlib's internals",
    },
    "ad_checkpoint": {
        **dict.fromkeys(["Offloadable", "Recompute", "Saveable"], "host-offloading checkpoint policies"),
        "print_saved_residuals": "reporting the residuals a checkpoint saves",
    },
    "core": {
        **dict.fromkeys(["max_dim", "min_dim"], "shape polymorphism (symbolic dimensions)"),
    },
    "custom_derivatives": {
        **dict.fromkeys(["linear_call", "remat_opt_p"],
                        "custom_derivatives internals beyond custom_jvp/custom_vjp/custom_gradient"),
    },
    "debug": dict.fromkeys(["inspect_array_sharding", "visualize_array_sharding", "visualize_sharding"], MULTI_DEVICE),
    "errors": {
        "InconclusiveDimensionOperation": "shape polymorphism (symbolic dimensions)",
        "JaxprTypeError": "jaxpr type checking (jax_enable_checks)",
    },
    "experimental": {
        **dict.fromkeys(["EArray", "cur_qdd", "primal_tangent_dtype"], "extended-dtype and dynamic-data internals"),
        "compilation_cache": "the persistent compilation cache is not implemented",
    },
    "export": {
        **dict.fromkeys(["SymbolicScope", "is_symbolic_dim", "symbolic_args_specs", "symbolic_shape"],
                        "shape polymorphism (symbolic dimensions)"),
        **dict.fromkeys(["DisabledSafetyCheck", "register_namedtuple_serialization",
                         "register_pytree_node_serialization"],
                        "JAX's serialization format's registries and safety checks (jaxle has its own format)"),
    },
    "ffi": {
        **dict.fromkeys(["build_ffi_lowering_function", "ffi_lowering"],
                        "JAX's MLIR lowering-rule API (jaxle lowers ffi_call itself; there are no MLIR rules)"),
        "register_ffi_type": "typed-FFI user types with a TypeRegistration (register_ffi_type_id covers type ids)",
    },
    "stages": dict.fromkeys(["ArgInfo", "CompilerOptions", "Wrapped"], "typing helpers of the stages API"),
    "nn": {
        "scaled_dot_general": "quantizes both operands per BlockScaleConfig (a custom_vjp over scaled_matmul); "
                              "not written yet",
    },
}


def _namespace(submodule: str):
    return functools.reduce(getattr, submodule.split("."), jaxle) if submodule else jaxle


def _provided(submodule: str) -> bool:
    return submodule not in LATER[""]


CASES = [(sub, name) for sub, names in NAMES.items() if _provided(sub) for name in names
         if name not in LATER.get(sub, {})]


@pytest.mark.parametrize("submodule,name", CASES, ids=[f"{s or 'jax'}.{n}" for s, n in CASES])
def test_jaxle_has_name(submodule, name):
    namespace = _namespace(submodule)
    assert hasattr(namespace, name), f"jaxle{'.' + submodule if submodule else ''} lacks {name}"
    value = getattr(namespace, name)
    expected = NAMES[submodule][name]
    if expected == "module":
        assert inspect.ismodule(value)
    elif expected == "class":
        assert inspect.isclass(value)
    elif expected == "function":
        assert callable(value) and not inspect.ismodule(value)
    else:  # object or alias: a value, never a module
        assert not inspect.ismodule(value)


def test_submodules_import_by_name():
    import importlib

    for submodule in NAMES:
        if submodule and _provided(submodule):
            assert importlib.import_module(f"jaxle.{submodule}") is _namespace(submodule)


def test_later_names_leave_the_list_once_they_land():
    for submodule, names in LATER.items():
        assert set(names) <= set(NAMES[submodule])
        if _provided(submodule):
            for name in names:
                assert not hasattr(_namespace(submodule), name), f"{name} has landed: remove it from LATER"
