"""Batching of foreign function calls: by the call's ``vmap_method``, as ``pure_callback`` (see callbacks.py).

A call on the whole batch gets row-major layouts for its new ranks (a given layout keeps its order, the batch
dimension becoming the most major); buffer aliases stay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxle_core.avals import get_aval
from jaxle_core.batching.callbacks import batch_by_vmap_method, batched_result_avals
from jaxle_core.batching.trace import batching_rules
from jaxle_core.ffi import default_layout, ffi_call_p


def _widened_layout(layout: tuple[int, ...], new_ndim: int) -> tuple[int, ...]:
    if layout == default_layout(len(layout)):
        return default_layout(new_ndim)
    if new_ndim == len(layout):  # an unbatched operand left as it is (legacy_vectorized)
        return layout
    return (*(d + 1 for d in layout), 0)


def _widen(size: int, args: Sequence[Any], params: dict[str, Any]) -> dict[str, Any]:
    in_layouts = tuple(_widened_layout(layout, get_aval(a).ndim) for layout, a in zip(params["input_layouts"], args))
    out_layouts = tuple(_widened_layout(layout, len(layout) + 1) for layout in params["output_layouts"])
    return {**params, "input_layouts": in_layouts, "output_layouts": out_layouts,
            "result_avals": batched_result_avals(size, params["result_avals"])}


def _ffi_call_batch(vals, dims, **params):
    return batch_by_vmap_method(ffi_call_p, vals, dims, params, _widen)


batching_rules[ffi_call_p] = _ffi_call_batch
