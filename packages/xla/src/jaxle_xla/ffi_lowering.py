"""Lowering rules that turn a user's primitive into a call of an FFI target: ``ffi_lowering`` and
``build_ffi_lowering_function``, for ``jax.interpreters.mlir.register_lowering``.

The rule reads the operand and result types from the lowering context, takes the layouts given here
(minor-to-major dimension orders, row-major by default) and writes the primitive's parameters, beside any fixed
``backend_config`` entries, as the kernel's attributes, exactly as an ``ffi_call`` of the target would.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.ffi import HashableArray, default_layout
from jaxle_xla import _jaxlib
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.ffi import emit_ffi_call

__all__ = ["CustomCallOp", "build_ffi_lowering_function", "ffi_lowering", "register_ffi_type"]

_CALL_OPTIONS = ("api_version", "has_side_effect", "operand_output_aliases")


@dataclass(frozen=True)
class CustomCallOp:
    """The custom call a ``build_ffi_lowering_function`` function emitted: its ``results``, one value each."""

    results: list[Value]


def _layouts(given: Sequence[Any] | None, avals: Sequence[ShapedArray], skip_processing: bool) -> list[tuple]:
    """Minor-to-major layouts: None is row-major, a ``Layout``-like object gives its ``major_to_minor`` order."""
    if given is None:
        return [default_layout(a.ndim) for a in avals]
    if skip_processing:
        return [tuple(layout) for layout in given]
    layouts = []
    for layout, aval in zip(given, avals, strict=True):
        if layout is None:
            layouts.append(default_layout(aval.ndim))
        elif hasattr(layout, "major_to_minor"):
            layouts.append(tuple(reversed(layout.major_to_minor)))
        else:
            layouts.append(tuple(int(d) for d in layout))
    return layouts


def _attribute(value: Any) -> Any:
    """A parameter as ``attribute_text`` writes it: arrays by contents, 0-d arrays as NumPy scalars."""
    if isinstance(value, np.ndarray):
        return HashableArray(value) if value.ndim else value[()]
    return value


def build_ffi_lowering_function(call_target_name: str, *, operand_layouts: Sequence[Any] | None = None,
                                result_layouts: Sequence[Any] | None = None,
                                backend_config: Mapping[str, Any] | str | None = None,
                                skip_ffi_layout_processing: bool = False,
                                **lowering_args: Any) -> Callable[..., CustomCallOp]:
    """A function ``(ctx, *operands, **params) -> CustomCallOp`` emitting the custom call of ``call_target_name``:
    ``params`` (and a ``backend_config`` mapping) become the kernel's attributes; layouts are minor-to-major
    (None: row-major); ``lowering_args`` may set ``api_version``, ``has_side_effect`` and
    ``operand_output_aliases`` (operand index -> result index)."""
    for name in lowering_args:
        if name not in _CALL_OPTIONS:
            raise TypeError(f"custom_call() got an unexpected keyword argument '{name}'")
    api_version = lowering_args.get("api_version", 4)
    aliases = tuple(sorted((lowering_args.get("operand_output_aliases") or {}).items()))

    def lower(ctx: LoweringContext, *operands: Value, **params: Any) -> CustomCallOp:
        attributes = dict(backend_config) if isinstance(backend_config, Mapping) else {}
        attributes.update(params)
        if attributes and api_version < 4:
            raise ValueError("The use of ffi_call attributes requires a custom call API version of at least 4; got "
                             f"api_version={api_version}.")
        avals_in = [operand.aval for operand in operands]
        results = emit_ffi_call(
            ctx, call_target_name, operands, ctx.avals_out,
            attributes=[(name, _attribute(value)) for name, value in attributes.items()], api_version=api_version,
            has_side_effect=lowering_args.get("has_side_effect", False),
            input_layouts=_layouts(operand_layouts, avals_in, skip_ffi_layout_processing),
            output_layouts=_layouts(result_layouts, ctx.avals_out, skip_ffi_layout_processing),
            input_output_aliases=aliases,
            legacy_backend_config=backend_config if isinstance(backend_config, str) else None)
        return CustomCallOp(results)

    return lower


def ffi_lowering(call_target_name: str, *, operand_layouts: Sequence[Any] | None = None,
                 result_layouts: Sequence[Any] | None = None, backend_config: Mapping[str, Any] | str | None = None,
                 skip_ffi_layout_processing: bool = False, **lowering_args: Any) -> Callable[..., list[Value]]:
    """A lowering rule (for ``mlir.register_lowering``) calling the FFI target ``call_target_name`` with the
    primitive's operands and its parameters as attributes; arguments as ``build_ffi_lowering_function``'s."""
    build = build_ffi_lowering_function(call_target_name, operand_layouts=operand_layouts,
                                        result_layouts=result_layouts, backend_config=backend_config,
                                        skip_ffi_layout_processing=skip_ffi_layout_processing, **lowering_args)

    def rule(ctx: LoweringContext, *operands: Value, **params: Any) -> list[Value]:
        return build(ctx, *operands, **params).results

    return rule


def register_ffi_type(name: str, type_registration: Mapping[str, Any], platform: str = "cpu") -> None:
    """Register the user type ``name`` that typed-FFI kernels take: ``type_registration`` is a dict with the
    ``type_id`` (a PyCapsule of the kernel library's ``TypeId``, which XLA fills in) and optionally ``type_info``."""
    _jaxlib.register_custom_type(name, dict(type_registration), platform)
