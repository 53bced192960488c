"""Arrays in a memory layout of their own (``jax.experimental.layout``): ``device_put`` onto a ``Format``.

An array takes another layout by going through a program that returns its argument in that layout (XLA's
``mhlo.layout_mode`` result attribute); an array over several devices does so shard by shard. Programs read
arguments of any layout: jaxlib converts one that differs from the layout a program was compiled for.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.layout import (
    AutoLayoutSingleton,
    Format,
    Layout,
    as_reported,
    check_layout_rank,
    layout_mode,
    note_custom_layouts,
)
from jaxle_xla import _jaxlib
from jaxle_xla.array import XlaArray, laid_out
from jaxle_xla.lowering.context import tensor_type

__all__ = ["put_with_format", "use_custom_layouts"]


def put_with_format(leaf: Any, fmt: Format, put: Callable[[Any, Any], Any]) -> Any:
    """``leaf`` put (by ``put``) on the sharding of ``fmt`` (where it is, when None) and in its layout."""
    aval = get_aval(leaf)
    if isinstance(fmt.layout, AutoLayoutSingleton):
        raise ValueError("sharding and layout in `Layout` instance should be concrete. Got layout: "
                         f"{fmt} for input {aval.str_short()}")
    check_layout_rank(fmt.layout, aval.shape, "One of jit outputs with pytree key path result")
    placed = put(leaf, fmt.sharding)
    if fmt.layout is None or Layout.from_pjrt_layout(placed._pjrt_layout) == as_reported(fmt.layout):
        return placed
    use_custom_layouts()
    return _relayout(placed, layout_mode(fmt.layout))


def use_custom_layouts() -> None:
    """Arrays in layouts other than row-major may exist from now on: every program's arguments are converted to
    the layouts it reads before it runs (a compiled function's committed ones are refused, as in JAX)."""
    note_custom_layouts()
    _jaxlib.uses_custom_layouts(_conform, _dispatched)


def _conform(executable: Any, buffers: Sequence[Any]) -> Sequence[Any]:
    """``buffers`` in the layouts ``executable`` reads its parameters in (jaxlib runs a program on the bytes it is
    given, as if they were laid out as it was compiled for)."""
    expected = executable.get_parameter_layouts()
    if all(_reads_as(buffer, layout) for buffer, layout in zip(buffers, expected)):
        return buffers
    return [buffer if _reads_as(buffer, layout) else _relayout(buffer, str(layout))
            for buffer, layout in zip(buffers, expected)]


def _reads_as(buffer: Any, layout: Any) -> bool:
    """Whether ``buffer`` is laid out as a program reads a parameter of ``layout`` (a buffer of a scalar may report
    a layout of rank one: the same bytes)."""
    own = buffer._pjrt_layout
    if own == layout:
        return True
    ranks = len(own._xla_layout().minor_to_major()), len(layout._xla_layout().minor_to_major())
    return ranks[0] != ranks[1]


def _dispatched(value: Any, mode: str, sharding: Any) -> XlaArray:
    """An argument C++ dispatch hands back in the layout ``mode`` a program reads: an array copied into it, a host
    value (uncommitted, as C++ puts it) put on the device of ``sharding`` in it."""
    if isinstance(value, XlaArray):
        return _relayout(value, mode)
    aval = get_aval(value)
    placed = _jaxlib.device_put(np.asarray(value, aval.dtype), aval, sharding._device, False)
    return placed if str(placed._pjrt_layout) == mode else _relayout(placed, mode)


def _relayout(array: XlaArray, mode: str) -> XlaArray:
    """``array`` copied into the layout XLA writes ``mode`` (each shard of an array over several devices)."""
    parts = _jaxlib.shard_buffers(array)
    if len(parts) == 1:
        return _relayout_buffer(array, array.aval, mode, array._committed)
    shard_aval = array.aval.update(shape=_shard_shape(array))
    shards = [_relayout_buffer(part, shard_aval, mode, True) for part in parts]
    whole = _jaxlib.put_shards(array.aval, array._sharding, shards, [_jaxlib.buffer_device(part) for part in parts])
    return whole if array._named_sharding is None else laid_out(whole, array._named_sharding)


def _shard_shape(array: XlaArray) -> tuple[int, ...]:
    """The shape of each shard of an array over several devices (split evenly, as jaxle's layouts split)."""
    if array._named_sharding is not None:
        return array._named_sharding.shard_shape(array.shape)
    hlo = array._sharding._hlo_sharding
    if hlo.is_replicated():
        return array.shape
    tiles = hlo.tile_assignment_dimensions()
    return tuple(-(-size // count) for size, count in zip(array.shape, tiles))


def _relayout_buffer(buffer: Any, aval: ShapedArray, mode: str, committed: bool) -> XlaArray:
    device = _jaxlib.buffer_device(buffer)
    handler = _jaxlib.result_handler(aval, device, committed)
    identity = _identity(tensor_type(aval), str(buffer._pjrt_layout), mode, device)
    return _jaxlib.execute(identity, [buffer], [handler], False)[0]


@functools.lru_cache(maxsize=64)
def _identity(tensor: str, given: str, mode: str, device: Any) -> Any:
    """The compiled program returning its argument (of type ``tensor``, in the layout ``given``) in the layout
    ``mode``."""
    text = (f"module @jit__identity_fn attributes {{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}} {{\n"
            f'  func.func public @main(%arg0: {tensor} {{mhlo.layout_mode = "{given}"}}) -> '
            f'({tensor} {{mhlo.layout_mode = "{mode}"}}) {{\n'
            f"    return %arg0 : {tensor}\n  }}\n}}\n")
    return _jaxlib.compile(device.client, text, device)
