"""Lowering of host callbacks (``pure_callback``, ``io_callback``) to jaxlib's Python-callback custom call.

jaxlib registers an XLA FFI handler, ``xla_ffi_python_cpu_callback`` (``..._gpu_callback`` on GPUs), that calls
a Python function on the host. The functions of a module are handed to the compiler as a list
(``compile_and_load(..., host_callbacks)``); each custom call names its function by position in that list
(``mhlo.backend_config = {index = N : ui64}``) and receives the operands as NumPy arrays (``None`` for a token),
returning a tuple of arrays of exactly the result types. Ordered effects thread a token through their calls so
that XLA keeps them in program order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray
from jaxle_core.backend import get_backend
from jaxle_core.callbacks import call_host, io_callback_p, ordered_io_effect, pure_callback_p
from jaxle_core.lax.tokens import abstract_token
from jaxle_xla.clients import default_backend
from jaxle_xla.lowering.context import LoweringContext, Value, default_layout
from jaxle_xla.lowering.module import register_lowering
from jaxle_xla.lowering.typed_layouts import leave_unconstrained
from jaxle_xla.sharding import one_device_of


def as_array(value: np.ndarray, aval: ShapedArray) -> Any:
    """A host value the compiled program passed to a callback, as an XLA Array of ``aval`` (weak type kept)."""
    return get_backend("xla").device_put(np.array(value, dtype=aval.dtype), None, aval.weak_type)


def emit_host_callback(ctx: LoweringContext, host_function: Callable[..., Sequence[np.ndarray]],
                       operands: Sequence[Value], result_avals: Sequence[ShapedArray], *, has_side_effect: bool,
                       effect: Any = None, device: Any = None, placed: bool = True) -> list[Value]:
    """Emit a custom call running ``host_function(*operand_arrays) -> result_arrays`` on the host; returns the
    results. An ordered ``effect`` chains it after the block's previous call of that effect through its token
    (None: unordered); ``device`` (else the
    first) runs a call made outside ``shard_map``, placed there as JAX places it also in a program of one device
    unless not ``placed`` (an ordered debug callback)."""
    region = ctx.module.manual_regions[-1] if ctx.module.manual_regions and ctx.module.mesh is not None else None
    if region is not None and region.automatic_axes:
        if result_avals or effect is not None:
            raise NotImplementedError("callbacks are only supported in spmd computations when all mesh axes are "
                                      "partitioned manually (no partial automatic sharding).")
        return _on_first_of_automatic_axes(ctx, region, operands, lambda inner, xs: emit_host_callback(
            inner, host_function, xs, [], has_side_effect=has_side_effect))
    function = host_function
    operands, result_avals = list(operands), list(result_avals)
    if effect is not None:
        token = ctx.token(effect)

        def function(token_value: Any, *args: np.ndarray) -> tuple:
            return (token_value, *host_function(*args))

        operands, result_avals = [token, *operands], [abstract_token, *result_avals]
    index = ctx.module.add_host_callback(function)
    platform = "gpu" if default_backend() in ("cuda", "rocm", "gpu") else "cpu"
    attributes = {
        "api_version": "1 : i32",
        "backend_config": '""',
        "call_target_name": f'"xla_ffi_python_{platform}_callback"',
        "has_side_effect": "true" if has_side_effect else "false",
        "operand_layouts": "[" + ", ".join(default_layout(len(v.aval.shape)) for v in operands) + "]",
        "result_layouts": "[" + ", ".join(default_layout(len(a.shape)) for a in result_avals) + "]",
        "mhlo.backend_config": f"{{index = {index} : ui64}}",
    }
    if ctx.module.mesh is not None or placed:
        attributes["sdy.sharding"] = _callback_placement(ctx, result_avals, device)
    outs = ctx.op("stablehlo.custom_call", operands, result_avals, attributes)
    if effect is not None:
        outs = ctx.continue_tokens([effect], outs)
    return outs


def _on_first_of_automatic_axes(ctx: LoweringContext, region: Any, operands: Sequence[Value],
                                emit: Callable[[LoweringContext, list[Value]], list[Value]]) -> list[Value]:
    """A callback without results in a body where only some mesh axes are manual, as JAX lowers it: the other
    axes made manual around it (its operands replicated over them), and called on their first device only."""
    from jaxle_xla.lowering.parallel import partition_index  # local: the collectives' lowering builds on regions
    from jaxle_xla.lowering.shard_map import manual_computation, manual_region

    symbol = ctx.module.mesh_symbol(region.mesh)
    replicated = ", ".join(f"<@{symbol}, [{', '.join(['{}'] * v.aval.ndim)}]>" for v in operands)
    predicate = ShapedArray((), np.dtype(np.bool_))
    index = ShapedArray((), np.dtype(np.int32))

    def body(inner: LoweringContext, blocks: list[Value]) -> list[Value]:
        with manual_region(inner, region.mesh):
            first = None
            for name in region.automatic_axes:
                at_zero = inner.compare("EQ", partition_index(inner, region, name), inner.constant(np.int32(0)))
                first = at_zero if first is None else inner.op1("stablehlo.and", [first, at_zero], predicate)
            branch = inner.op1("stablehlo.convert", [first], index)
            inner.op("stablehlo.case", [branch], [], regions=[inner.region([], lambda _, __: []),
                                                              inner.region([], lambda deepest, _: [
                                                                  *emit(deepest, blocks)])])
        return []

    return manual_computation(ctx, list(operands), [v.aval for v in operands], [], region.automatic_axes,
                              f"#sdy.sharding_per_value<[{replicated}]>", "#sdy.sharding_per_value<[]>", body)


def _callback_placement(ctx: LoweringContext, result_avals: Sequence[Any], device: Any) -> str:
    """Where a host callback of a partitioned program runs, as JAX places it: on every device, each with its own
    block, inside a ``shard_map`` body (the empty mesh: nothing left to partition); elsewhere once, on ``device``
    or the program's first device (a maximal sharding), its operands gathered there and its results spread from
    there."""
    if ctx.module.manual_regions:
        symbol = ctx.module.named_mesh("empty_mesh")
        dims = ["[" + ", ".join(["{}"] * len(a.shape)) + "]" for a in result_avals]
    else:
        index = 0 if device is None or ctx.module.mesh is None else ctx.module.mesh._flat_devices_tuple.index(device)
        symbol = ctx.module.named_mesh(f"maximal_mesh_{index}", index)
        dims = ["[]"] * len(result_avals)
    return "#sdy.sharding_per_value<[" + ", ".join(f"<@{symbol}, {d}>" for d in dims or ["[]"]) + "]>"


def _host_results(results: Sequence[np.ndarray]) -> tuple:
    # Row-major, as the results' layouts say (``np.ascontiguousarray`` would make scalars 1-d).
    return tuple(np.asarray(r, order="C") for r in results)


def _lower_callback(name: str, has_side_effect: bool):
    def rule(ctx: LoweringContext, *args: Value, callback, result_avals, ordered: bool = False, sharding=None,
             **params):
        avals_in = ctx.avals_in
        device = None
        if sharding is not None and ctx.module.mesh is not None:
            device = one_device_of(sharding)
            if device is None:
                raise NotImplementedError(f"{name} only supports SingleDeviceSharding, but got {type(sharding)}")

        def host_function(*values: np.ndarray) -> tuple:
            arrays = [as_array(v, a) for v, a in zip(values, avals_in)]
            return _host_results(call_host(callback, arrays, result_avals, name))

        return emit_host_callback(ctx, host_function, args, result_avals, has_side_effect=has_side_effect,
                                  effect=ordered_io_effect if ordered else None, device=device)

    return rule


register_lowering(pure_callback_p)(_lower_callback("pure_callback", has_side_effect=False))
register_lowering(io_callback_p)(_lower_callback("io_callback", has_side_effect=True))
leave_unconstrained(pure_callback_p, io_callback_p)  # their results are typed over no mesh, as JAX's
