"""Compiled jaxprs: lowering, compiling once per device, and the lean call path."""

from __future__ import annotations

import functools
import logging
import re
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxle_core import config, core, dtypes, monitoring
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.caches import LruCache
from jaxle_core.device_mismatch import ARGUMENT, CONTEXT, mismatch_error
from jaxle_core.extended import ExtendedArray, has_extended, physical_aval, physicalize, wrap_physical
from jaxle_core.jaxpr_util import dce_jaxpr, jaxpr_ordered_effects, negative_size_shape
from jaxle_core.lax.placement import staged_at
from jaxle_core.lax.tokens import AbstractToken, Token, create_token_p
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.mesh import AbstractMesh
from jaxle_core.sharding import NamedSharding
from jaxle_xla import _jaxlib, clients, transfer_guard
from jaxle_xla.array import XlaArray
from jaxle_xla.effect_tokens import TOKEN_AVAL, runtime_tokens
from jaxle_xla.layouts import use_custom_layouts
from jaxle_xla.lowering import lower_module
from jaxle_xla.lowering.module import donation_key
from jaxle_xla.sharding import (
    GSPMDSharding,
    devices_text,
    incompatible_devices_error,
    one_device_of,
    same_tiles,
    unconvertible_error,
)

# Constants with more elements than this are passed to the executable as arguments
# rather than written into the program text.
_LARGEST_INLINE_CONSTANT = 256
_PYTHON_SCALARS = (bool, int, float)


# The programs (closed jaxpr and donated inputs) whose unusable donations were warned about. JAX warns when it
# lowers a program and keeps the lowering: the same program lowered again, compiled after ``lower`` or called after
# it, does not warn again.
_warned_programs = LruCache()


def _usable_donations(closed: core.ClosedJaxpr, donated: Sequence[bool], arg_shardings: Sequence[Any],
                      typed: Sequence[Any], program: core.ClosedJaxpr, aliases: Sequence[int | None] = ()
                      ) -> list[bool]:
    """The donated inputs of ``closed`` that an output of the same type, not one of those ``aliases`` gives
    inputs, can reuse; JAX warns about the others (once
    per ``program``, the jaxpr ``closed`` was made from) and keeps them (naming, for an input laid out over a mesh
    by ``arg_shardings``, the type of each device's block; keys, typed as ``typed``, by their own type)."""
    free: dict[ShapedArray, int] = {}
    for i, aval in enumerate(closed.out_avals):
        if i not in aliases:
            free[donation_key(aval)] = free.get(donation_key(aval), 0) + 1
    usable, unusable = [], []
    shardings = list(arg_shardings) + [None] * (len(closed.jaxpr.invars) - len(arg_shardings))
    for var, is_donated, sharding, typed_aval in zip(closed.jaxpr.invars, donated, shardings, typed):
        aval = donation_key(var.aval)
        ok = is_donated and free.get(aval, 0) > 0
        if ok:
            free[aval] -= 1
        elif is_donated:
            block = sharding.shard_shape(aval.shape) if isinstance(sharding, NamedSharding) else None
            unusable.append(typed_aval.str_short() if has_extended([typed_aval]) else aval.str_short()
                            if block is None else ShapedArray(block, aval.dtype).str_short())
        usable.append(ok)
    if unusable and _warned_programs.lookup(key := (program, tuple(donated))) is None:
        _warned_programs[key] = True
        warnings.warn(f"Some donated buffers were not usable: {', '.join(unusable)}.\nSee an explanation at "
                      "https://docs.jax.dev/en/latest/faq.html#buffer-donation.", UserWarning, stacklevel=2)
    return usable


def _key_data(aval: Any) -> int | None:
    """The number of dimensions of one element's physical data in values of ``aval`` (keys), None for NumPy
    dtypes."""
    return len(aval.dtype.physical_shape) if has_extended([aval]) else None


def _physicalized(closed: core.ClosedJaxpr) -> core.ClosedJaxpr:
    """``closed`` computing on the physical data of its extended values; a sampler staged with a size below zero
    (as JAX stages it) fails as JAX's fails to lower it: with MLIR's error for the first such type."""
    try:
        return physicalize(closed)
    except TypeError:
        shape = negative_size_shape(closed.jaxpr)
        if shape is not None:
            _jaxlib.refuse_tensor_type(shape)
        raise


_LAYOUT_MODE = re.compile(r'mhlo\.layout_mode = "([^"]*)"')


def _row_major_mode(mode: str) -> bool:
    """Whether an ``mhlo.layout_mode`` is the default (row-major, untiled) layout, as the arrays of references a
    program closes over are annotated."""
    dims = mode[1:-1].split(",") if mode[1:-1] else []
    return mode.startswith("{") and dims == [str(d) for d in reversed(range(len(dims)))]


def _kept(values: Sequence[Any], keep: Sequence[bool]) -> list[Any]:
    return [v for v, k in zip(values, keep) if k]


class Program:
    """A closed jaxpr made ready for XLA: unused inputs dropped (unless kept), large constants turned into
    leading inputs (when ``hoist``), donated inputs aliased to outputs; ``text`` is the StableHLO module."""

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 hoist: bool = True, mesh: Any = None, arg_shardings: Sequence[Any] = (),
                 result_shardings: Sequence[Any] = (), layouts: tuple = ((), ()), result_names: Sequence[str] = (),
                 annotate_devices: bool = False, aliases: Sequence[int | None] = (),
                 equations_pruned: bool = False, locations: bool = False, entry_tokens: bool = False):
        """With a ``mesh``, the program is partitioned over its devices (see ``lower_module``); ``layouts``: the
        memory layouts asked for of the arguments and results (see ``lower_module``); ``result_names`` and
        ``annotate_devices`` annotate it for the lowered text; ``aliases``: the output each input must alias (None
        where free; see ``lower_module``); with ``equations_pruned`` (a program pruned before its references were
        discharged, as JAX prunes it) no equation is dropped, only the inputs nothing reads; with ``locations`` its
        ops are located where their equations were staged; with ``entry_tokens`` the program takes the token of each
        of its ordered effects (``effects``) first and returns it first (see ``lower_module``)."""
        traced, n = closed, len(closed.jaxpr.invars)
        aliases = list(aliases) + [None] * (n - len(aliases))
        if keep_unused:
            self.keep = [True] * n
        else:
            # As JAX's lowering does, drop the equations no output needs (unless they have effects) and then the
            # inputs nothing reads; the pruned jaxpr's inputs are the kept ones. As in JAX, this prunes the program
            # as traced: what computes extended values (keys) on their data is not pruned.
            # inputs of references are kept, their values read or not (as in JAX: each is aliased to its final value)
            pruned, self.keep = dce_jaxpr(closed.jaxpr, instantiate=[a is not None for a in aliases])
            if equations_pruned:
                pruned = closed.jaxpr.replace(invars=_kept(closed.jaxpr.invars, self.keep))
            closed = core.ClosedJaxpr(pruned, closed.consts)
        closed = _physicalized(closed)  # XLA computes on the physical data of extended values (keys)
        jaxpr = closed.jaxpr
        # Pruned inputs are neither donated nor warned about, as in JAX.
        aliases = _kept(aliases, self.keep)
        donated = _usable_donations(closed, [d and a is None for d, a in zip(_kept(list(donated) + [False] * n,
                                                                                self.keep), aliases)],
                                    _kept(arg_shardings, self.keep) if mesh is not None else (),
                                    _kept(traced.in_avals, self.keep), traced, aliases)
        large = [hoist and np.size(c) > _LARGEST_INLINE_CONSTANT for c in closed.consts]
        self.hoisted = [c for c, big in zip(closed.consts, large) if big]
        jaxpr = jaxpr.replace(
            constvars=[v for v, big in zip(jaxpr.constvars, large) if not big],
            invars=[v for v, big in zip(jaxpr.constvars, large) if big] + list(jaxpr.invars))
        program = core.ClosedJaxpr(jaxpr, [c for c, big in zip(closed.consts, large) if not big])
        self.text, self.host_callbacks, self.inspections = lower_module(
            program, name, [False] * len(self.hoisted) + donated, mesh,
            [None] * len(self.hoisted) + [s for s, k in zip(arg_shardings, self.keep) if k], result_shardings,
            layouts=((None,) * len(self.hoisted) + tuple(s for s, k in zip(layouts[0], self.keep) if k), layouts[1]),
            result_names=result_names, annotate_devices=annotate_devices,
            key_data=([None] * len(self.hoisted) + [_key_data(a) for a, k in zip(traced.in_avals, self.keep) if k],
                      [_key_data(a) for a in traced.out_avals]),
            aliases=[None] * len(self.hoisted) + aliases, locations=locations, entry_tokens=entry_tokens)
        self.effects = jaxpr_ordered_effects(jaxpr) if entry_tokens else []
        if any(not _row_major_mode(mode) for mode in _LAYOUT_MODE.findall(self.text)):
            use_custom_layouts()  # layouts asked for, or chosen by XLA for constrained results


def located_refusal(refusal: ValueError, located_text: Callable[[], str]) -> ValueError:
    """MLIR's verifier's ``refusal`` of a program lowered without locations as it reads of the same program lowered
    with them (``located_text()``): naming where the operation refused was staged, as JAX's (another error as it
    is)."""
    if not str(refusal).startswith(_jaxlib.VERIFIER_REFUSAL):
        return refusal
    try:
        _jaxlib.pretty_module(located_text())
    except ValueError as located:
        return located
    return refusal


def host_buffer(x: Any, aval: ShapedArray, device: _jaxlib.Device, committed: bool = True,
                memory_kind: str | None = None) -> XlaArray:
    """A new array on ``device`` (in its memory of ``memory_kind``, the default one when None) holding ``x`` (a host
    value or another backend's Array) as ``aval``."""
    if isinstance(x, Array):
        value = x._value
    elif type(x) is int:
        value = dtypes.coerce_to_array(x)  # JAX's OverflowError for ints that do not fit
    else:
        value = x
    if aval.dtype == dtypes.float0:  # no data: sent as the booleans float0 lowers to, as JAX does
        aval, value = aval.update(dtype=np.dtype(np.bool_)), np.zeros(aval.shape, np.bool_)
    elif type(value) is not np.ndarray or value.dtype != aval.dtype:
        value = np.asarray(value, dtype=aval.dtype)
    return _jaxlib.device_put(value, aval, device, committed, memory_kind)


# Buffers of Python scalar arguments (steps, learning rates, ...), shared between calls: device buffers are
# immutable and executables that donate their inputs never read this cache.
_scalar_buffers: dict[tuple, _jaxlib.DeviceBuffer] = {}
_SCALAR_BUFFERS_KEPT = 1024


def _scalar_buffer(x: bool | int | float, device: _jaxlib.Device) -> _jaxlib.DeviceBuffer:
    value = x.hex() if type(x) is float else x  # -0.0 and 0.0 are different buffers
    key = (type(x), value, device, config.trace_context())
    buffer = _scalar_buffers.get(key)
    if buffer is None:
        if len(_scalar_buffers) >= _SCALAR_BUFFERS_KEPT:
            _scalar_buffers.clear()
        buffer = _scalar_buffers[key] = host_buffer(x, get_aval(x), device)
    return buffer


def to_buffer(x: Any, device: _jaxlib.Device) -> _jaxlib.DeviceBuffer:
    """The device buffer of ``x`` on ``device``, copying or transferring it there if needed."""
    if type(x) is XlaArray:
        x._check_alive()
        if x._named_sharding is not None:  # whole copies over several devices (jit's in_sharding took it)
            return host_buffer(x._value, x.aval.update(sharding=None, auto_mesh=None), device)
        if _jaxlib.buffer_device(x) == device:
            return x
        return _jaxlib.copy_to_device(x, x.aval, device)
    if isinstance(x, ExtendedArray):  # keys: their physical data
        return to_buffer(x.physical, device)
    return host_buffer(x, get_aval(x), device)


# With jax_log_compiles, each compilation reports at WARNING level, in JAX's words, so that it shows without
# logging set up.
_logger = logging.getLogger(__name__)


def _log_compiling(name: str, in_avals: Sequence[Any]) -> None:
    # JAX's argument mapping names one (unspecified) sharding per argument, printed as a tuple.
    mapping = ", ".join(["UnspecifiedValue"] * len(in_avals)) + ("," if len(in_avals) == 1 else "")
    _logger.warning("Compiling jit(%s) with global shapes and types %r. Argument mapping: (%s).", name,
                    tuple(in_avals), mapping)


class Executable:
    """A closed jaxpr compiled by XLA for one device; calling it runs it on that device.

    Its outputs are committed to the device when ``commit`` is set (``jit`` with
    ``device=`` or ``backend=``) or when any argument is committed.
    """

    compile_count = 0  # XLA compilations so far, eager and jit (what caching saves; tests count them)

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 device: _jaxlib.Device, commit: bool = False, result_shardings: Sequence[Any] = (),
                 arg_shardings: Sequence[Any] = (), layouts: tuple = ((), ())):
        """``arg_shardings`` and ``result_shardings`` (SingleDeviceShardings or None) say which memory each argument
        is read from and each result is put in, ``layouts`` which memory layouts the arguments and results take
        (see ``Program``)."""
        self.name = name
        self.device = device
        logging_compiles = config.config.jax_log_compiles
        if logging_compiles:
            _log_compiling(name, closed.in_avals)
        lowering = time.perf_counter()
        def lowered(locations: bool = False) -> Program:
            # located, as JAX compiles it: its constants inline
            return Program(closed, name, donated, keep_unused, hoist=not locations, arg_shardings=arg_shardings,
                           result_shardings=result_shardings, layouts=layouts, locations=locations,
                           entry_tokens=True)

        def located() -> tuple[Program, str]:
            """The program located, as JAX compiles it: its module's text, ``main``'s arguments named."""
            program = lowered(True)
            names = [""] * len(program.effects) + kept_arg_names(closed, program.keep)
            return program, _jaxlib.pretty_module(program.text, names)

        program = lowered()
        self._located = located
        self._located_text: str | None = None
        if logging_compiles:
            _logger.warning("Finished jaxpr to MLIR module conversion jit(%s) in %.9f sec", name,
                            time.perf_counter() - lowering)
        monitoring.record_compile_step("/jax/core/compile/jaxpr_to_mlir_module_duration", lowering, f"jit({name})")
        self._keep = program.keep
        # the ordered effects whose tokens the program takes and returns first (see effect_tokens.py)
        self._effects = program.effects
        self._all_kept = all(self._keep)
        # the memory each kept argument is read from (None: the device's default one), as in_shardings ask
        kinds = [getattr(s, "memory_kind", None) for s in arg_shardings] + [None] * (len(self._keep) - len(
            arg_shardings))
        self._arg_kinds = [None if kind == device.default_memory().kind else kind
                           for kind, kept in zip(kinds, self._keep) if kept]
        self._commit = commit
        self._donates = any(donated)
        self._one_device = clients.has_one_device()
        self.text = program.text
        # The host callbacks live as long as the executable that calls them; a program calling back into
        # Python returns only once they have run, so their effects and errors belong to the call that ran them.
        self._host_callbacks = program.host_callbacks
        self._waits = bool(program.host_callbacks)
        compiling = time.perf_counter()
        try:
            self.loaded = _jaxlib.compile(device.client, self.text, device, program.host_callbacks)
        except ValueError as refusal:
            raise located_refusal(refusal, lambda: lowered(True).text) from None
        Executable.compile_count += 1
        self._in_other_memory = any(getattr(a, "memory_space", MemorySpace.Device) is not MemorySpace.Device
                                    for a in (*closed.in_avals, *closed.out_avals))
        for inspect in program.inspections:  # inspect_array_sharding: everything is on this device, as JAX says it
            inspect(GSPMDSharding.get_replicated((device,)))
        if logging_compiles:
            _logger.warning("Finished XLA compilation of jit(%s) in %.9f sec", name, time.perf_counter() - compiling)
        monitoring.record_compile_step("/jax/core/compile/backend_compile_duration", compiling, f"jit({name})")
        self._constants = [to_buffer(c, device) for c in program.hoisted]
        self.out_avals: list[ShapedArray] = list(closed.out_avals)
        # Outputs are made committed or not as the call decides: a handler list for each. Each lives in the memory
        # the program put it in (device memory unless its type says host memory).
        memories = [None if kind == device.default_memory().kind else kind
                    for kind in _jaxlib.output_memory_kinds(self.loaded)[len(self._effects):]]
        self._in_other_memory = self._in_other_memory or any(memories)
        self._memories = memories
        # results put in another memory were placed there explicitly (out_shardings, device_put): committed
        self._commit = self._commit or any(memories)
        # the types the results carry: on one device, over no mesh (a trace of arguments over a mesh of Auto axes
        # may be shared with calls on one device); as in JAX, out_shardings of a host memory leave them typed in
        # device memory (unlike those of a partitioned program)
        self.result_avals = [physical_aval(aval).update(auto_mesh=None) for aval in self.out_avals]
        self._handlers = [[_jaxlib.result_handler(TOKEN_AVAL, device, committed)] * len(self._effects)
                          + [_jaxlib.result_handler(aval, device, committed, memory)
                             for aval, memory in zip(self.result_avals, memories)] for committed in (False, True)]
        self._extended_out = has_extended(self.out_avals)
        # float0 results carry no data: like JAX, they come back as NumPy arrays, not as device arrays
        self._float0_out = [i for i, aval in enumerate(self.out_avals) if aval.dtype == dtypes.float0]
        self._in_other_memory = self._in_other_memory or any(self._arg_kinds)
        self._plain = (self._one_device and self._all_kept and not self._constants and not self._extended_out
                       and not any(self._arg_kinds))
        self.keep = self._keep
        # Whether jaxlib's C++ dispatch can run it (fast_jit): it passes only the arguments and builds plain arrays.
        self.cpp_dispatchable = (not self._constants and not self._extended_out and not self._waits
                                 and not self._float0_out and not self._in_other_memory and not any(layouts))

    def __call__(self, *args: Any) -> list[XlaArray]:
        if self._plain:
            # The common case: device arrays on the only device, into a program that keeps all of them and has
            # no hoisted constants (a deleted array fails in execute, reported by _execute).
            buffers, committed = [], self._commit
            for a in args:
                if type(a) is XlaArray:
                    buffers.append(a)
                    committed = committed or a._committed
                elif type(a) in _PYTHON_SCALARS and not self._donates and not transfer_guard.armed:
                    buffers.append(_scalar_buffer(a, self.device))
                else:
                    return self._call_general(args)
            return self._execute(args, buffers, committed)
        return self._call_general(args)

    def _call_general(self, args: Sequence[Any]) -> list[XlaArray]:
        device = self.device
        committed = self._commit
        if not self._all_kept:
            args = [a for a, k in zip(args, self._keep) if k]
        buffers = list(self._constants) if self._constants else []
        one_device = self._one_device
        for a in args:
            # The common case inline: a device array already on this device (a deleted one fails in execute).
            if type(a) is XlaArray and (one_device or (a._named_sharding is None
                                                       and _jaxlib.buffer_device(a) == device)):
                buffers.append(a)
                committed = committed or a._committed
            else:
                if transfer_guard.armed and type(a) is not XlaArray:
                    transfer_guard.check_host_to_device(get_aval(a), device)
                if type(a) in _PYTHON_SCALARS and not self._donates:
                    buffers.append(_scalar_buffer(a, device))
                else:
                    buffers.append(to_buffer(a, device))
                    committed = committed or (type(a) is XlaArray and a._committed)
        if any(self._arg_kinds):
            buffers[len(self._constants):] = [_in_memory(b, kind, device) if kind else b
                                              for b, kind in zip(buffers[len(self._constants):], self._arg_kinds)]
        return self._execute(args, buffers, committed)

    def _execute(self, args: Sequence[Any], buffers: list[Any], committed: bool) -> list[XlaArray]:
        """The program run on ``buffers`` (made from ``args``), its outputs wrapped as arrays."""
        if self._effects:
            buffers = [*runtime_tokens.inputs(self._effects, self.device), *buffers]
        try:
            outs = _jaxlib.execute(self.loaded, buffers, self._handlers[committed], self._waits)
        except _jaxlib.XlaRuntimeError:
            for a in args:
                if type(a) is XlaArray:
                    a._check_alive()
            raise
        if self._effects:
            outs = runtime_tokens.keep_results(self._effects, outs)
        if self._float0_out:
            for i in self._float0_out:
                outs[i] = np.zeros(self.out_avals[i].shape, dtypes.float0)
        if self._extended_out:
            return [wrap_physical(b, a) for b, a in zip(outs, self.out_avals)]
        return outs

    def runtime_executable(self) -> _jaxlib.LoadedExecutable:
        return self.loaded

    def shardings(self) -> tuple[list[Any], list[Any]]:
        """The shardings of the program's arguments (None for those it prunes) and of its results."""
        device = self.device
        kinds = iter(self._arg_kinds)
        return ([_jaxlib.sharding_for(device, next(kinds)) if kept else None for kept in self._keep],
                [_jaxlib.sharding_for(device, memory) for memory in self._memories])

    def layouts(self) -> tuple[list[Any], list[Any]]:
        """jaxlib's layouts (``PjRtLayout``) of the program's arguments (None for those it prunes) and results."""
        tokens = len(self._effects)
        return (kept_layouts(self.loaded.get_parameter_layouts()[tokens + len(self._constants):], self._keep),
                list(self.loaded.get_output_layouts())[tokens:])

    def as_text(self) -> str:
        """The optimised HLO of the program as JAX compiles it: located (see ``Program``), its instructions named
        after their operations' locations and carrying their stack frames, its parameters after the arguments.
        (It runs the same program compiled unlocated, which is quicker to lower.)"""
        if self._located_text is None:
            program, text = self._located()
            located = _jaxlib.compile(self.device.client, text, self.device, program.host_callbacks,
                                      (len(self.loaded.get_parameter_layouts()) - len(self._constants),
                                       len(self.loaded.get_output_layouts())))
            self._located_text = _jaxlib.hlo_text(located)
        return self._located_text

    def cost_analysis(self) -> dict:
        """XLA's cost estimates (``flops``, ``bytes accessed``, ...)."""
        return _jaxlib.cost_analysis(self.loaded)

    def memory_analysis(self) -> Any:
        """XLA's memory use of the compiled program (argument, output, temporary sizes in bytes)."""
        return _jaxlib.memory_stats(self.loaded)


def _in_memory(buffer: _jaxlib.DeviceBuffer, kind: str, device: _jaxlib.Device) -> _jaxlib.DeviceBuffer:
    """``buffer`` in ``device``'s memory of ``kind`` (moved there if it is elsewhere)."""
    if _jaxlib.buffer_sharding(buffer) is _jaxlib.sharding_for(device, kind):
        return buffer
    return _jaxlib.copy_to_device(buffer, buffer.aval, device, buffer._committed, kind)


def kept_arg_names(closed_jaxpr: core.ClosedJaxpr, keep: Sequence[bool]) -> list[str]:
    """The names of the program's arguments (those ``keep`` keeps), as the traced function's debug info gives
    them; empty for inputs it does not name (the references a discharged program takes last)."""
    n = len(closed_jaxpr.jaxpr.invars)
    debug = closed_jaxpr.jaxpr.debug_info
    names = [name or "" for name in (debug.arg_names if debug is not None and debug.arg_names else ())]
    names = names + [""] * (n - len(names)) if len(names) <= n else [""] * n
    return [name for name, kept in zip(names, keep) if kept]


def kept_layouts(parameter_layouts: Sequence[Any], keep: Sequence[bool]) -> list[Any]:
    """The layouts of a program's ``parameter_layouts`` (its kept arguments') put where ``keep`` says, None for the
    arguments it prunes."""
    kept = iter(parameter_layouts)
    return [next(kept) if k else None for k in keep]


def _without_boundary_tokens(closed: core.ClosedJaxpr, donated: Sequence[bool]) -> tuple:
    """``closed`` with no token inputs or outputs, which XLA buffers cannot hold: token inputs are created
    inside instead (a token carries no data) and token outputs are made on the host. Returns the program, its
    donations and which inputs and outputs were tokens (None, None when none were)."""
    jaxpr = closed.jaxpr
    token_in = [type(v.aval) is AbstractToken for v in jaxpr.invars]
    token_out = [type(v.aval) is AbstractToken for v in jaxpr.outvars]
    if not any(token_in) and not any(token_out):
        return closed, donated, None, None
    created = [core.JaxprEqn([], [v], create_token_p, {}) for v, t in zip(jaxpr.invars, token_in) if t]
    jaxpr = jaxpr.replace(invars=[v for v, t in zip(jaxpr.invars, token_in) if not t], eqns=created + jaxpr.eqns,
                          outvars=[v for v, t in zip(jaxpr.outvars, token_out) if not t])
    donated = [d for d, t in zip(list(donated) + [False] * len(token_in), token_in) if not t]
    return core.ClosedJaxpr(jaxpr, closed.consts), donated, token_in, token_out


class PerDeviceExecutable:
    """A jitted function's compiled program, compiled once for each device it runs on.

    ``device`` (a Device, or a platform name from ``backend=``) pins it to one
    device, committing its outputs. Without it, it runs where its committed
    array arguments live (the default device when none is committed), as JAX does.
    """

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 device: _jaxlib.Device | str | None, result_shardings: Sequence[Any] = (),
                 arg_shardings: Sequence[Any] = (), layouts: tuple = ((), ())):
        closed, donated, self._token_in, self._token_out = _without_boundary_tokens(closed, donated)
        self._spec = (closed, name, donated, keep_unused)
        # the arguments' and results' memories (in_shardings and out_shardings of a memory kind), when no token
        # argument or result was taken out, and the layouts asked for, when no token was
        self._results = dict(result_shardings=result_shardings) if self._token_out is None else {}
        if self._token_in is None:
            self._results["arg_shardings"] = arg_shardings
        if self._token_out is None and self._token_in is None:
            self._results["layouts"] = layouts
        self._compiled: dict[_jaxlib.Device, Executable] = {}
        self.single = None
        if isinstance(device, str):
            device = clients.platform_device(device)
        if device is not None:
            self.single = Executable(*self._spec, device, commit=True, **self._results)
        elif clients.has_one_device():
            self.single = self._for(clients.default_device())

    def _for(self, device: _jaxlib.Device) -> Executable:
        executable = self._compiled.get(device)
        if executable is None:
            executable = self._compiled[device] = Executable(*self._spec, device, **self._results)
        return executable

    def compiled_for(self, device: _jaxlib.Device) -> Executable | None:
        """The program compiled for ``device``, if it was, and calls take no token arguments or results."""
        return self._compiled.get(device) if self._token_in is None and self._token_out is None else None

    def __call__(self, *args: Any) -> list[XlaArray]:
        if self._token_in is not None:
            return self._call_with_tokens(args)
        if self.single is not None:
            return self.single(*args)
        closed, name = self._spec[:2]
        return self._for(placement(args, name, closed.jaxpr.debug_info))(*args)

    @property
    def direct(self) -> Executable | PerDeviceExecutable:
        """What to call: the one device's executable when arguments need no per-call handling, else this."""
        return self.single if self.single is not None and self._token_in is None else self

    def _call_with_tokens(self, args: Sequence[Any]) -> list[Any]:
        args = [a for a, is_token in zip(args, self._token_in) if not is_token]
        closed, name = self._spec[:2]
        executable = self.single or self._for(placement(args, name, closed.jaxpr.debug_info))
        outs = iter(executable(*args))
        return [Token() if is_token else next(outs) for is_token in self._token_out]

    def _any(self) -> Executable:
        return self.single or self._for(clients.default_device())

    def runtime_executable(self) -> _jaxlib.LoadedExecutable:
        """jaxlib's executable of the device it runs on (the default device when it follows its arguments')."""
        return self._any().loaded

    def shardings(self) -> tuple[list[Any], list[Any]]:
        """The shardings of the arguments and results on the device it runs on (the default device when it follows
        its arguments'); tokens taken out of the program have none."""
        ins, outs = self._any().shardings()
        return _with_tokens(ins, self._token_in), _with_tokens(outs, self._token_out)

    def layouts(self) -> tuple[list[Any], list[Any]]:
        """The arguments' and results' layouts, as ``shardings`` gives their shardings."""
        ins, outs = self._any().layouts()
        return _with_tokens(ins, self._token_in), _with_tokens(outs, self._token_out)

    def as_text(self) -> str:
        return self._any().as_text()

    def cost_analysis(self) -> dict:
        return self._any().cost_analysis()

    def memory_analysis(self) -> Any:
        return self._any().memory_analysis()


def _with_tokens(shardings: list[Any], is_token: Sequence[bool] | None) -> list[Any]:
    """``shardings`` of the values other than tokens, with None put back where ``is_token`` says tokens were."""
    if is_token is None:
        return shardings
    rest = iter(shardings)
    return [None if token else next(rest) for token in is_token]


class PerDeviceWrapper:
    """A jitted function's callable around a PerDeviceExecutable (``_per_device``), whose compiled program its
    stages report."""

    _per_device: PerDeviceExecutable

    def as_text(self) -> str:
        return self._per_device.as_text()

    def cost_analysis(self) -> dict:
        return self._per_device.cost_analysis()

    def memory_analysis(self) -> Any:
        return self._per_device.memory_analysis()

    def shardings(self) -> tuple[list[Any], list[Any]]:
        return self._per_device.shardings()

    def layouts(self) -> tuple[list[Any], list[Any]]:
        return self._per_device.layouts()

    def runtime_executable(self) -> _jaxlib.LoadedExecutable:
        return self._per_device.runtime_executable()


class WithCompilerOptions:
    """A jitted function's executable whose programs XLA compiles with ``options`` overriding its own (jit's
    ``compiler_options``, by name): those it compiles when called or asked about (for each device or layout its
    arguments take) too."""

    def __init__(self, executable: Any, options: dict[str, Any]):
        self._executable = executable
        self._options = dict(options)

    def __call__(self, *args: Any) -> list[Any]:
        with _jaxlib.compiler_options(self._options):
            return self._executable(*args)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._executable, name)
        if not callable(value):
            return value

        @functools.wraps(value)
        def with_options(*args: Any, **kwargs: Any) -> Any:
            with _jaxlib.compiler_options(self._options):
                return value(*args, **kwargs)

        return with_options


class PinnedExecutable(PerDeviceWrapper):
    """A jitted function whose ``in_shardings``/``out_shardings`` (or a sharding constraint inside, ``constraint``)
    are SingleDeviceShardings of one device: it runs there, its results committed; arguments with an in_sharding
    are moved there, and JAX's error refuses an argument without one that is committed to another device."""

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 in_shardings: Sequence[Any], out_shardings: Sequence[Any], layouts: tuple = ((), ()),
                 placings: Sequence[tuple[str, Any]] = ()):
        self._given = pinned_devices(in_shardings, out_shardings, placings)
        self._first_kind, (self.device,), self._first_where = self._given[0]
        self._free = [one_device_of(s) is None for s in in_shardings] if in_shardings else None
        # the first argument with an in_sharding of its own (JAX words its error differently after it)
        self._first_given = next((i for i, free in enumerate(self._free or []) if not free), None)
        self._debug_info = closed.jaxpr.debug_info
        self._per_device = PerDeviceExecutable(closed, name, donated, keep_unused, self.device, out_shardings,
                                               in_shardings, layouts)
        self._name = name
        self._in = list(in_shardings)

    def __call__(self, *args: Any) -> list[XlaArray]:
        for given, a in zip(self._in, args):
            x = a.physical if isinstance(a, ExtendedArray) else a
            if given is not None and type(x) is XlaArray and x._committed:
                check_in_sharding(given, x.sharding, x.aval)
        for i, free in enumerate(self._free or [True] * len(args)):
            x = args[i].physical if isinstance(args[i], ExtendedArray) else args[i]
            if free and type(x) is XlaArray and x._committed and _jaxlib.buffer_device(x) != self.device:
                device = _jaxlib.buffer_device(x)
                # after an argument with an in_sharding, JAX names this argument's device twice
                other = device if self._first_given is not None and self._first_given < i else self.device
                if self._debug_info is None:  # a primitive run eagerly: named by the jitted call around it
                    raise mismatch_error(((ARGUMENT, (device,)), (self._first_kind, (other,), self._first_where)),
                                         [None] * len(args), [], (), self._name)
                argument = incompatible_devices(args, (i,), self._name, self._debug_info)
                raise ValueError(f"{argument} and {self._first_kind} {devices_text((other,))}{self._first_where}")
        if len(self._given) > 1:  # the arguments are checked first, as JAX's
            check_same_placements(self._given)
        return self._per_device(*args)



def pinned_devices(in_shardings: Sequence[Any], out_shardings: Sequence[Any],
                   placings: Sequence[tuple[str, Any]]) -> list[tuple[str, tuple, str]]:
    """The one-device shardings a program is given, in JAX's order (in_shardings, out_shardings, then the
    ``(what, sharding)`` placings inside it: constraints, ``device_put``s), each as JAX names it, its device (a
    tuple of one) and where it was written."""
    given = [("ARG_SHARDING", one_device_of(s), "") for s in in_shardings] + [
        ("explicit output sharding", one_device_of(s), "") for s in out_shardings] + [
        (f"{what} inside jit", one_device_of(s), f" at {staged_at(s)}") for what, s in placings]
    return [(kind, (device,), where) for kind, device, where in given if device is not None]


def check_same_placements(placed: Sequence[tuple[str, tuple, str]]) -> None:
    """JAX's error when the ``(what, devices, where)`` that place a program name different devices: the first
    against the first that differs."""
    (first_kind, first, first_where), *rest = placed
    for kind, devices, where in rest:
        if devices != first:
            raise incompatible_devices_error(f"{first_kind} {devices_text(first)}{first_where}",
                                             f"{kind} {devices_text(devices)}{where}")


def check_in_sharding(given: Any, own: Any, aval: Any) -> None:
    """JAX's errors for an argument of type ``aval`` committed to ``own`` that its in_sharding ``given`` does not
    take: in another memory, or split into other tiles (``same_tiles``; on other devices, it is moved to
    ``given``'s)."""
    if own.memory_kind != given.memory_kind:
        raise ValueError(f"Memory kinds passed to jax.jit does not match memory kind on the respective arg. Got jit "
                         f"memory kind: {given.memory_kind}, arg memory kind: {own.memory_kind} for arg type: "
                         f"{aval.str_short()}")
    if not same_tiles(own, given, aval.ndim):
        raise ValueError(f"Sharding passed to jit does not match the sharding on the respective arg. Got jit "
                         f"sharding: {given},\narg sharding: {own} for arg type: {aval.str_short()}")


def placement(args: Sequence[Any], name: str, debug_info: Any = None) -> _jaxlib.Device:
    """The device committed arguments agree on (the default device if none is committed)."""
    chosen = unusable = None
    for x in args:
        x = x.physical if isinstance(x, ExtendedArray) else x
        if type(x) is XlaArray and x._committed:
            # an array XLA left on one device of a partitioned program counts as on all of them (JAX's check of
            # the devices comes first, then its refusal of that layout)
            devices = x._maximal._device_assignment if x._maximal is not None else (_jaxlib.buffer_device(x),)
            unusable = unusable or x._maximal
            if chosen is None:
                chosen = devices
            elif devices != chosen:
                raise _mismatch(((ARGUMENT, tuple(chosen)), (ARGUMENT, tuple(devices))), committed_shardings(args),
                                [get_aval(a) for a in args], name, debug_info, True)
    if unusable is not None:
        raise unconvertible_error(unusable)
    return chosen[0] if chosen else clients.default_device()


def incompatible_devices(args: Sequence[Any], which: Sequence[int], name: str, debug_info: Any) -> str:
    """JAX's message for arguments ``which`` of a jitted function committed to different devices (the function
    named by its qualified name, as JAX names it there)."""
    described = []
    for i in which:
        x = args[i].physical if isinstance(args[i], ExtendedArray) else args[i]
        described.append(described_argument(i, args[i].aval, x.sharding._device_assignment, name, debug_info))
    return "Received incompatible devices for jitted computation. Got " + " and ".join(described)


def committed_shardings(args: Sequence[Any]) -> list[Any]:
    """The sharding each of ``args`` is committed to (None for one that is not, or is not an array)."""
    physical = [x.physical if isinstance(x, ExtendedArray) else x for x in args]
    return [x.sharding if type(x) is XlaArray and x._committed else None for x in physical]


def check_context_devices(mesh: Any, in_shardings: Sequence[Any], out_shardings: Sequence[Any],
                          own: Sequence[Any], avals: Sequence[Any], name: str, debug_info: Any,
                          qualified: bool = True) -> None:
    """JAX's error when, under ``set_mesh`` of ``mesh``, a program's sharding lies on other devices than the mesh's
    (or on the same ones in another order): first the arguments' (``in_shardings``, each argument's in_sharding
    given, else the sharding it is committed to, else None), then ``out_shardings``. An argument's is named by the
    first argument whose own sharding (``own``; ``avals`` their types) lies on those devices, as JAX names it."""
    devices = tuple(mesh._flat_devices_tuple)
    for kind, shardings in ((ARGUMENT, in_shardings), ("explicit output sharding", out_shardings)):
        for sharding in shardings:
            if sharding is None or isinstance(getattr(sharding, "mesh", None), AbstractMesh) or tuple(
                    sharding._device_assignment) == devices:
                continue  # no devices named (a layout over the mesh set), or the mesh's
            raise _mismatch(((CONTEXT, devices), (kind, tuple(sharding._device_assignment))), own, avals, name,
                            debug_info, qualified)


def check_same_devices(shardings: Sequence[tuple[str, Any]], own: Sequence[Any], avals: Sequence[Any], name: str,
                       debug_info: Any, qualified: bool = True) -> None:
    """JAX's error when the shardings of a jitted program (each ``(kind, sharding)`` in JAX's order: the
    arguments', each an in_sharding given or where a committed argument lies, as ``ARGUMENT``; then the explicit
    output shardings; None for none) lie on different devices: the first against the first that differs, each
    described by the first argument (``own``: where each lies, committed or not; ``avals``: their types) lying on
    its devices when it is an argument's (the function named as ``described_argument`` names it)."""
    first = None
    for kind, sharding in shardings:
        if sharding is None or isinstance(getattr(sharding, "mesh", None), AbstractMesh):
            continue
        devices = tuple(sharding._device_assignment)
        if first is None:
            first = (kind, devices)
        elif devices != first[1]:
            raise _mismatch((first, (kind, devices)), own, avals, name, debug_info, qualified)


def _mismatch(fails: Sequence[tuple[str, tuple]], own: Sequence[Any], avals: Sequence[Any], name: str,
              debug_info: Any, qualified: bool) -> ValueError:
    places = [None if s is None else tuple(s._device_assignment) for s in own]
    names = getattr(debug_info, "arg_names", ()) or ()
    return mismatch_error(fails, places, avals, names, _function_name(name, debug_info, qualified))


def _function_name(name: str, debug_info: Any, qualified: bool) -> str:
    """A jitted function as JAX's device errors name it: by its qualified name (as a call's errors do), else by
    its own (as lowering's do)."""
    return getattr(debug_info, "qualified_name" if qualified else "func_name", name)


def described_argument(i: int, aval: Any, devices: Sequence[Any], name: str, debug_info: Any,
                       qualified: bool = True) -> str:
    """How JAX's device errors name argument ``i`` of a jitted function, of type ``aval``, on ``devices``: the
    function by its qualified name (as a call's errors name it), else by its own (as lowering's do)."""
    names = getattr(debug_info, "arg_names", ()) or ()
    arg_name = names[i] if i < len(names) else f"args[{i}]"
    return (f"argument {arg_name} of {_function_name(name, debug_info, qualified)} with shape {aval.str_short()} "
            f"and {devices_text(devices)}")
