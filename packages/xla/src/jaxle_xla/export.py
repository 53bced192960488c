"""``jax.export``: a jitted function saved as StableHLO, to be called (or compiled elsewhere) later.

``export(jit_f)(*args)`` traces and lowers ``jit_f`` for the current platform and keeps the module as a
StableHLO portable artifact (versioned bytecode) beside its calling signature: an ``Exported``.
``Exported.call`` runs it on arguments of that signature, eagerly or inside other transformations, where the
``call_exported`` primitive is lowered by writing the module's functions into the caller's module.
``serialize``/``deserialize`` round-trip an ``Exported`` through bytes (jaxle's own format).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes, shape_poly
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.jit import result_names
from jaxle_tree.equality_errors import equality_errors
from jaxle_xla import _jaxlib
from jaxle_xla.clients import default_backend
from jaxle_xla.executable import Program, kept_arg_names
from jaxle_xla.export_trees import (
    register_namedtuple_serialization,
    register_pytree_node_serialization,
    treedef_from_data,
    treedef_to_data,
)
from jaxle_xla.lowering.context import LoweringContext, Value, tensor_type
from jaxle_xla.lowering.module import register_lowering, symbol_name

__all__ = ["DisabledSafetyCheck", "Exported", "call_exported_p", "default_export_platform", "deserialize", "export",
           "maximum_supported_calling_convention_version", "minimum_supported_calling_convention_version",
           "register_namedtuple_serialization", "register_pytree_node_serialization"]

# The calling conventions of JAX 0.10.2's exports; jaxle writes the newest (no platform index or tokens for
# functions without effects).
minimum_supported_calling_convention_version = 9
maximum_supported_calling_convention_version = 10
_FORMAT = b"jaxle.export/2\n"


class DisabledSafetyCheck:
    """A safety check of ``export`` (or of calling an ``Exported``) to skip: made by ``platform()`` or
    ``custom_call(target_name)``, passed in ``export(..., disabled_checks=[...])``."""

    def __init__(self, name: str):
        self._name = name

    @classmethod
    def platform(cls) -> DisabledSafetyCheck:
        """Allow calling the exported function on a platform other than the one it was exported for."""
        return cls("platform")

    @classmethod
    def custom_call(cls, target_name: str) -> DisabledSafetyCheck:
        """Allow exporting a call of the custom-call target ``target_name``, whose compatibility over time no one
        guarantees (an ``ffi_call`` of a user's kernel)."""
        return cls(f"custom_call:{target_name}")

    def is_custom_call(self) -> str | None:
        """The target this check allows, or None when it is not a custom-call check."""
        return self._name[len("custom_call:"):] if self._name.startswith("custom_call:") else None

    def __str__(self) -> str:
        return self._name

    __repr__ = __str__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DisabledSafetyCheck) and self._name == other._name

    def __hash__(self) -> int:
        return hash(self._name)


def default_export_platform() -> str:
    """The platform ``export`` lowers for by default: the default backend's."""
    return default_backend()


@dataclass(frozen=True, eq=False)
class Exported:
    """A lowered function and its calling signature (flat ``in_avals``/``out_avals`` and their pytrees)."""

    fun_name: str
    in_tree: Any
    in_avals: tuple[ShapedArray, ...]
    out_tree: Any
    out_avals: tuple[ShapedArray, ...]
    in_shardings_hlo: tuple[None, ...]
    out_shardings_hlo: tuple[None, ...]
    nr_devices: int
    platforms: tuple[str, ...]
    ordered_effects: tuple
    unordered_effects: tuple
    disabled_safety_checks: tuple
    mlir_module_serialized: bytes
    calling_convention_version: int
    module_kept_var_idx: tuple[int, ...]
    uses_global_constants: bool

    def __str__(self) -> str:  # as JAX prints it in jaxprs
        return f"Exported(fun_name={self.fun_name}, ...)"

    def mlir_module(self) -> str:
        """The StableHLO module, as text, with its locations."""
        with _jaxlib._mlir_context():
            return _jaxlib.deserialize_portable(self.mlir_module_serialized).operation.get_asm(enable_debug_info=True)

    def has_vjp(self) -> bool:
        """Whether a derivative was exported with the function: never in jaxle."""
        return False

    def serialize(self, vjp_order: int = 0) -> bytearray:
        """The exported function as bytes, for ``deserialize`` (``vjp_order`` > 0 is refused: no derivatives are
        exported)."""
        if vjp_order:
            raise ValueError(f"serialize(vjp_order={vjp_order}): jaxle exports no derivatives")
        header = {"fun_name": self.fun_name, "platforms": list(self.platforms), "nr_devices": self.nr_devices,
                  "calling_convention_version": self.calling_convention_version,
                  "module_kept_var_idx": list(self.module_kept_var_idx),
                  "constraints": list(_scope_constraints(self.in_avals)),
                  "in_avals": [_aval_record(a) for a in self.in_avals],
                  "out_avals": [_aval_record(a) for a in self.out_avals],
                  "in_tree": treedef_to_data(self.in_tree), "out_tree": treedef_to_data(self.out_tree),
                  "disabled_checks": [str(check) for check in self.disabled_safety_checks]}
        parts = [json.dumps(header).encode(), self.mlir_module_serialized]
        blob = bytearray(_FORMAT)
        for part in parts:
            blob += len(part).to_bytes(8, "little") + part
        return blob

    def call(self, *args: Any, **kwargs: Any) -> Any:
        """Run the exported function on arguments of the signature it was exported with."""
        flat, in_tree = tree.tree_flatten((args, kwargs))
        _check_call(self, flat, in_tree)
        outs = call_exported_p.bind(*flat, exported=self)
        return tree.tree_unflatten(self.out_tree, outs)


def _aval_record(aval: ShapedArray) -> list:
    """An aval as JSON: symbolic dimensions as their text (``2*b``), parsed back in one scope."""
    shape = [d if type(d) is int else str(d) for d in aval.shape]
    return [shape, np.dtype(aval.dtype).name, aval.weak_type]


def _aval_from_record(record: Sequence, scope: shape_poly.SymbolicScope) -> ShapedArray:
    shape, dtype, weak_type = record
    if not all(type(d) is int for d in shape):
        shape = shape_poly.symbolic_shape(", ".join(map(str, shape)) + ",", scope=scope)
    return ShapedArray(tuple(shape), dtypes.dtype(dtype, canonicalize=False), weak_type=weak_type)


def _scope_constraints(avals: Sequence[ShapedArray]) -> tuple[str, ...]:
    """The constraints of the scope of the avals' symbolic dimensions (none without any)."""
    for aval in avals:
        for d in aval.shape:
            if shape_poly.is_symbolic_dim(d):
                return d.scope._constraints_str
    return ()


def _is_polymorphic(avals: Sequence[ShapedArray]) -> bool:
    return any(shape_poly.is_symbolic_dim(d) for a in avals for d in a.shape)


def deserialize(blob: bytearray | bytes) -> Exported:
    """The ``Exported`` that ``Exported.serialize`` wrote (its pytrees' custom node types registered by the names
    they were serialized with)."""
    blob = bytes(blob)
    if not blob.startswith(_FORMAT):
        raise ValueError("Not a function exported by jaxle's Exported.serialize")
    parts, at = [], len(_FORMAT)
    for _ in range(2):
        size = int.from_bytes(blob[at:at + 8], "little")
        parts.append(blob[at + 8:at + 8 + size])
        at += 8 + size
    header = json.loads(parts[0])
    scope = shape_poly.SymbolicScope(header.get("constraints", ()))
    in_avals = tuple(_aval_from_record(record, scope) for record in header["in_avals"])
    out_avals = tuple(_aval_from_record(record, scope) for record in header["out_avals"])
    disabled = tuple(DisabledSafetyCheck(name) for name in header["disabled_checks"])
    return Exported(header["fun_name"], treedef_from_data(header["in_tree"]), in_avals,
                    treedef_from_data(header["out_tree"]), out_avals, (None,) * len(in_avals),
                    (None,) * len(out_avals), header["nr_devices"], tuple(header["platforms"]), (), (), disabled,
                    parts[1], header["calling_convention_version"], tuple(header["module_kept_var_idx"]),
                    _is_polymorphic(in_avals))


def export(fun_jit: Any, *, platforms: Sequence[str] | None = None,
           disabled_checks: Sequence[Any] = ()) -> Callable[..., Exported]:
    """A function that, called with example arguments (Arrays or ``ShapeDtypeStruct``s), exports ``fun_jit`` (a
    ``jit``-wrapped function) for them. ``platforms`` must name the current platform only."""
    if not hasattr(fun_jit, "trace"):
        raise ValueError(f"Function to be exported must be the result of `jit` but is: {fun_jit}")
    current = default_export_platform()
    platforms = tuple(platforms) if platforms is not None else (current,)
    if platforms != (current,):
        raise ValueError(f"jaxle exports for the current platform only ('{current}'), not for {platforms}")

    allowed_targets = {target for check in disabled_checks if (target := check.is_custom_call()) is not None}

    def do_export(*args: Any, **kwargs: Any) -> Exported:
        traced = fun_jit.trace(*args, **kwargs)
        closed = traced.jaxpr
        name = fun_jit.__name__
        # A polymorphic module keeps every argument: the dimension variables are read from their shapes.
        # located, as JAX exports it (its arguments named), and saying whether it uses shape polymorphism
        program = Program(closed, name, (), keep_unused=_is_polymorphic(closed.in_avals), hoist=False,
                          result_names=result_names(traced), locations=True)
        if program.host_callbacks:  # Python functions cannot be saved with the module
            raise NotImplementedError("serialization of host_callbacks is not yet implemented")
        _check_custom_calls(program.text, allowed_targets)
        text = _jaxlib.pretty_module(program.text, kept_arg_names(closed, program.keep), {
            "jax.uses_shape_polymorphism": _is_polymorphic(closed.in_avals)})
        in_avals = tuple(closed.in_avals)
        return Exported(name, traced.in_tree, in_avals, traced.out_tree, tuple(closed.out_avals),
                        (None,) * len(in_avals), (None,) * len(closed.out_avals), 1, platforms, (), (),
                        tuple(disabled_checks), _jaxlib.serialize_portable(text),
                        maximum_supported_calling_convention_version,
                        tuple(i for i, kept in enumerate(program.keep) if kept), _is_polymorphic(in_avals))

    return do_export


# Custom-call targets whose behaviour jaxlib keeps stable across releases: its own kernels (LAPACK and the
# tridiagonal solver, all named ``*_ffi``), XLA's approximate top-k and StableHLO's dynamic reduce_window (windows
# of symbolic sizes). A user's FFI target has no such promise.
_STABLE_TARGETS = re.compile(r"lapack_\w+_ffi|tridiagonal_solve_perturbed_ffi|ApproxTopK"
                             r"|stablehlo\.dynamic_reduce_window")
_CUSTOM_CALL = re.compile(r"^\s*(%\S+ = )?stablehlo\.custom_call @([\w.$-]+)\(.*$", re.M)


def _check_custom_calls(module_text: str, allowed_targets: set[str]) -> None:
    """JAX's refusal to export a custom call whose target promises no compatibility, unless disabled."""
    if "custom_call" not in module_text:
        return
    for match in _CUSTOM_CALL.finditer(_jaxlib.pretty_module(module_text)):
        target = match.group(2)
        if target not in allowed_targets and not _STABLE_TARGETS.fullmatch(target):
            raise ValueError("Cannot serialize code with custom calls whose targets have no compatibility "
                             "guarantees. See https://docs.jax.dev/en/latest/export/export.html"
                             "#compatibility-guarantees-for-custom-calls. Examples are:\n"
                             f"{match.group(0).strip()}.\n")


def _check_call(exported: Exported, flat: Sequence[Any], in_tree: Any) -> None:
    """JAX's errors for a call whose arguments do not have the exported signature or platform."""
    if in_tree != exported.in_tree:
        differences = "\n\n".join(f"   - {_path_text(path)} is {thing}"
                                  for path, thing in _structure_differences(in_tree, exported.in_tree))
        raise ValueError("The invocation args and kwargs must have the same pytree structure as when the function "
                         f"'{exported.fun_name}' was exported, but they have the following structural differences:\n"
                         f"{differences}\n")
    paths = [_path_text(p) for p, _ in tree.tree_flatten_with_path(tree.tree_unflatten(in_tree, flat))[0]]
    for path, x, expected in zip(paths, flat, exported.in_avals):
        aval = get_aval(x)
        if aval.ndim != expected.ndim:
            raise ValueError(f"Rank mismatch for {path}: expected {expected.shape} and called with {aval.shape}")
        if aval.dtype != expected.dtype:
            raise ValueError(f"Dtype mismatch for {path}: expected {expected.dtype} and called with {aval.dtype}")
        for i, (want, got) in enumerate(zip(expected.shape, aval.shape)):
            if type(want) is int and want != got:
                raise ValueError(f"Shape mismatch for {path}.shape[{i}] (expected same constant): expected "
                                 f"{expected.shape} and called with {aval.shape}")
    if exported.uses_global_constants:
        _dimension_values(exported, [get_aval(x) for x in flat], paths)
    platform = default_backend()
    if platform not in exported.platforms and DisabledSafetyCheck.platform() not in exported.disabled_safety_checks:
        raise ValueError(f"Function '{exported.fun_name}' was exported for platforms '{exported.platforms}' but it "
                         f"is used on '{(platform,)}'.")


def _structure_differences(ours: Any, theirs: Any) -> list[tuple[Any, str]]:
    """``(path, description)`` of each difference between the call's and the export's pytree structure of
    ``(args, kwargs)``, in JAX's words (leaves stand in as ``0``, as in JAX's messages)."""
    differences = []
    for path, reason in equality_errors(tree.tree_unflatten(theirs, [0] * theirs.num_leaves),
                                             tree.tree_unflatten(ours, [0] * ours.num_leaves)):
        match = _SEEN_GIVEN.fullmatch(reason)
        if match:
            exported, invocation, consequence = (_as_jax_describes(g) for g in match.groups())
            reason = f"a {invocation} in the invocation and a {exported} when exported, so {consequence}."
        differences.append((path, reason))
    return differences


# How jaxle_tree.equality_errors phrases a difference (as jit reports it): "seen X but now given Y, so Z".
_SEEN_GIVEN = re.compile(r"seen (.*) but now given (.*?), so (.*)", re.S)


def _as_jax_describes(text: str) -> str:
    """A part of jit's description as JAX's export words it: a leaf (``0`` here) by its type."""
    return text.replace("pytree leaf", "<class 'int'>")


def _path_text(path: Sequence[Any]) -> str:
    """``args[0]``, ``kwargs['y']``: a path into ``(args, kwargs)`` as JAX names it."""
    if not path:
        return "args and kwargs"
    head = "args" if getattr(path[0], "idx", None) == 0 else "kwargs"
    return head + "".join(str(k) for k in path[1:])


# ---------------------------------------------------------------- the call_exported primitive

call_exported_p = core.Primitive("call_exported")
call_exported_p.multiple_results = True


def _dimension_values(exported: Exported, avals: Sequence[ShapedArray],
                      paths: Sequence[str] | None = None) -> dict[str, Any]:
    """The values of the exported signature's dimension variables given the arguments' avals (JAX's errors for
    sizes that do not fit the specification)."""
    paths = paths or [f"args[{i}]" for i in range(len(avals))]
    return shape_poly.solve_dimension_variables(list(zip(paths, (a.shape for a in exported.in_avals))),
                                                [a.shape for a in avals])


def _call_exported_avals(*avals: ShapedArray, exported: Exported) -> list[ShapedArray]:
    """The results' avals: the exported ones, symbolic sizes evaluated for the arguments' shapes."""
    outs = [a.strip_weak_type() for a in exported.out_avals]
    if not exported.uses_global_constants:
        return outs
    env = _dimension_values(exported, avals)
    return [a.update(shape=tuple(shape_poly.evaluate(d, env) for d in a.shape)) for a in outs]


call_exported_p.def_abstract_eval(_call_exported_avals)


@register_lowering(call_exported_p)
def _call_exported_lowering(ctx: LoweringContext, *args: Value, exported: Exported) -> list[Value]:
    module = _jaxlib.deserialize_portable(exported.mlir_module_serialized)
    base = f"exported_{symbol_name(exported.fun_name)}"
    functions, main = _jaxlib.embeddable_functions(module, lambda name: ctx.module.reserve_symbol(f"{base}_{name}"))
    for text in functions:
        ctx.module.add_function_text(text)
    kept = [args[i] for i in exported.module_kept_var_idx]
    if not exported.uses_global_constants:
        return ctx.op("func.call", kept, ctx.avals_out, {"callee": f"@{main}"})
    # A polymorphic module takes and returns dynamic types: the arguments are converted to them and the results
    # back; refining the caller's module (when compiled) makes every shape static again.
    kept = [x if x.type == tensor_type(want) else ctx.op1("stablehlo.convert", [x], want)
            for x, want in zip(kept, [exported.in_avals[i] for i in exported.module_kept_var_idx])]
    outs = ctx.op("func.call", kept, [a.strip_weak_type() for a in exported.out_avals], {"callee": f"@{main}"})
    return [y if y.type == tensor_type(want) else ctx.op1("stablehlo.convert", [y], want)
            for y, want in zip(outs, ctx.avals_out)]
