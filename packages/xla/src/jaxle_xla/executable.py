"""Compiled jaxprs: lowering, compiling once per device, and the lean call path."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from jaxle_core import core
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval

from jaxle_xla import _jaxlib, clients
from jaxle_xla.array import XlaArray
from jaxle_xla.lowering import lower_to_text

# Constants with more elements than this are passed to the executable as arguments
# rather than written into the program text.
_LARGEST_INLINE_CONSTANT = 256


def used_inputs(jaxpr: core.Jaxpr) -> list[bool]:
    """Which inputs of ``jaxpr`` any equation or output reads."""
    used = {v for eqn in jaxpr.eqns for v in eqn.invars if type(v) is not core.Literal}
    used.update(v for v in jaxpr.outvars if type(v) is not core.Literal)
    return [v in used for v in jaxpr.invars]


def _prepare(closed: core.ClosedJaxpr, keep: Sequence[bool]) -> tuple[core.ClosedJaxpr, list[Any]]:
    """Drop the inputs not kept, and turn large constants into leading inputs."""
    jaxpr = closed.jaxpr
    large = [np.size(c) > _LARGEST_INLINE_CONSTANT for c in closed.consts]
    hoisted = [c for c, big in zip(closed.consts, large) if big]
    jaxpr = jaxpr.replace(
        constvars=[v for v, big in zip(jaxpr.constvars, large) if not big],
        invars=[v for v, big in zip(jaxpr.constvars, large) if big]
        + [v for v, k in zip(jaxpr.invars, keep) if k])
    return core.ClosedJaxpr(jaxpr, [c for c, big in zip(closed.consts, large) if not big]), hoisted


def to_buffer(x: Any, device: _jaxlib.Device) -> _jaxlib.DeviceBuffer:
    """The device buffer of ``x`` on ``device``, copying or transferring it there if needed."""
    if type(x) is XlaArray:
        x._check_alive()
        if _jaxlib.buffer_device(x._buffer) == device:
            return x._buffer
        return _jaxlib.copy_to_device(x._buffer, x.aval, device)
    aval = get_aval(x)
    value = np.asarray(x._value if isinstance(x, Array) else x, dtype=aval.dtype)
    return _jaxlib.device_put(value, aval, device)


class Executable:
    """A closed jaxpr compiled by XLA for one device; calling it runs it on that device."""

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 device: _jaxlib.Device):
        self.name = name
        self.device = device
        self._keep = [True] * len(closed.jaxpr.invars) if keep_unused else used_inputs(closed.jaxpr)
        self._all_kept = all(self._keep)
        program, hoisted = _prepare(closed, self._keep)
        donated = [False] * len(hoisted) + [d for d, k in zip(donated, self._keep) if k]
        self.text = lower_to_text(program, name, donated)
        client = device.client
        self.loaded = _jaxlib.compile(client, self.text, device)
        self._constants = [to_buffer(c, device) for c in hoisted]
        self.out_avals: list[ShapedArray] = list(closed.out_avals)
        self._handlers = [_jaxlib.result_handler(aval, device) for aval in self.out_avals]

    def __call__(self, *args: Any) -> list[XlaArray]:
        device = self.device
        if not self._all_kept:
            args = [a for a, k in zip(args, self._keep) if k]
        buffers = self._constants + [to_buffer(a, device) for a in args]
        outs = _jaxlib.execute(self.loaded, buffers, self._handlers)
        return [XlaArray(b, a) for b, a in zip(outs, self.out_avals)]

    def as_text(self) -> str:
        """The optimised HLO XLA compiled."""
        return _jaxlib.hlo_text(self.loaded)

    def cost_analysis(self) -> dict:
        return _jaxlib.cost_analysis(self.loaded)

    def memory_analysis(self) -> Any:
        return _jaxlib.memory_stats(self.loaded)


class PerDeviceExecutable:
    """A jitted function's compiled program, compiled once for each device it runs on.

    Without an explicit ``device`` it runs where its committed array arguments
    live (the default device when none is committed), as JAX does.
    """

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 device: _jaxlib.Device | None):
        self._spec = (closed, name, donated, keep_unused)
        self._device = device
        self._compiled: dict[_jaxlib.Device, Executable] = {}
        self._single = None
        if device is not None or clients.has_one_device():
            self._single = self._for(device or clients.default_device())

    def _for(self, device: _jaxlib.Device) -> Executable:
        executable = self._compiled.get(device)
        if executable is None:
            executable = self._compiled[device] = Executable(*self._spec, device)
        return executable

    def __call__(self, *args: Any) -> list[XlaArray]:
        if self._single is not None:
            return self._single(*args)
        return self._for(placement(args, self._spec[1]))(*args)

    def _any(self) -> Executable:
        return self._single or self._for(clients.default_device())

    def as_text(self) -> str:
        return self._any().as_text()

    def cost_analysis(self) -> dict:
        return self._any().cost_analysis()

    def memory_analysis(self) -> Any:
        return self._any().memory_analysis()


def placement(args: Sequence[Any], name: str) -> _jaxlib.Device:
    """The device committed arguments agree on (the default device if none is committed)."""
    chosen = None
    for i, x in enumerate(args):
        if type(x) is XlaArray and x._committed:
            device = _jaxlib.buffer_device(x._buffer)
            if chosen is None:
                chosen, first = device, i
            elif device != chosen:
                raise ValueError(
                    f"Received incompatible devices for jitted computation. Got argument {first} of {name} with "
                    f"device {chosen} and argument {i} with device {device}. Move the arguments to one device "
                    "with jax.device_put first.")
    return chosen or clients.default_device()
