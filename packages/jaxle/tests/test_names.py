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
import jaxle.example_libraries  # noqa: F401  (submodules that, as in JAX, load only when imported)
import jaxle.experimental.layout  # noqa: F401
import jaxle.experimental.multihost_utils  # noqa: F401
import jaxle.experimental.sparse  # noqa: F401

NAMES = json.loads((pathlib.Path(__file__).parent / "golden" / "jax_names.json").read_text())

MLIR_BINDINGS = "MLIR's Python bindings: jaxle writes StableHLO as text (rules come from mlir.lower_fun)"
CALLS = "jaxle stages calls as jit equations; there is no separate call primitive"

# Names whose subsystem is its own piece of work, per namespace ("" is the top level); each says why it waits.
LATER: dict[str, dict[str, str]] = {
    "": {},
    "extend": {
        **dict.fromkeys(["lowering", "mlir", "xla"], MLIR_BINDINGS),
        "pallas": "Pallas kernels are not implemented",
    },
    "extend.core": {
        **dict.fromkeys(["CallPrimitive", "call_impl"], CALLS),
        **dict.fromkeys(["TraceTag", "get_opaque_trace_state", "nonempty_axis_env_DO_NOT_USE",
                         "set_current_trace", "take_current_trace", "unsafe_am_i_under_a_jit_DO_NOT_USE",
                         "unsafe_am_i_under_a_vmap_DO_NOT_USE", "unsafe_get_axis_names_DO_NOT_USE"],
                        "JAX's trace-state internals (jaxle's traces are its own)"),
    },
    "extend.backend": {
        **dict.fromkeys(["clear_backends", "ifrt_proxy", "register_backend_cache", "register_backend_factory"],
                        "jaxle starts jaxlib's clients itself; they cannot be replaced or restarted"),
        "get_compile_options": "jaxle compiles with jaxlib's default options",
    },
    "interpreters": {
        **dict.fromkeys(["os", "traceback_util"], "modules JAX's package imports for itself, not its API"),
    },
    "interpreters.ad": dict.fromkeys(["jvp", "linearize"], "transformations of WrappedFuns in JAX's internal form"),
    "interpreters.batching": {
        "fancy_primitive_batchers": "batching rules given JAX's internal axis data",
        **dict.fromkeys(["register_vmappable", "unregister_vmappable"], "custom vmappable container types"),
    },
    "interpreters.partial_eval": {
        **dict.fromkeys(["JaxprTracer", "custom_partial_eval_rules", "partial_eval_jaxpr_custom_rules"],
                        "JAX's partial-evaluation internals (jaxle splits jaxprs its own way)"),
        **dict.fromkeys(["dce_jaxpr_call_rule", "dce_jaxpr_closed_call_rule", "dce_jaxpr_consts", "dce_rules"],
                        "dead-code rules in JAX's internal form"),
    },
    "interpreters.mlir": dict.fromkeys(
        ["AxisContext", "ConstantHandler", "DEVICE_TO_DEVICE_TYPE", "LoweringParameters", "LoweringResult", "Mesh",
         "MeshAxisName", "ModuleContext", "RECV_FROM_HOST_TYPE", "SEND_TO_HOST_TYPE", "SPMDAxisContext",
         "ShapePolyLoweringState", "ShardingContext", "Token", "TokenSet", "aval_to_ir_type", "aval_to_ir_types",
         "core_call_lowering", "dense_int_array", "dense_int_elements", "dtype_to_ir_type",
         "flatten_ir_types", "flatten_ir_values", "i32_attr", "i64_attr", "ir", "ir_attribute", "ir_constant",
         "ir_constants", "ir_tree_registry", "ir_type_handlers", "jaxpr_subcomp", "lower_jaxpr_to_fun",
         "lower_jaxpr_to_module", "lowerable_effects", "make_ir_context", "merge_mlir_modules", "module_to_bytecode",
         "module_to_string", "register_constant_handler", "shape_tensor", "token_type",
         "unflatten_ir_values_like_types"], MLIR_BINDINGS),
    "experimental.multihost_utils": {
        **dict.fromkeys(["global_array_to_host_local_array_impl", "gtl_abstract_eval",
                         "host_local_array_to_global_array_impl", "ltg_abstract_eval", "ltg_batcher"],
                        "the rules of the primitives behind the host-local/global conversions"),
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
