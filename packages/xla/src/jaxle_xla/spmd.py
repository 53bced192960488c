"""Programs partitioned over a mesh's devices by XLA's SPMD partitioner (Shardy).

A jitted function (or an eager primitive) runs this way when it is given shardings (``in_shardings``,
``out_shardings``, ``with_sharding_constraint``) or when an argument is laid out over several devices. It is
compiled once per layout of its arguments: explicit in_shardings first, then each argument's own NamedSharding;
uncommitted arguments are replicated over the mesh. Results carry the layouts the partitioner chose (or the
out_shardings asked for), named over the mesh.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import Any

import numpy as np

from jaxle_core import core
from jaxle_core.array import Array
from jaxle_core.avals import get_aval
from jaxle_core.callbacks import errors_kept
from jaxle_core.device_mismatch import ARGUMENT, devices_text
from jaxle_core.extended import (
    ExtendedArray,
    has_extended,
    logical_sharding,
    physical_aval,
    physical_sharding,
    wrap_physical,
)
from jaxle_core.jit import jit_p
from jaxle_core.lax.placement import device_put_p, leaves_layout_open, reshard_p, sharding_constraint_p, staged_at
from jaxle_core.memory_spaces import space_of_kind
from jaxle_core.mesh import AbstractMesh, AxisType, Mesh, get_abstract_mesh, get_mesh
from jaxle_core.sharding import NamedSharding, Sharding
from jaxle_core.sharding_types import no_context_mesh_error, places, typed_aval
from jaxle_xla import _jaxlib, clients, sharded_array
from jaxle_xla.array import XlaArray, laid_out, name_layout
from jaxle_xla.executable import (
    Executable,
    PerDeviceWrapper,
    Program,
    check_context_devices,
    check_in_sharding,
    check_same_devices,
    committed_shardings,
    incompatible_devices,
    kept_layouts,
    located_refusal,
)
from jaxle_xla.sharding import (
    GSPMDSharding,
    HloNamedSharding,
    PartitionerMesh,
    gspmd_sharding,
    hlo_sharding_text,
    maximal_sharding,
    named_from_hlo,
    one_device_of,
    partitioner_layout,
    program_placement,
    public_sharding,
    same_placement,
    unconvertible_error,
)

__all__ = ["FollowShardings", "SpmdFunction", "concrete_mesh", "has_sharded_argument",
           "jaxpr_mesh", "one_device_placings", "params_mesh", "placing_shardings", "program_mesh", "result_layouts",
           "typed_mesh"]


def _physical(x: Any) -> Any:
    return x.physical if isinstance(x, ExtendedArray) else x


def has_sharded_argument(args: Sequence[Any]) -> bool:
    """Whether any argument is an array laid out over several devices."""
    return any(type(x) is XlaArray and x._named_sharding is not None for x in map(_physical, args))


def _meshes_of_params(params: dict) -> Any:
    mesh = params.get("mesh")  # a shard_map's, over several devices
    if isinstance(mesh, Mesh) and mesh.size > 1:
        yield mesh
    for value in params.values():
        for v in value if isinstance(value, tuple) else (value,):
            if isinstance(v, NamedSharding):
                if not v.mesh.empty:  # one over the empty mesh (vmap's broadcast of a constant) names none
                    yield v.mesh
            elif isinstance(v, GSPMDSharding):
                yield program_placement(v).mesh
            elif isinstance(v, core.ClosedJaxpr):
                yield from _meshes_of(v.jaxpr)
            elif isinstance(v, core.Jaxpr):
                yield from _meshes_of(v)


def _meshes_of(jaxpr: core.Jaxpr) -> Any:
    for eqn in jaxpr.eqns:
        if eqn.primitive is reshard_p and leaves_layout_open(eqn.params["dst_sharding"]):
            continue
        if eqn.primitive in (sharding_constraint_p, reshard_p, jit_p) or any(
                isinstance(v, (core.Jaxpr, core.ClosedJaxpr, tuple)) for v in eqn.params.values()):
            yield from _meshes_of_params(eqn.params)


def jaxpr_mesh(closed: core.ClosedJaxpr) -> Mesh | None:
    """The mesh of the first NamedSharding a sharding constraint (or nested jit) of ``closed`` names, or of its
    first shard_map."""
    return next(_meshes_of(closed.jaxpr), None)


def _placing_shardings(jaxpr: core.Jaxpr) -> Any:
    for eqn in jaxpr.eqns:
        if eqn.primitive is sharding_constraint_p:
            yield "sharding_constraint", eqn.params["sharding"]
        elif eqn.primitive is jit_p:  # its boundary constrained to one device (a jit's device=)
            yield from (("sharding_constraint", s) for s in (*eqn.params["in_shardings"], *eqn.params["out_shardings"])
                        if one_device_of(s) is not None)
        elif eqn.primitive is device_put_p:
            yield from (("device_put", d) for d in eqn.params["devices"]
                        if isinstance(d, Sharding) and not isinstance(getattr(d, "mesh", None), AbstractMesh))
        for value in eqn.params.values():
            for v in value if isinstance(value, tuple) else (value,):
                if isinstance(v, core.ClosedJaxpr):
                    yield from _placing_shardings(v.jaxpr)
                elif isinstance(v, core.Jaxpr):
                    yield from _placing_shardings(v)


def placing_shardings(closed: core.ClosedJaxpr) -> Any:
    """``(what, sharding)`` for every sharding constraint (``"sharding_constraint"``) and every ``device_put`` to a
    sharding over devices (``"device_put"``) of ``closed`` and of the jaxprs inside it, in order: what JAX places
    a program by besides its arguments and results."""
    return _placing_shardings(closed.jaxpr)


def one_device_placings(closed: core.ClosedJaxpr) -> list[tuple[str, Any]]:
    """Those of ``placing_shardings`` to one device, which JAX runs the program on (``pinned_device``)."""
    return [(what, s) for what, s in _placing_shardings(closed.jaxpr) if one_device_of(s) is not None]


def params_mesh(params: dict) -> Mesh | None:
    """The mesh of the first NamedSharding an equation's ``params`` (or the jaxprs among them) name."""
    return next(_meshes_of_params(params), None)


def typed_mesh(closed: core.ClosedJaxpr, unused: Container[int] = ()) -> AbstractMesh | None:
    """The mesh of Explicit axes that ``closed``'s argument (other than the ``unused`` ones) or result types are
    laid out over, if any."""
    for aval in (*[a for i, a in enumerate(closed.in_avals) if i not in unused], *closed.out_avals):
        sharding = getattr(aval, "explicit_sharding", None)
        if sharding is not None:
            return sharding.mesh
    return None


def _current_mesh(typed: AbstractMesh | None) -> Mesh | None:
    """The mesh set by ``set_mesh`` when its axes are ``typed``'s; None otherwise (the arguments' layouts then say)."""
    current = get_mesh()
    return current if typed is not None and not current.empty and current.abstract_mesh == typed else None


def _typed_layout(aval: Any, mesh: Mesh) -> NamedSharding | None:
    """The layout ``aval``'s type gives a result over ``mesh``: None when it has none, or when the type's mesh has
    axes of other types too and some dimension of the result is split over none (the partitioner lays it out, as
    JAX's)."""
    sharding = getattr(aval, "explicit_sharding", None)
    if sharding is None:
        return None
    entries = tuple(sharding.spec)[:aval.ndim]
    if len(sharding.mesh.explicit_axes) != len(sharding.mesh.axis_names) and (len(entries) < aval.ndim
                                                                             or None in entries):
        return None
    return NamedSharding(mesh, sharding.spec)


def result_layouts(closed: core.ClosedJaxpr, mesh: Mesh | None, given: Sequence[Any]) -> list[Any]:
    """The layouts of ``closed``'s results partitioned over ``mesh``: the out_shardings ``given``, else those
    their types carry (JAX's jit gives the results those shardings; keys' data is laid out as the keys, each key's
    data whole), else None (the partitioner's choice)."""
    given = list(given) or [None] * len(closed.out_avals)
    if mesh is None:
        return given
    typed = [_typed_layout(aval, mesh) for aval in closed.out_avals]
    return [physical_sharding(s, aval) if isinstance(s, NamedSharding) else s if s is not None
            else t if t is None else physical_sharding(t, aval)
            for s, t, aval in zip(given, typed, closed.out_avals)]


def _typed_over(aval: Any) -> AbstractMesh | None:
    """The mesh of several devices ``aval``'s type is laid out over (None for none)."""
    sharding = getattr(aval, "explicit_sharding", None)
    return sharding.mesh if sharding is not None and sharding.mesh.size > 1 else None


def program_mesh(closed: core.ClosedJaxpr, shardings: Sequence[Any]) -> Mesh | None:
    """The mesh a program is partitioned over: that of the first NamedSharding of ``shardings``, of one it names
    inside, or (types laid out over Explicit axes) the mesh set by ``set_mesh``."""
    named = [s for s in shardings if isinstance(s, NamedSharding)]
    mesh = named[0].mesh if named else jaxpr_mesh(closed)
    if isinstance(mesh, AbstractMesh) and get_mesh().empty:
        if any(_typed_over(a) == mesh for a in closed.in_avals):
            return None  # an argument laid out over the mesh names its devices (the arguments' layouts say)
        typed = next((a for a in (*closed.in_avals, *closed.out_avals) if _typed_over(a) is not None), None)
        if typed is not None:  # JAX's error: a program of typed values with no arrays or mesh naming its devices
            raise no_context_mesh_error(typed)
    return concrete_mesh(mesh) or _current_mesh(typed_mesh(closed))


def concrete_mesh(mesh: Mesh | AbstractMesh | None) -> Mesh | None:
    """``mesh``, or for an abstract mesh (a PartitionSpec constraint under ``set_mesh``) the mesh set."""
    if not isinstance(mesh, AbstractMesh):
        return mesh
    current = get_mesh()
    if current.empty and mesh.size == 1:  # the one device a program without a mesh runs on fills it, as in JAX
        return Mesh(np.array([clients.default_device()]).reshape(mesh.axis_sizes), mesh.axis_names, mesh.axis_types)
    # the axis types may differ (auto_axes and explicit_axes retype the axes of the mesh set): same devices
    if current.empty or (current.axis_names, current.axis_sizes) != (mesh.axis_names, mesh.axis_sizes):
        raise ValueError(f"a sharding over {mesh} needs a mesh of the same axes and devices set by jax.set_mesh; "
                         f"the current mesh is {current}")
    return current


def _device_ids(x: Any) -> list[int]:
    return [d.id for d in x.sharding._device_assignment]


class SpmdFunction:
    """A jitted function run partitioned over a mesh, compiled once per layout of its arguments."""

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 in_shardings: Sequence[Any] | None = None, out_shardings: Sequence[Any] | None = None,
                 context: Mesh | None = None, memory_layouts: tuple = ((), ())):
        """``context``: the mesh set by ``set_mesh`` (or that of an eager reshard's destination), which the program
        runs over when neither it nor its arguments name one (every argument then replicated over it); as JAX's
        jit under a context mesh, it refuses an argument, an in_sharding or an out_sharding on other devices (or in
        another order); ``memory_layouts``: the arguments' and results' layouts in memory
        asked for (see ``Program``)."""
        self._spec = (closed, name, donated, keep_unused)
        self._memory_layouts = memory_layouts
        self._context = context
        self._in = list(in_shardings or [None] * len(closed.in_avals))
        self._out = list(out_shardings or [None] * len(closed.out_avals))
        self._mesh = program_mesh(closed, self._in + self._out)
        self._compiled: dict[tuple, SpmdExecutable] = {}
        self.last: SpmdExecutable | None = None  # the compilation the latest call ran (what C++ dispatch may run)

    def __call__(self, *args: Any) -> list[Any]:
        layouts = self._layouts(args)
        key = _compilation_key(layouts)
        executable = self._compiled.get(key)
        if executable is None:
            # no arguments: the mesh the program names, else the context's
            mesh = next((s.mesh for s in layouts if s is not None), self._mesh or self._context)
            executable = self._compiled[key] = SpmdExecutable(*self._spec, mesh, layouts, self._out,
                                                                  self._memory_layouts)
        self.last = executable
        return executable(args)

    def _latest(self) -> SpmdExecutable:
        """The compilation the latest call ran, else the one for the in_shardings given (arguments without one
        laid out as XLA's partitioner chooses)."""
        if self.last is None:
            layouts, own_mesh = _read_beside(self._in, (), self._spec[0])
            mesh = own_mesh or self._mesh or next((s.mesh for s in layouts if s is not None), self._context)
            layouts = tuple(layouts)
            self.last = self._compiled.get(_compilation_key(layouts)) or self._compiled.setdefault(
                _compilation_key(layouts), SpmdExecutable(*self._spec, mesh, layouts, self._out, self._memory_layouts))
        return self.last

    def as_text(self) -> str:
        """XLA's optimised HLO of the compilation (``_latest``)."""
        return _jaxlib.hlo_text(self._latest().loaded)

    def cost_analysis(self) -> dict:
        """XLA's cost estimates of the compilation (``_latest``)."""
        return _jaxlib.cost_analysis(self._latest().loaded)

    def memory_analysis(self) -> Any:
        """XLA's memory use of the compilation (``_latest``)."""
        return _jaxlib.memory_stats(self._latest().loaded)

    def shardings(self) -> tuple[list[Any], list[Any]]:
        """The arguments' and results' shardings of the compilation (``_latest``)."""
        return self._latest().shardings()

    def layouts(self) -> tuple[list[Any], list[Any]]:
        """The arguments' and results' layouts of the compilation (``_latest``)."""
        return self._latest().layouts()

    def runtime_executable(self) -> _jaxlib.LoadedExecutable:
        """jaxlib's executable of the compilation (``_latest``)."""
        return self._latest().loaded

    def _layouts(self, args: Sequence[Any]) -> tuple[NamedSharding | None, ...]:
        """Each argument's layout: its explicit in_sharding (a committed argument must be split alike, on any
        devices: it is moved there), its own NamedSharding, or None (an argument not committed anywhere, laid out
        as XLA's partitioner chooses); every other committed argument must be on the mesh's devices."""
        mesh, anchor = self._mesh, None
        closed, name = self._spec[:2]
        physical = [_physical(a) for a in args]
        for x, explicit in zip(physical, self._in):
            committed = type(x) is XlaArray and x._committed
            if committed and x._maximal is not None:
                raise unconvertible_error(x._maximal)
            if explicit is not None and committed:
                check_in_sharding(explicit, x._named_sharding or x.sharding, x.aval)
        own, avals = committed_shardings(args), [get_aval(a) for a in args]
        placed = [e if e is not None else o for e, o in zip(self._in, own)]
        if self._context is not None:  # every sharding must lie on its devices, in its order
            check_context_devices(self._context, placed, self._out, own, avals, name, closed.jaxpr.debug_info)
        check_same_devices([(ARGUMENT, s) for s in placed] + [("explicit output sharding", s) for s in self._out],
                           [x.sharding if type(x) is XlaArray else None for x in physical], avals, name,
                           closed.jaxpr.debug_info)
        chosen: list[NamedSharding | None] = []
        for i, (x, explicit) in enumerate(zip(physical, self._in)):
            if explicit is not None and type(x) is XlaArray and x._committed:
                explicit = _moved_layout(explicit, x._named_sharding)
            layout = program_placement(explicit or (x._named_sharding if type(x) is XlaArray else None))
            if layout is not None:
                mesh = mesh or layout.mesh
                anchor = i if anchor is None and type(x) is XlaArray and x._committed else anchor
            chosen.append(layout)
        chosen, own_mesh = _read_beside(chosen, physical, closed)
        mesh = own_mesh or mesh or self._context
        if mesh is None:
            raise ValueError(f"{name}: no mesh to partition over")
        mesh_ids = [d.id for d in mesh._flat_devices_tuple]
        for i, (x, layout) in enumerate(zip(physical, chosen)):
            ids = [d.id for d in layout.mesh._flat_devices_tuple] if layout is not None else \
                _device_ids(x) if type(x) is XlaArray and x._committed else mesh_ids
            if ids != mesh_ids:
                placing = None if anchor is not None else _placing_over(closed, mesh)
                if placing is not None:  # no argument chose the mesh: a sharding constraint (or device_put) did
                    raise ValueError(f"{incompatible_devices(args, (i,), name, closed.jaxpr.debug_info)} and "
                                     f"{placing[0]} inside jit {devices_text(mesh._flat_devices_tuple)} at "
                                     f"{staged_at(placing[1])}")
                raise ValueError(incompatible_devices(args, (i if anchor is None else anchor, i), name,
                                                      closed.jaxpr.debug_info))
        return tuple(chosen)


def _moved_layout(given: Any, own: NamedSharding | None) -> Any:
    """The layout of a committed argument laid out ``own`` that its in_sharding ``given`` moves from a mesh of
    other axes (names, sizes or types), as JAX reads it: its own spec over a mesh of its own axes on ``given``'s
    devices, or, from a mesh of more devices (whole copies alike), as a GSPMDSharding; ``given`` when ``own`` is
    over a mesh of the same axes, or either is no NamedSharding (a GSPMDSharding's layout names no mesh)."""
    if not isinstance(given, NamedSharding) or not isinstance(own, NamedSharding) or isinstance(
            given, HloNamedSharding) or isinstance(own, HloNamedSharding) or not isinstance(given.mesh, Mesh) \
            or own.mesh.abstract_mesh == given.mesh.abstract_mesh:
        return given
    devices = given.mesh.devices
    if devices.size != own.mesh.size:
        return GSPMDSharding.get_replicated(given._device_assignment, memory_kind=given.memory_kind)
    mesh = Mesh(devices.reshape(own.mesh.axis_sizes), own.mesh.axis_names, axis_types=own.mesh.axis_types)
    return NamedSharding(mesh, own.spec, memory_kind=given.memory_kind)


def _placing_over(closed: core.ClosedJaxpr, mesh: Mesh) -> tuple[str, NamedSharding] | None:
    """The first of ``placing_shardings`` of ``closed`` that is a NamedSharding over ``mesh``'s devices, if any."""
    return next(((what, s) for what, s in placing_shardings(closed) if isinstance(s, NamedSharding)
                 and getattr(s.mesh, "_flat_devices_tuple", None) == mesh._flat_devices_tuple), None)


def _read_beside(layouts: Sequence[Any], args: Sequence[Any], closed: core.ClosedJaxpr) -> tuple[list, Mesh | None]:
    """``layouts`` of ``closed``'s arguments with the GSPMDShardings' placements read over the mesh another layout
    names (``_mesh_named_beside``), as JAX reads them, and that mesh (None: left as they are)."""
    own_mesh = _mesh_named_beside(layouts, args, closed)
    if own_mesh is None:
        return list(layouts), None
    return [_over(s, own_mesh, physical_aval(aval).ndim) if type(s) is HloNamedSharding else s
            for s, aval in zip(layouts, closed.in_avals)], own_mesh


def _mesh_named_beside(layouts: Sequence[Any], args: Sequence[Any], closed: core.ClosedJaxpr) -> Mesh | None:
    """The mesh of the first of ``layouts`` (or, for a program ``closed`` typed over Explicit axes, of an
    argument's own layout over those axes) that is not a GSPMDSharding's, when some layout is a GSPMDSharding's."""
    if not any(type(s) is HloNamedSharding for s in layouts):
        return None
    typed = typed_mesh(closed)
    meshes = [s.mesh for s in layouts if s is not None and not isinstance(s.mesh, PartitionerMesh)]
    if typed is not None:
        meshes += [x._named_sharding.mesh for x in args if type(x) is XlaArray and x._named_sharding is not None
                   and x._named_sharding.mesh.abstract_mesh == typed]
    return meshes[0] if meshes else None


def _over(sharding: HloNamedSharding, mesh: Mesh, ndim: int) -> NamedSharding:
    """The NamedSharding over ``mesh`` laying a rank-``ndim`` array out as ``sharding`` does."""
    if mesh._flat_devices_tuple != sharding._device_assignment:
        return sharding  # other devices: refused as such
    try:
        return named_from_hlo(hlo_sharding_text(sharding, ndim), mesh, ndim)
    except ValueError:  # no PartitionSpec over ``mesh`` names it
        return sharding


def _compilation_key(layouts: Sequence[NamedSharding | None]) -> tuple:
    """The key of a compilation for arguments of ``layouts``, their specs as written included: a result laid out
    as an argument is named by that argument's very sharding (P('x') and P('x', None) lay an array out alike, but
    JAX reports each as given)."""
    return tuple(layouts), tuple(None if s is None else tuple(s.spec) for s in layouts)


class SpmdExecutable:
    """One partitioned compilation: the arguments' layouts fixed (those not given chosen by XLA's partitioner, as
    JAX leaves an argument without an in_sharding or a layout of its own), the results' chosen by XLA where not
    given."""

    def __init__(self, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool], keep_unused: bool,
                 mesh: Mesh, layouts: Sequence[NamedSharding | None], out_shardings: Sequence[Any],
                 memory_layouts: tuple = ((), ())):
        self._devices = devices = mesh._flat_devices_tuple
        out_shardings = result_layouts(closed, mesh, out_shardings)

        def compiled(arg_layouts: Sequence[NamedSharding | None]) -> tuple[Program, _jaxlib.LoadedExecutable]:
            def lowered(locations: bool = False) -> Program:
                return Program(closed, name, donated, keep_unused, hoist=False, mesh=mesh, arg_shardings=arg_layouts,
                               result_shardings=out_shardings, layouts=memory_layouts, locations=locations)

            program = lowered()
            open_parameters = [s is None for s, k in zip(arg_layouts, program.keep) if k]
            Executable.compile_count += 1
            try:
                return program, _jaxlib.compile_spmd(devices[0].client, program.text, devices,
                                                     program.host_callbacks, open_parameters)
            except ValueError as refusal:
                raise located_refusal(refusal, lambda: lowered(True).text) from None

        program, self.loaded = compiled(layouts)
        asked = layouts
        layouts = _propagated(self.loaded, mesh, layouts, program.keep, closed.in_avals)
        # JAX names the layouts XLA chose for the arguments over the mesh of an argument's sharding; when no argument
        # has one (the mesh set by set_mesh, or one the program names), it reports XLA's own (GSPMDSharding)
        self._reported_layouts = layouts if any(s is not None for s in asked) else [
            GSPMDSharding(devices, hlo) if hlo is not None else None
            for hlo in _kept_values(_jaxlib.parameter_hlo_shardings(self.loaded, sum(program.keep)), program.keep)]
        chosen = _jaxlib.output_hlo_shardings(self.loaded, len(closed.out_avals))
        # the memory each result lives in (None: the devices' default memory)
        kinds = [None if kind == devices[0].default_memory().kind else kind
                 for kind in _jaxlib.output_memory_kinds(self.loaded)]
        self._keep = program.keep
        self._layouts = [s for s, k in zip(layouts, program.keep) if k]
        self._in_avals = [physical_aval(a) for a, k in zip(closed.in_avals, program.keep) if k]
        self.text = program.text
        # The host callbacks live as long as the executable; a call returns once they have run (as on one device).
        self._host_callbacks = program.host_callbacks
        self.out_avals = list(closed.out_avals)
        # the results' types name the mesh when its axes are Auto (over Explicit axes their layouts say it; a
        # GSPMDSharding's mesh is not named, as in JAX)
        auto_mesh = None if AxisType.Explicit in mesh.axis_types or isinstance(mesh, PartitionerMesh) \
            else mesh.abstract_mesh
        physical = [physical_aval(a).update(auto_mesh=auto_mesh, memory_space=kind and space_of_kind(kind))
                    for a, kind in zip(self.out_avals, kinds)]
        # a result laid out as out_shardings asks over a mesh with Explicit axes is typed so (JAX's jaxpr keeps the
        # traced type; the array has the layout's)
        physical = [typed_aval(a, given) if isinstance(given, NamedSharding) and given.mesh.explicit_axes else a
                    for a, given in zip(physical, out_shardings)]
        # An output laid out as an argument is named by that argument's very NamedSharding, which lets the next
        # call recognise it by identity (pmap's loops: the parameters out are the parameters in); as JAX's, an
        # argument of the same rank only, and keys' data names keys' data only.
        arguments = {(s, physical_aval(a).ndim, has_extended([a])): s for s, a in zip(layouts, closed.in_avals)}
        # XLA leaves the result of a host callback called outside shard_map on the one device that ran it (a
        # maximal layout): it becomes a committed array there, reported as JAX's GSPMDSharding({maximal device=0})
        self._on_one_device = [given is None and hlo.is_maximal() and not hlo.is_replicated()
                               for given, hlo in zip(out_shardings, chosen)]
        self._device_index = [hlo.tile_assignment_devices()[0] if one else None
                              for one, hlo in zip(self._on_one_device, chosen)]
        placed = _placed_outputs(closed.jaxpr)
        self._out_shardings = [_in_memory(_reported_over(given, mesh, aval.ndim), kind) if given is not None
                               else None if one else
                               _in_memory(_chosen_layout(hlo, mesh, aval, typed, arguments), kind)
                               for given, one, hlo, aval, typed, kind in zip(
                                   out_shardings, self._on_one_device, chosen, physical, self.out_avals, kinds)]
        if mesh.explicit_axes and get_abstract_mesh() == mesh.abstract_mesh:
            # as JAX's arrays, results are typed by their layouts over the context mesh (inside auto_axes its axes
            # are Auto, and values laid out over them untyped)
            physical = [a if p else _typed_as_laid_out(a, s) for a, s, p in zip(physical, self._out_shardings, placed)]
        self.result_avals = physical
        self.out_layouts = [_jaxlib.gspmd_sharding(devices, hlo, kind) for hlo, kind in zip(chosen, kinds)]
        for layout, named in zip(self.out_layouts, self._out_shardings):
            name_layout(layout, named)
        self._handlers = [_jaxlib.sharded_result_handler(aval, layout) for aval, layout
                          in zip(physical, self.out_layouts)]
        self._extended_out = has_extended(self.out_avals)
        self.in_layouts = [gspmd_sharding(s, aval.ndim) for s, aval in zip(self._layouts, self._in_avals)]
        self.keep = self._keep
        # Whether jaxlib's C++ dispatch can run it (fast_jit): arrays already laid out as the program reads them in,
        # plain arrays out, one result per output.
        self.cpp_dispatchable = (not self._extended_out and not any(donated) and not program.host_callbacks
                                 and not any(self._on_one_device) and not any(memory_layouts))

    def __call__(self, args: Sequence[Any]) -> list[Any]:
        kept = [_physical(a) for a, k in zip(args, self._keep) if k]
        buffers = [self._buffer(x, aval, layout) for x, aval, layout in zip(kept, self._in_avals, self._layouts)]
        try:
            outs = _jaxlib.execute(self.loaded, buffers, self._handlers, bool(self._host_callbacks), errors_kept())
        except _jaxlib.XlaRuntimeError:
            for x in kept:
                if type(x) is XlaArray:
                    x._check_alive()
            raise
        arrays = [laid_out(b, s) if s is not None else _on_its_device(b, self._devices, i)
                  for b, s, i in zip(outs, self._out_shardings, self._device_index)]
        if self._extended_out:
            return [wrap_physical(x, a) for x, a in zip(arrays, self.out_avals)]
        return arrays

    def shardings(self) -> tuple[list[Any], list[Any]]:
        """The arguments' layouts (None for those the program prunes) and the results' (a result XLA leaves on one
        device by its GSPMDSharding)."""
        return ([public_sharding(s) if k else None for s, k in zip(self._reported_layouts, self._keep)],
                [public_sharding(s) if s is not None else layout
                 for s, layout in zip(self._out_shardings, self.out_layouts)])

    def layouts(self) -> tuple[list[Any], list[Any]]:
        """jaxlib's layouts of the arguments (None for those the program prunes) and of the results."""
        return (kept_layouts(self.loaded.get_parameter_layouts(), self._keep),
                list(self.loaded.get_output_layouts()))

    @staticmethod
    def _buffer(x: Any, aval: Any, layout: NamedSharding) -> _jaxlib.DeviceBuffer:
        """``x`` laid out as ``layout``: its own buffer when it already is, else its value put there."""
        if type(x) is XlaArray:
            x._check_alive()
            if x._named_sharding is not None and same_placement(x._named_sharding, layout, aval.ndim):
                return x
        value = x._value if isinstance(x, Array) else x
        if type(value) is not np.ndarray or value.dtype != aval.dtype:
            value = np.asarray(value, dtype=aval.dtype)
        return sharded_array.put(value, aval.update(weak_type=get_aval(x).weak_type), layout)

    def as_text(self) -> str:
        return _jaxlib.hlo_text(self.loaded)


def _kept_values(values: Sequence[Any], keep: Sequence[bool]) -> list[Any]:
    """``values`` (one per kept argument) spread over all the arguments, None for those ``keep`` prunes."""
    kept = iter(values)
    return [next(kept) if k else None for k in keep]


def _propagated(loaded: _jaxlib.LoadedExecutable, mesh: Mesh, layouts: Sequence[NamedSharding | None],
                keep: Sequence[bool], avals: Sequence[Any]) -> list[NamedSharding | None]:
    """``layouts`` with each argument left open (None) named by the layout XLA's partitioner gave it (a pruned
    argument keeps None; one no NamedSharding over ``mesh`` names is reported as JAX reports it: where another
    argument is laid out, JAX names it over that mesh as it names a result, else it places it as XLA laid it out)."""
    if None not in layouts:
        return list(layouts)
    named = any(layout is not None for layout in layouts)
    chosen = iter(_jaxlib.parameter_hlo_shardings(loaded, sum(keep)))
    resolved = []
    for layout, kept, aval in zip(layouts, keep, avals):
        hlo = next(chosen) if kept else None
        if layout is None and hlo is not None:
            layout = partitioner_layout(hlo, mesh, aval.ndim, result=named)
        resolved.append(layout)
    return resolved


def _chosen_layout(hlo: Any, mesh: Mesh, aval: Any, typed: Any, arguments: dict) -> NamedSharding:
    """XLA's layout of a result named over ``mesh``, as JAX names it: a result typed with a layout (over a mesh
    with Explicit axes) that XLA laid out as its type says is named by its type (one entry per dimension); any
    other is named by the shortest spec, or over a mesh of Auto axes only by the very NamedSharding of an
    argument laid out so (``arguments``: by layout, rank and whether it holds keys' data). Keys' data is laid out
    as JAX's jit lays it out: the keys' layout so named (an argument's keys' sharding, an entry per dimension, else
    the shortest spec), then a ``None`` for each dimension of a key."""
    named = partitioner_layout(hlo, mesh, aval.ndim)
    sharding = getattr(typed, "explicit_sharding", None)
    if sharding is None:
        keys = has_extended([typed])
        argument = arguments.get((named, aval.ndim, keys))
        if keys and isinstance(named, NamedSharding):
            logical = logical_sharding(argument, typed) if argument is not None else named.update(
                spec=named.spec.update(partitions=tuple(named.spec)[:typed.ndim]))
            return physical_sharding(logical, typed)
        return named if argument is None else argument
    as_typed = NamedSharding(mesh, sharding.spec)
    return as_typed if hlo_sharding_text(as_typed, aval.ndim) == hlo_sharding_text(named, aval.ndim) else named


def _placed_outputs(jaxpr: core.Jaxpr) -> list[bool]:
    """Which outputs of ``jaxpr`` a placing equation (a reshard, a constraint) gives the type it asks for (untyped
    over axes it makes Auto): their types stay."""
    placing = {id(v) for e in jaxpr.eqns if places(e.primitive) for v in e.outvars}
    return [id(v) in placing for v in jaxpr.outvars]


def _typed_as_laid_out(aval: Any, sharding: NamedSharding | None) -> Any:
    """A result's type as its layout says: a value traced over no mesh (a constant) or whose type names a layout
    XLA did not keep (the batch of a vmapped shard_map over Explicit axes beside Auto ones) is typed by the layout
    XLA chose. A type with unreduced or reduced axes, which no layout shows, stays."""
    typed = getattr(aval, "explicit_sharding", None)
    if sharding is None or (typed is not None and (typed.spec.unreduced or typed.spec.reduced)):
        return aval
    return typed_aval(aval.update(sharding=None), sharding)


def _reported_over(given: NamedSharding, mesh: Mesh, ndim: int) -> NamedSharding:
    """The layout a result laid out by the out_sharding ``given`` reports in a program over ``mesh``: a
    GSPMDSharding's read over a mesh of named axes, as JAX reads it (``partitioner_layout``)."""
    if type(given) is not HloNamedSharding or isinstance(mesh, PartitionerMesh):
        return given
    return partitioner_layout(given.gspmd._hlo_sharding, mesh, ndim)


def _in_memory(sharding: NamedSharding, kind: str | None) -> NamedSharding:
    """``sharding`` in the memory of ``kind`` (its own when None)."""
    return sharding if kind is None else sharding.with_memory_kind(kind)


def _on_its_device(buffer: _jaxlib.DeviceBuffer, devices: Sequence[Any], index: int) -> XlaArray:
    """A result XLA left on one device only (a maximal layout: the ``index``-th of the program's ``devices``): the
    program's array as XLA laid it out, reporting JAX's layout of it (which no computation takes, jitted calls'
    C++ dispatch included: no compiled program reads that layout)."""
    buffer._maximal = maximal_sharding(devices, index)
    return buffer


class FollowShardings(PerDeviceWrapper):
    """A jitted function's per-device executable, or its partitioned form when an argument spans several
    devices (as JAX's jit follows its committed arguments' shardings)."""

    def __init__(self, per_device: Any, closed: core.ClosedJaxpr, name: str, donated: Sequence[bool],
                 keep_unused: bool):
        self._per_device = per_device
        self._spec = (closed, name, donated, keep_unused)
        self._partitioned: SpmdFunction | None = None

    per_device = property(lambda self: self._per_device)

    @property
    def last(self) -> SpmdExecutable | None:
        """The partitioned compilation the latest call ran, if it was partitioned."""
        return self._partitioned.last if self._partitioned is not None else None

    def __call__(self, *args: Any) -> list[Any]:
        # a mesh set by set_mesh is part of the trace context: a function compiled under one is called under it
        context = get_mesh()
        if not has_sharded_argument(args) and context.empty:
            if self._partitioned is not None:
                self._partitioned.last = None
            return self._per_device(*args)
        if self._partitioned is None:
            self._partitioned = SpmdFunction(*self._spec, context=None if context.empty else context)
        return self._partitioned(*args)
