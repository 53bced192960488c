"""The XLA implementation of core's Backend protocol, registered when ``jaxle_xla`` is imported.

Eager dispatch compiles each primitive once per (params, input avals, device)
and caches the executable; execution is asynchronous, so nothing waits until a
value is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core import config, core
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.caches import LruCache
from jaxle_core.device_mismatch import ARGUMENT, devices_text
from jaxle_core.discharge import discharge_jaxpr, jaxpr_uses_refs
from jaxle_core.extended import ExtendedArray, evaluated_on_data, physical_sharding, physicalize, wrap_physical
from jaxle_core.jaxpr_util import host_functions
from jaxle_core.jit import jit_p, unused_inputs, without_unused
from jaxle_core.lax.placement import device_put_p, reshard_p, sharding_constraint_p, staged_at
from jaxle_core.lax.slicing import dynamic_slice_p, slice_p
from jaxle_core.lax.structural import convert_element_type_p
from jaxle_core.memory_spaces import MemorySpace, space_of_kind
from jaxle_core.mesh import Mesh, PartitionSpec, get_mesh
from jaxle_core.shard_map import evaluate_per_equation, runs_per_equation, shard_map_p
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import (
    explicit_context,
    keeps_no_layout,
    result_layout_operands,
    spec_of,
    typed_aval,
    typing_eagerly,
)
from jaxle_core.staging import trace_to_jaxpr
from jaxle_xla import _jaxlib, clients, eager_constraints, sharded_array, transfer_guard
from jaxle_xla.array import XlaArray, laid_out, share_host_value, view
from jaxle_xla.executable import (
    Executable,
    PerDeviceExecutable,
    PinnedExecutable,
    Program,
    WithCompilerOptions,
    check_context_devices,
    check_in_sharding,
    check_same_devices,
    check_same_placements,
    described_argument,
    host_buffer,
    kept_arg_names,
    located_refusal,
    pinned_devices,
    placement,
)
from jaxle_xla.sharding import (
    GSPMDSharding,
    HloNamedSharding,
    SingleDeviceSharding,
    hlo_sharding_text,
    incompatible_devices_error,
    named_from_hlo,
    one_device_of,
    program_placement,
    same_placement,
)
from jaxle_xla.spmd import (
    FollowShardings,
    SpmdFunction,
    has_sharded_argument,
    jaxpr_mesh,
    one_device_placings,
    params_mesh,
    placing_shardings,
    program_mesh,
    result_layouts,
    typed_mesh,
)

_HOST_COPY_BYTES = 4096
_WEAK_SCALARS_KEPT = 1024


def _jaxpr_key(value: Any) -> Any:
    """A jaxpr-valued param by its text, types (the text omits weak types), constants' identities and the functions
    it calls back (kept alive by the key): control flow re-traces its bodies on every eager call, and equal bodies
    must reuse one executable."""
    if isinstance(value, core.ClosedJaxpr):
        return (str(value.jaxpr), tuple(value.in_avals), tuple(value.out_avals), tuple(map(id, value.consts)),
                tuple(host_functions(value.jaxpr)))
    if isinstance(value, tuple) and any(isinstance(v, core.ClosedJaxpr) for v in value):  # named tuples too
        return type(value).__name__, tuple(map(_jaxpr_key, value))
    return value


def _params_key(params: dict) -> tuple:
    return tuple([(name, _jaxpr_key(value)) for name, value in params.items()])


def _primitive_jaxpr(primitive: core.Primitive, avals: tuple, params: dict) -> core.ClosedJaxpr:
    """The jaxpr of one application of ``primitive``, for compiling it eagerly."""

    def apply(*xs):
        out = primitive.bind(*xs, **params)
        return list(out) if primitive.multiple_results else [out]

    with typing_eagerly():
        closed = trace_to_jaxpr(apply, avals, None)
    if jaxpr_uses_refs(closed.jaxpr):  # references made and used inside (a branch's), discharged as a jit's are
        closed = discharge_jaxpr(closed.jaxpr, closed.consts)
    return closed


def _in_other_memory(x: Any) -> bool:
    """Whether ``x`` is an array of one device outside that device's default memory."""
    return (type(x) is XlaArray and x._named_sharding is None and x._maximal is None
            and _jaxlib.buffer_sharding(x) is not _jaxlib.sharding_for(_jaxlib.buffer_device(x)))



def _to_device_memory(destination: Any) -> bool:
    """Whether a ``device_put`` to ``destination`` puts on one device, in its default memory."""
    return type(destination) is _jaxlib.Device or (
        isinstance(destination, SingleDeviceSharding) and destination.memory_kind in (None, "device"))


def _moves_now(destination: Any) -> bool:
    """Whether a ``device_put`` to ``destination`` run eagerly moves values there: to one device's default memory,
    or laid out by a NamedSharding over a mesh of devices (in any memory)."""
    return _to_device_memory(destination) or (isinstance(destination, NamedSharding)
                                              and isinstance(destination.mesh, Mesh))


def _placements(shardings: Sequence[Any]) -> tuple:
    """jit's in_shardings or out_shardings with each GSPMDSharding as the NamedSharding placing arrays so."""
    return tuple(map(program_placement, shardings))


def _eager_out_shardings(primitive: core.Primitive, params: dict) -> list[Any] | None:
    """The layouts of an eager ``shard_map``'s results as JAX's: its out specs as written, over a mesh whose axes
    are all manual (None otherwise, or over the context mesh: the types or the partitioner say); of an eager
    constraint to a GSPMDSharding, that layout (over a mesh of its own, which the partitioner does not carry
    the constraint out to); of another constraint, its sharding as written."""
    if primitive is sharding_constraint_p:
        if isinstance(params["sharding"], GSPMDSharding):
            return [program_placement(params["sharding"])]
        return eager_constraints.result_shardings(params["sharding"])
    mesh = _eager_mesh(params) if primitive is shard_map_p else None
    if mesh is None or len(params["newly_manual_axes"]) != len(mesh.axis_names):
        return None
    return [NamedSharding(mesh, spec) for spec in params["out_specs"]]


def _eager_mesh(params: dict) -> Mesh | None:
    """The concrete mesh an eager ``shard_map`` runs over, as JAX's: its own, or for an abstract one the mesh set by
    ``set_mesh`` (None when there is none)."""
    mesh = params["mesh"]
    if isinstance(mesh, Mesh):
        return mesh
    context = get_mesh()
    return None if context.empty else context


def _lowering_mesh(closed: core.ClosedJaxpr, name: str, in_shardings: Sequence[Any], out_shardings: Sequence[Any],
                   pinned: bool, arg_shardings: Sequence[Any] = ()) -> Mesh | None:
    """The mesh a program given these shardings (``_placements``) is partitioned over (None: not partitioned):
    the one they name, else the mesh set by ``set_mesh`` unless ``pinned`` to jit's device; under ``set_mesh``,
    JAX's error for a sharding on other devices than the mesh's (an argument's named by ``arg_shardings``, where
    each argument lies)."""
    mesh = program_mesh(closed, (*in_shardings, *out_shardings))
    context = get_mesh()
    if pinned or context.empty or clients.has_one_device():
        return mesh
    check_context_devices(context, in_shardings, out_shardings, arg_shardings or [None] * len(closed.in_avals),
                          closed.in_avals, name, closed.jaxpr.debug_info, qualified=False)
    return context if mesh is None or mesh == context else mesh


def _check_placings(closed: core.ClosedJaxpr, name: str, given: Sequence[Any], out_shardings: Sequence[Any],
                    arg_shardings: Sequence[Any]) -> None:
    """JAX's errors, when a program is lowered, for the devices the constraints and ``device_put``s inside it place
    it on (``placing_shardings``): an argument committed to other devices (without an in_sharding ``given``) is
    named against the first placement elsewhere, then the first placement (one-device in_shardings and
    out_shardings first) against the first of other devices."""
    inside = [(f"{what} inside jit", tuple(s._device_assignment), f" at {staged_at(s)}")
              for what, s in placing_shardings(closed)]
    if not inside:
        return
    placed = pinned_devices(given, out_shardings, []) + inside
    for i, (own, aval) in enumerate(zip(arg_shardings, closed.in_avals)):
        if own is None or (i < len(given) and given[i] is not None):
            continue
        other = next((p for p in placed if p[1] != tuple(own._device_assignment)), None)
        if other is not None:
            raise incompatible_devices_error(
                described_argument(i, aval, own._device_assignment, name, closed.jaxpr.debug_info, qualified=False),
                f"{other[0]} {devices_text(other[1])}{other[2]}")
    check_same_placements(placed)


def _typed_by_out_specs(params: dict) -> bool:
    """Whether JAX types the eager results of a shard_map by its out_specs alone: over a mesh of Explicit and Auto
    axes, manual over some of them only."""
    mesh = _eager_mesh(params)
    return (mesh is not None and 0 < len(mesh.explicit_axes) < len(mesh.axis_names)
            and len(params["newly_manual_axes"]) < len(mesh.axis_names))


def _named_by_shortest_spec(params: dict) -> bool:
    """Whether JAX names the layouts of an eager shard_map's results by the shortest spec (never by an argument's
    sharding as written): over a mesh of Auto axes only, manual over some of them (JAX's jitted program then takes
    the body's stacked results, no argument of the shard_map)."""
    mesh = _eager_mesh(params)
    return (mesh is not None and not mesh.explicit_axes
            and len(params["newly_manual_axes"]) < len(mesh.axis_names))


def _by_shortest_spec(x: Any) -> Any:
    """The eager result ``x``, its layout named by the shortest spec."""
    layout = x._named_sharding if type(x) is XlaArray else None
    if type(layout) is not NamedSharding:
        return x
    hlo = _jaxlib.hlo_sharding(hlo_sharding_text(layout, x.ndim))
    shortest = named_from_hlo(hlo, layout.mesh, x.ndim).spec
    if shortest == layout.spec:
        return x
    return share_host_value(x, laid_out(_jaxlib.sharded_view(x, x.aval), layout.update(spec=shortest)))


def _typed_by_manual_axes(x: Any, manual: frozenset) -> Any:
    """The eager result ``x`` of a shard_map typed as JAX's: its type naming the manual axes only, and its layout,
    where it is the one that type gives, named by the type's spec (one entry per dimension)."""
    typed = getattr(get_aval(x), "explicit_sharding", None)
    if type(x) is not XlaArray or x._named_sharding is None or typed is None:
        return x
    entries = [tuple(a for a in ((e,) if isinstance(e, str) else e or ()) if a in manual) for e in typed.spec]
    spec = PartitionSpec(*[None if not e else e[0] if len(e) == 1 else e for e in entries],
                         unreduced=typed.spec.unreduced, reduced=typed.spec.reduced)
    layout, as_typed = x._named_sharding, NamedSharding(x._named_sharding.mesh, spec)
    if hlo_sharding_text(as_typed, x.ndim) == hlo_sharding_text(layout, x.ndim):
        layout = as_typed
    aval = x.aval.update(sharding=NamedSharding(typed.mesh, spec))
    return share_host_value(x, laid_out(_jaxlib.sharded_view(x, aval), layout))


def _placed(x: Any) -> bool:
    """Whether ``x`` is an array placed on purpose (laid out over a mesh, or committed to its device), whose type
    names a layout; host values and uncommitted arrays name none."""
    x = x.physical if isinstance(x, ExtendedArray) else x
    return isinstance(x, Array) and (type(x) is not XlaArray or x.committed)


def _as_dynamic_slice(operand: Any, params: dict) -> tuple[core.Primitive, list[Any], dict]:
    """An eager unstrided ``slice`` of ``operand`` as JAX 0.10.2 evaluates it: a ``dynamic_slice`` from its start
    indices, whose rules type (and refuse) it and whose program lays its result out (replicated, over Auto
    axes)."""
    starts = params["start_indices"]
    sizes = tuple(np.array(params["limit_indices"]) - np.array(starts))  # NumPy integers, as JAX's messages show
    return dynamic_slice_p, [operand, *starts], dict(slice_sizes=sizes)


class XlaBackend:
    """Runs primitives and jaxprs with XLA on the default platform's devices."""

    platform = "xla"

    def __init__(self):
        self._eager = LruCache()
        self._unused = LruCache()  # the arguments each jitted program applied eagerly prunes
        self._only_device: _jaxlib.Device | None = None  # set on first use when there is a single device
        self._several_devices = False
        self._weak_scalars: dict[tuple, XlaArray] = {}

    # -- eager dispatch

    def apply_primitive(self, primitive: core.Primitive, args: Sequence[Any], params: dict) -> Any:
        if primitive is jit_p and not clients.has_one_device():
            # as a jitted call's (JAX's), the arguments its program does not read place nothing
            key = (params["jaxpr"], params["keep_unused"])
            unused = self._unused.lookup(key)
            if unused is None:
                unused = self._unused[key] = unused_inputs(params["jaxpr"], params["keep_unused"])
            args = without_unused(args, unused)
        if primitive is shard_map_p and runs_per_equation(params):
            return evaluate_per_equation(args, **params)
        if primitive is convert_element_type_p:
            eager_constraints.check_divides(args[0], params["sharding"])
        if primitive is sharding_constraint_p:
            eager_constraints.check_devices(args[0], params["sharding"])
            if isinstance(params["sharding"], SingleDeviceSharding):  # committed to that device
                return self.device_put(args[0], params["sharding"], get_aval(args[0]).weak_type)
        if primitive is device_put_p and all(map(_moves_now, params["devices"])):
            # run eagerly (under a transformation), a put to a device (or its sharding) or a mesh's layout moves the
            # values there, committed, as JAX's: a transfer, not a program placed there
            return [self.device_put(x, d, get_aval(x).weak_type) for x, d in zip(args, params["devices"])]
        avals = tuple([get_aval(x) for x in args])
        if self._only_device is None and (has_sharded_argument(args) or params_mesh(params) is not None
                                          or not get_mesh().empty
                                          or (core.type_shardings is not None and explicit_context())):
            if primitive is slice_p and params["strides"] is None:
                primitive, args, params = _as_dynamic_slice(args[0], params)
                avals = tuple([get_aval(x) for x in args])
            return self._apply_partitioned(primitive, args, params, avals)
        device = self._only_device or self._place(args, primitive.name)
        try:
            # the flags that change tracing (x64, jax_threefry_partitionable, ...) change the compiled program
            key = (primitive, _params_key(params), avals, device, config.trace_context())
            executable = self._eager.lookup(key)
        except TypeError:  # unhashable params: compile without caching
            key, executable = None, None
        if executable is None:
            executable = self._compile_primitive(primitive, avals, params, device)
            if key is not None:
                self._eager[key] = executable
        outs = executable(*args)
        return outs if primitive.multiple_results else outs[0]

    def _place(self, args: Sequence[Any], name: str) -> _jaxlib.Device:
        """The device to run on: the only one there is, or the one committed arguments agree on."""
        if not self._several_devices:
            if clients.has_one_device():
                self._only_device = clients.default_device()
                return self._only_device
            self._several_devices = True
        return placement(args, name)

    def _apply_partitioned(self, primitive: core.Primitive, args: Sequence[Any], params: dict, avals: tuple) -> Any:
        """``primitive`` on arguments laid out over several devices, partitioned as they are."""
        # host values and uncommitted arrays only (nothing placed on purpose), typed over no layout as in JAX:
        # results of the rules that keep it are laid out as XLA chose (replicated, P()) rather than an entry per
        # dimension
        # (per group of results taking the same operands' layouts)
        host_only = tuple(not any(map(_placed, operands)) for operands in result_layout_operands(primitive, args)) \
            if keeps_no_layout(primitive, len(args)) else ()
        # equal shardings may be spelled differently, and a constraint's result reports its sharding as written
        spelling = tuple(getattr(params["sharding"], "spec", ())) if primitive is sharding_constraint_p else None
        key = (primitive, _params_key(params), avals, SpmdFunction, host_only, spelling, config.trace_context())
        function = self._eager.lookup(key)
        if function is None:
            context = get_mesh()  # part of the trace context, hence of the key
            if primitive is reshard_p and isinstance(params["dst_sharding"].mesh, Mesh):
                context = params["dst_sharding"].mesh  # a reshard runs over its sharding's mesh, as JAX's
            closed = _primitive_jaxpr(primitive, avals, params)
            if primitive in evaluated_on_data:  # a program of the physical data, whose results are plain arrays
                closed = physicalize(closed)
            out_shardings = _eager_out_shardings(primitive, params)
            if out_shardings is None and any(host_only) and not context.empty:
                # a result its type splits (an out_sharding parameter) keeps that layout
                per_result = host_only if len(host_only) > 1 else host_only * len(closed.out_avals)
                out_shardings = [None if any(spec_of(aval)) or not unplaced else NamedSharding(context, PartitionSpec())
                                 for aval, unplaced in zip(closed.out_avals, per_result)]
            function = self._eager[key] = SpmdFunction(closed, primitive.name, (), True, None, out_shardings,
                                                       context=None if context.empty else context)
        outs = function(*args)
        if primitive in evaluated_on_data:  # the data wrapped as the primitive's results
            out_avals = core.abstract_eval(primitive, avals, params)
            outs = [wrap_physical(x, aval) for x, aval in
                    zip(outs, out_avals if primitive.multiple_results else [out_avals])]
        if primitive is shard_map_p and _typed_by_out_specs(params):
            outs = [_typed_by_manual_axes(x, params["newly_manual_axes"]) for x in outs]
        elif primitive is shard_map_p and _named_by_shortest_spec(params):
            outs = [_by_shortest_spec(x) for x in outs]
        return outs if primitive.multiple_results else outs[0]

    def _compile_primitive(self, primitive, avals, params, device) -> Executable | PinnedExecutable:
        """The program of one application of ``primitive`` on ``device``; where it places its values on one device
        (a sharding constraint or ``device_put`` inside a jitted function that a transformation runs eagerly), a
        program run there, its results committed, as JAX's."""
        closed = _primitive_jaxpr(primitive, avals, params)
        placings = one_device_placings(closed)
        if placings:
            return PinnedExecutable(closed, primitive.name, (), True, (), (), placings=placings)
        return Executable(closed, primitive.name, (), True, device)

    # -- jit

    def compile(self, closed_jaxpr: core.ClosedJaxpr, name: str, donated_invars: Sequence[bool],
                keep_unused: bool, device: Any, in_shardings: Sequence[Any] = (),
                out_shardings: Sequence[Any] = (), layouts: tuple = ((), ()),
                compiler_options: dict[str, Any] | None = None) -> Any:
        """``device``: a Device, a platform name (``jit(backend=...)``), or None to follow the arguments.
        NamedShardings (asked for, or named by sharding constraints inside) partition the program over a mesh;
        ``layouts`` are the arguments' and results' memory layouts asked for; ``compiler_options`` override XLA's
        options by name for every program compiled for it (``WithCompilerOptions``)."""
        if compiler_options:
            with _jaxlib.compiler_options(compiler_options):
                executable = self.compile(closed_jaxpr, name, donated_invars, keep_unused, device, in_shardings,
                                          out_shardings, layouts)
            return WithCompilerOptions(executable, compiler_options)
        spec = (closed_jaxpr, name, donated_invars, keep_unused)
        in_shardings, out_shardings = _placements(in_shardings), _placements(out_shardings)
        context = get_mesh()
        # under set_mesh a program is partitioned over the mesh's devices, whatever its arguments, as JAX's (which
        # refuses any sharding on other devices: those of one device among them)
        if ((device is None and context.size > 1 and not clients.has_one_device())
                or any(isinstance(s, NamedSharding) for s in (*in_shardings, *out_shardings))
                or jaxpr_mesh(closed_jaxpr) or (core.type_shardings is not None and typed_mesh(
                    closed_jaxpr, unused_inputs(closed_jaxpr, keep_unused)))):
            return SpmdFunction(*spec, in_shardings or None, out_shardings or None,
                                context=None if context.empty else context, memory_layouts=layouts)
        placings = one_device_placings(closed_jaxpr) if device is None else []
        if device is None and (placings or any(one_device_of(s) is not None for s in (*in_shardings, *out_shardings))):
            return PinnedExecutable(*spec, in_shardings, out_shardings, layouts, placings)
        if device is None and not context.empty and not clients.has_one_device():  # a mesh of one device
            return SpmdFunction(*spec, context=context, memory_layouts=layouts)
        executable = PerDeviceExecutable(*spec, device, layouts=layouts)
        if device is None and not clients.has_one_device():
            return FollowShardings(executable, *spec)
        return executable.direct  # one device: skip the per-device lookup on every call

    def check_lowering(self, closed_jaxpr: core.ClosedJaxpr, name: str, in_shardings: Sequence[Any] = (),
                       out_shardings: Sequence[Any] = (), pinned: bool = False,
                       arg_shardings: Sequence[Any] = (), given: Sequence[Any] = ()) -> None:
        """``lower_text``'s refusals, without lowering, as JAX's ``lower`` makes them: a committed argument its
        in_sharding (``given``) does not take; shardings on different devices (under ``set_mesh``, on devices
        other than the mesh's), an argument's, an output's, a sharding constraint's."""
        avals = closed_jaxpr.in_avals
        for explicit, own, aval in zip(_placements(given), arg_shardings, avals):
            if explicit is not None and own is not None:
                check_in_sharding(explicit, own, aval)
        in_shardings, out_shardings = _placements(in_shardings), _placements(out_shardings)
        _lowering_mesh(closed_jaxpr, name, in_shardings, out_shardings, pinned, arg_shardings)
        if not pinned:
            check_same_devices([(ARGUMENT, s) for s in in_shardings]
                               + [("explicit output sharding", s) for s in out_shardings], arg_shardings, avals,
                               name, closed_jaxpr.jaxpr.debug_info, qualified=False)
        for what, sharding in placing_shardings(closed_jaxpr):
            eager_constraints.refuse_outside_context_mesh(sharding, what)
        if not pinned and get_mesh().empty:
            _check_placings(closed_jaxpr, name, _placements(given), out_shardings, arg_shardings)

    def lower_text(self, closed_jaxpr: core.ClosedJaxpr, name: str, donated_invars: Sequence[bool] = (),
                   keep_unused: bool = False, in_shardings: Sequence[Any] = (),
                   out_shardings: Sequence[Any] = (), dialect: str | None = None, debug_info: bool = False,
                   layouts: tuple = ((), ()), result_names: Sequence[str] = (), pinned: bool = False,
                   aliases: Sequence[int | None] = (), equations_pruned: bool = False) -> str:
        """The StableHLO module of ``closed_jaxpr``, every constant inline, in MLIR's readable form ('hlo': XLA's
        HLO text); partitioned (its boundary annotated with Shardy shardings) when shardings over a mesh are asked
        for or inside. With ``debug_info``, locations: ``main``'s arguments carry their names (the HLO's
        parameters their metadata), operations where their equations were staged (XLA names the HLO's
        instructions after them, with or without ``debug_info``, as JAX's). ``result_names`` are the results'
        ``jax.result_info``.
        One-device shardings (and with ``pinned`` every argument and result) are annotated over the empty mesh,
        as JAX writes them. ``aliases``: the output each input must alias (None: where its donation lets it);
        ``equations_pruned``: only unused inputs are pruned (see ``Program``)."""
        if dialect not in (None, "stablehlo", "hlo"):
            raise ValueError(f"unknown dialect: {dialect}")
        in_shardings, out_shardings = _placements(in_shardings), _placements(out_shardings)
        mesh = _lowering_mesh(closed_jaxpr, name, in_shardings, out_shardings, pinned)
        results = result_layouts(closed_jaxpr, mesh, out_shardings)
        if pinned and mesh is None:  # jit's device= or backend=: each argument and result is on that one device
            on_device = _jaxlib.sharding_for(clients.default_device())
            in_shardings = [s if s is not None else on_device
                            for s in list(in_shardings) or [None] * len(closed_jaxpr.in_avals)]
            results = [s if s is not None else on_device for s in results]
        elif mesh is None and any(a is not None for a in aliases):
            # as JAX's, the arrays of references (arguments and final values) are annotated as on one device
            on_device = _jaxlib.sharding_for(clients.default_device())
            in_shardings = list(in_shardings) or [None] * len(closed_jaxpr.in_avals)
            results = list(results) or [None] * len(closed_jaxpr.out_avals)
            for i, alias in enumerate(aliases):
                if alias is not None:
                    in_shardings[i] = in_shardings[i] if in_shardings[i] is not None else on_device
                    results[alias] = results[alias] if results[alias] is not None else on_device
        elif mesh is not None and any(a is not None for a in aliases):
            # over a mesh, the array of a reference passed in is annotated with its type's layout, as JAX's
            in_shardings = list(in_shardings) or [None] * len(closed_jaxpr.in_avals)
            for i, alias in enumerate(aliases):
                if alias is not None and in_shardings[i] is None:
                    in_shardings[i] = getattr(closed_jaxpr.in_avals[i], "explicit_sharding", None)
        def lowered(locations: bool) -> Program:
            return Program(closed_jaxpr, name, donated_invars, keep_unused, hoist=False, mesh=mesh,
                           arg_shardings=in_shardings, result_shardings=results, layouts=layouts,
                           result_names=result_names, annotate_devices=True, aliases=aliases,
                           equations_pruned=equations_pruned, locations=locations, entry_tokens=True)

        # XLA names the HLO's instructions after the operations' locations, with or without debug_info (as JAX's)
        program = lowered(debug_info or dialect == "hlo")
        arg_names = [""] * len(program.effects) + kept_arg_names(closed_jaxpr, program.keep)
        try:
            if dialect != "hlo":
                return _jaxlib.pretty_module(program.text, arg_names if debug_info else None)
            # and its parameters after the arguments' locations
            return _jaxlib.hlo_module_text(_jaxlib.pretty_module(program.text, arg_names, generic=True),
                                           metadata=debug_info)
        except ValueError as refusal:
            raise located_refusal(refusal, lambda: lowered(True).text) from None

    def compiler_ir(self, program_text: str, dialect: str | None) -> Any:
        return _jaxlib.compiler_ir(program_text, dialect)

    def cost_analysis(self, program_text: str) -> Any:
        return _jaxlib.module_cost_analysis(clients.get_client(), program_text)

    # -- devices

    def device_put(self, x: Any, device: Any = None, weak_type: bool = False) -> XlaArray:
        """``x`` on ``device`` (committed), or uncommitted on the default device when None; ``device`` may be a
        NamedSharding, laying ``x`` out over its devices."""
        if isinstance(device, NamedSharding):
            return self._put_sharded(x, device, weak_type)
        # put on a device itself (not its sharding), an array laid out over a mesh keeps its type (mesh and layout),
        # as in JAX
        keeps_type = type(device) is _jaxlib.Device
        kept_type = None
        if type(device) is _jaxlib.DeviceSharding:
            if device is not _jaxlib.sharding_for(device._device) or _in_other_memory(x):
                return self._put_in_memory(x, device, weak_type)
            device = device._device
        elif isinstance(device, MemorySpace):
            return self._put_in_memory(x, device, weak_type)
        if type(x) is XlaArray and (x._named_sharding is not None or x._maximal is not None):
            if device is None:
                return x
            kept_type = x.aval if keeps_type and x._named_sharding is not None else None
            x = x._value  # gathered, then put on the one device
        if type(x) is XlaArray:
            if device is None:
                return x
            x._check_alive()
            if _jaxlib.buffer_device(x) == device and not _in_other_memory(x):
                return view(x, x.aval, True)  # the host value already read stays valid: arrays are immutable
            # to the device's own memory, typed as it was (as JAX's jnp.asarray(x, device=d) of a host array)
            return share_host_value(x, _jaxlib.copy_to_device(x, x.aval, device))
        if isinstance(x, ExtendedArray):  # keys: their physical data moved, then viewed as keys again
            return x.aval.dtype.wrap(self.device_put(x.physical, device))
        if transfer_guard.armed and not isinstance(x, Array):
            aval = get_aval(x)
            transfer_guard.check_host_to_device(aval.update(weak_type=weak_type) if weak_type else aval,
                                                clients.default_device() if device is None else device)
        if weak_type and device is None and type(x) is np.ndarray and x.ndim == 0:
            return self._weak_scalar(x)
        aval = get_aval(x) if kept_type is None else kept_type
        if weak_type != aval.weak_type and not isinstance(x, Array):
            aval = aval.update(weak_type=weak_type)
        target = clients.default_device() if device is None else device
        array = host_buffer(x, aval, target, device is not None)
        if aval.size * aval.dtype.itemsize <= _HOST_COPY_BYTES and target.platform == "cpu":
            # jaxlib looks jax up by name when a transferred CPU buffer is first read; small arrays
            # keep their host value instead, so reading them back never goes near that path.
            host = np.array(x._value if isinstance(x, Array) else x, dtype=aval.dtype)
            host.flags.writeable = False
            array._npy_value = host
        return array

    def _put_in_memory(self, x: Any, destination: Any, weak_type: bool) -> Any:
        """``x`` committed to a memory: a SingleDeviceSharding's device and memory kind, or a ``MemorySpace`` of
        ``x``'s device (the default device for a host value)."""
        if isinstance(x, ExtendedArray):
            return x.aval.dtype.wrap(self._put_in_memory(x.physical, destination, False))
        single = type(x) is XlaArray and x._named_sharding is None and x._maximal is None
        if isinstance(destination, MemorySpace):
            if destination is MemorySpace.Any:
                raise AssertionError("unreachable")  # JAX's error: no memory is chosen for Any
            device = _jaxlib.buffer_device(x) if single else clients.default_device()
            kind = "pinned_host" if destination is MemorySpace.Host else device.default_memory().kind
        else:
            device, kind = destination._device, destination.memory_kind
        if single:
            x._check_alive()
            aval = x.aval.update(memory_space=space_of_kind(kind))
            if _jaxlib.buffer_sharding(x) is _jaxlib.sharding_for(device, kind):
                return view(x, aval, True)
            return share_host_value(x, _jaxlib.copy_to_device(x, aval, device, True, kind))
        aval = get_aval(x)
        if weak_type != aval.weak_type and not isinstance(x, Array):
            aval = aval.update(weak_type=weak_type)
        return host_buffer(x, aval.update(memory_space=space_of_kind(kind)), device, True, kind)

    def lay_out_all(self, xs: Sequence[Any], shardings: Sequence[NamedSharding]) -> list[Any]:
        put = self._put_sharded
        return [x if type(x) is XlaArray and x._named_sharding is s else put(x, s, False)
                for x, s in zip(xs, shardings)]

    def _put_sharded(self, x: Any, sharding: NamedSharding, weak_type: bool) -> Any:
        if type(x) is XlaArray:
            named = x._named_sharding
            if named is sharding:  # the common case of a pmap's argument: already laid out so
                return x
            placed = x._placed
            if placed is not None and placed[0] is sharding:
                x._check_alive()
                return x if placed[1] is None else placed[1]
        if isinstance(x, ExtendedArray):  # keys: their data laid out as they are, each key's data whole
            sharded_array.check_layout(sharding, x.aval.shape)  # JAX's errors name the keys' shape
            return wrap_physical(self._put_sharded(x.physical, physical_sharding(sharding, x.aval), False), x.aval)
        aval = get_aval(x)
        if weak_type != aval.weak_type and not isinstance(x, Array):
            aval = aval.update(weak_type=weak_type)
        if (type(x) is XlaArray and x._named_sharding is not None
                and x._named_sharding.memory_kind == sharding.memory_kind
                and same_placement(x._named_sharding, sharding, aval.ndim)):
            # Remembered on the array for its next call (arrays are immutable; a view shares deletion with it).
            if x._named_sharding == sharding:
                x._placed = (sharding, None)
                return x
            # the same buffers under the new sharding's name (as a pmap's output fed to a pmap of another axis)
            x._check_alive()
            renamed = share_host_value(x, laid_out(_jaxlib.sharded_view(x, typed_aval(x.aval.update(sharding=None),
                                                                                       sharding)), sharding))
            x._placed = (sharding, renamed)
            return renamed
        value = np.asarray(x._value if isinstance(x, Array) else x, dtype=aval.dtype)
        aval = aval.update(memory_space=space_of_kind(sharding.memory_kind))
        if type(sharding) is not HloNamedSharding:  # a GSPMDSharding's arrays are typed over no mesh, as JAX's
            aval = typed_aval(aval, sharding)
        return laid_out(sharded_array.put(value, aval, sharding), sharding)

    def _weak_scalar(self, value: np.ndarray) -> XlaArray:
        """A weakly typed scalar constant (a promoted Python scalar) on the default device, transferred once.

        These arrays only ever feed lax operations, so one buffer per value is shared.
        """
        key = (value.dtype, value.tobytes())
        array = self._weak_scalars.get(key)
        if array is None or array.is_deleted():
            if len(self._weak_scalars) >= _WEAK_SCALARS_KEPT:
                self._weak_scalars.clear()
            aval = get_aval(value).update(weak_type=True)
            array = host_buffer(value, aval, clients.default_device(), False)
            host = np.array(value)
            host.flags.writeable = False
            array._npy_value = host
            self._weak_scalars[key] = array
        return array

    def device_sharding(self, device: Any) -> SingleDeviceSharding:
        """The sharding of ``device`` alone (for a platform name, its first device)."""
        return SingleDeviceSharding(clients.platform_device(device) if isinstance(device, str) else device)

    def devices(self) -> list[Any]:
        return clients.devices()

    def from_process_local(self, x: Any, sharding: NamedSharding) -> XlaArray:
        from jaxle_xla.make_array import make_array_from_process_local_data

        return make_array_from_process_local_data(sharding, x)

    def process_local_part(self, x: Any) -> Any:
        from jaxle_xla.multihost import global_array_to_host_local_array

        if type(x) is not XlaArray or x._named_sharding is None or x._named_sharding.is_fully_addressable:
            return x
        return global_array_to_host_local_array(x, x._named_sharding.mesh, x._named_sharding.spec)
