"""Lowering of ``ffi_call`` to a typed-FFI ``stablehlo.custom_call`` of the registered target (``emit_ffi_call``,
which user lowering rules made by ``jax.ffi.ffi_lowering`` share).

The keyword attributes travel in ``mhlo.backend_config`` as a dictionary, each typed as JAX types it: Python
ints ``i64``, floats ``f64``, NumPy scalars and arrays their own element type, strings as strings."""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.ffi import HashableArray, ffi_call_p
from jaxle_xla import _jaxlib
from jaxle_xla.lapack import operand_alias
from jaxle_xla.lowering.context import LoweringContext, Value, element_type
from jaxle_xla.lowering.module import register_lowering


def _float(value: float, mlir_type: str) -> str:
    if math.isfinite(value):
        return f"{value!r} : {mlir_type}"
    return f"0x{struct.unpack('<Q', struct.pack('<d', value))[0]:016X} : f64" if mlir_type == "f64" else \
        f"0x{struct.unpack('<I', struct.pack('<f', value))[0]:08X} : {mlir_type}"


def _scalar(value: Any, dtype: np.dtype) -> str:
    if dtype == np.bool_:
        return "true" if value else "false"
    if dtype.kind in "iu":
        return f"{int(value)} : {element_type(dtype)}"
    return _float(float(value), element_type(dtype))


def attribute_text(value: Any) -> str:
    """A kernel attribute as MLIR attribute text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value} : i64"
    if isinstance(value, float):
        return _float(value, "f64")
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, np.generic):
        return _scalar(value, value.dtype)
    if isinstance(value, HashableArray):
        array = value.value
        elements = ", ".join(_scalar(v, array.dtype).split(" : ")[0] for v in array.ravel())
        shape = "x".join(str(d) for d in array.shape)
        return f"dense<[{elements}]> : tensor<{shape}x{element_type(array.dtype)}>"
    raise TypeError(f"Unsupported attribute type for ffi_call: {type(value).__name__} ({value!r})")


def _layout_text(layout: tuple[int, ...]) -> str:
    return f"dense<[{', '.join(map(str, layout))}]> : tensor<{len(layout)}xindex>" if layout \
        else "dense<> : tensor<0xindex>"


def emit_ffi_call(ctx: LoweringContext, target_name: str, args: Sequence[Value], result_avals: Sequence[ShapedArray],
                  *, attributes: Sequence[tuple[str, Any]] = (), api_version: int = 4, has_side_effect: bool = False,
                  input_layouts: Sequence[tuple[int, ...]], output_layouts: Sequence[tuple[int, ...]],
                  input_output_aliases: Sequence[tuple[int, int]] = (),
                  legacy_backend_config: str | None = None) -> list[Value]:
    """Emit the custom call of ``target_name`` on ``args``: the typed FFI (``api_version`` 4) with ``attributes``
    (name, Python or NumPy value) as the kernel's attributes, or an older custom-call API with the string
    ``legacy_backend_config``; layouts minor-to-major, aliases ``(operand, result)`` pairs."""
    # jaxlib's own CPU kernels (LAPACK) crash unless their library was initialised first.
    _jaxlib.register_lapack_targets()
    call_attributes = {
        "call_target_name": f'"{target_name}"',
        "operand_layouts": "[" + ", ".join(map(_layout_text, input_layouts)) + "]",
        "result_layouts": "[" + ", ".join(map(_layout_text, output_layouts)) + "]",
    }
    if has_side_effect:
        call_attributes["has_side_effect"] = "true"
    if api_version >= 4:
        # The typed FFI is written as JAX writes it: an empty ``backend_config`` beside the ``mhlo.backend_config``
        # dictionary, which XLA's importer turns into the typed call (a stated api_version 4 would need the
        # dictionary in ``backend_config`` itself).
        call_attributes["backend_config"] = '""'
        call_attributes["mhlo.backend_config"] = "{" + ", ".join(
            f"{name} = {attribute_text(value)}" for name, value in sorted(attributes)) + "}"
    else:
        call_attributes["api_version"] = f"{api_version} : i32"
        call_attributes["backend_config"] = attribute_text(legacy_backend_config or "")
    if input_output_aliases:
        call_attributes["output_operand_aliases"] = "[" + ", ".join(
            operand_alias(o, i, len(result_avals) == 1) for i, o in input_output_aliases) + "]"
    return ctx.op("stablehlo.custom_call", args, result_avals, call_attributes)


@register_lowering(ffi_call_p)
def _lower_ffi_call(ctx: LoweringContext, *args: Value, attributes, custom_call_api_version, has_side_effect,
                    input_layouts, input_output_aliases, legacy_backend_config, output_layouts, result_avals,
                    target_name, vmap_method) -> list[Value]:
    return emit_ffi_call(ctx, target_name, args, result_avals, attributes=attributes,
                         api_version=custom_call_api_version, has_side_effect=has_side_effect,
                         input_layouts=input_layouts, output_layouts=output_layouts,
                         input_output_aliases=input_output_aliases, legacy_backend_config=legacy_backend_config)
