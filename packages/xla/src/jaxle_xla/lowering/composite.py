"""Lowering of ``composite``: ``stablehlo.composite`` naming the operation, its attributes and version,
with the decomposition as a private function (which XLA inlines unless it knows the operation)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.core import ClosedJaxpr
from jaxle_core.lax.composite import composite_p
from jaxle_xla.lowering.context import LoweringContext, Value, dense_elements, element_type
from jaxle_xla.lowering.module import register_lowering


def _attribute(value: Any) -> str:
    """An MLIR attribute holding a static attribute value: a string, a scalar or an array."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    array = np.asarray(value)
    if array.dtype == np.bool_ and array.ndim == 0:
        return "true" if array else "false"
    if isinstance(value, int):
        array = array.astype(np.int64)
    elif isinstance(value, float):
        array = array.astype(np.float32)
    if array.ndim == 0:
        number = repr(array.item()) if array.dtype.kind in "iu" else f"{float(array.item()):e}"
        return f"{number} : {element_type(array.dtype)}"
    return dense_elements(array, ShapedArray(array.shape, array.dtype))


# What StableHLO accepts as a composite's name: a namespaced op name.
_NAMESPACED = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+")


@register_lowering(composite_p)
def _composite(ctx: LoweringContext, *args: Value, name: str, attributes: tuple, version: int,
               jaxpr: ClosedJaxpr) -> list[Value]:
    if not _NAMESPACED.fullmatch(name):
        raise ValueError("Cannot lower jaxpr with verifier errors:\n\tname must be a valid namespaced op name, i.e. "
                         "it must match the following regular expression: ^[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+$ "
                         f'e.g. "my_namespace.my_op" (got "{name}")')
    decomposition = ctx.module.function(jaxpr, name, keep_name=True)
    fields = {"name": _attribute(name)}
    if attributes:
        entries = [f"{key} = {_attribute(leaves[0] if len(leaves) == 1 else np.asarray(leaves))}"
                   for key, leaves, _ in attributes]
        fields["composite_attributes"] = "{" + ", ".join(entries) + "}"
    fields["decomposition"] = f"@{decomposition}"
    if version:
        fields["version"] = f"{int(version)} : i32"
    return ctx.op("stablehlo.composite", args, ctx.avals_out, fields)
