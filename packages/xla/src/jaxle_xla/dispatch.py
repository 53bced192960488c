"""The XLA implementation of core's Backend protocol, registered when ``jaxle_xla`` is imported.

Eager dispatch compiles each primitive once per (params, input avals, device)
and caches the executable; execution is asynchronous, so nothing waits until a
value is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from jaxle_core import core
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.staging import trace_to_jaxpr

from jaxle_xla import _jaxlib, clients
from jaxle_xla.array import XlaArray
from jaxle_xla.executable import Executable, PerDeviceExecutable, placement, to_buffer
from jaxle_xla.lowering import lower_to_text


class XlaBackend:
    """Runs primitives and jaxprs with XLA on the default platform's devices."""

    platform = "xla"

    def __init__(self):
        self._eager: dict[Any, Executable] = {}

    # -- eager dispatch

    def apply_primitive(self, primitive: core.Primitive, args: Sequence[Any], params: dict) -> Any:
        avals = tuple([get_aval(x) for x in args])
        device = clients.default_device() if clients.has_one_device() else placement(args, primitive.name)
        try:
            key = (primitive, tuple(params.items()), avals, device)
            executable = self._eager.get(key)
        except TypeError:  # unhashable params: compile without caching
            key, executable = None, None
        if executable is None:
            executable = self._compile_primitive(primitive, avals, params, device)
            if key is not None:
                self._eager[key] = executable
        outs = executable(*args)
        return outs if primitive.multiple_results else outs[0]

    def _compile_primitive(self, primitive, avals, params, device) -> Executable:
        def apply(*xs):
            out = primitive.bind(*xs, **params)
            return list(out) if primitive.multiple_results else [out]

        closed = trace_to_jaxpr(apply, avals, None)
        return Executable(closed, primitive.name, (), True, device)

    # -- jit

    def compile(self, closed_jaxpr: core.ClosedJaxpr, name: str, donated_invars: Sequence[bool],
                keep_unused: bool, device: Any) -> PerDeviceExecutable:
        return PerDeviceExecutable(closed_jaxpr, name, donated_invars, keep_unused, device)

    def lower_text(self, closed_jaxpr: core.ClosedJaxpr, name: str) -> str:
        return _jaxlib.pretty_module(lower_to_text(closed_jaxpr, name))

    # -- devices

    def device_put(self, x: Any, device: Any = None, weak_type: bool = False) -> XlaArray:
        committed = device is not None
        if device is None:
            if type(x) is XlaArray:
                return x
            device = clients.default_device()
        if type(x) is XlaArray and x.device == device:
            return x
        aval = get_aval(x)
        if weak_type != aval.weak_type and not isinstance(x, Array):
            aval = aval.update(weak_type=weak_type)
        if not isinstance(x, Array):
            x = np.asarray(x, dtype=aval.dtype)
        return XlaArray(to_buffer(x, device), aval, committed)

    def devices(self) -> list[Any]:
        return clients.devices()
