"""Types over meshes of Auto axes: the values computed from arrays laid out over such a mesh name it in their types.

An aval's ``auto_mesh`` is the abstract mesh of Auto axes its array is laid out over (its type says nothing of how:
``jax.typeof(x).sharding`` is a NamedSharding over that mesh with a spec of ``None``s). As in JAX 0.10.2, every
operation types its results over its operands' mesh (operands over no mesh aside; operands over two different ones
give results over none), over the current mesh instead when it is of Auto axes, a placement over the mesh of its
destination and a ``shard_map`` over its own. ``core.abstract_eval`` calls ``auto_typed`` once the first such mesh
or array has appeared, so tracing without one never looks at it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np

from jaxle_core import core, dtypes, vma
from jaxle_core import mesh as mesh_module
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray
from jaxle_core.mesh import AbstractMesh, get_abstract_mesh, use_abstract_mesh
from jaxle_core.sharding import NamedSharding

__all__ = ["auto_mesh_of", "auto_meshes_ignored", "check_comparison_meshes", "check_context_mesh",
           "check_operand_meshes", "context_typed", "enable", "traced_mesh"]

_NO_MESH: Any = object()  # no operand names a mesh (as opposed to operands naming different ones)

# the parameter naming each placement primitive's destination (one per operand for device_put)
_DESTINATIONS = {"device_put": "devices", "reshard": "dst_sharding", "sharding_constraint": "sharding"}
# the primitives whose results JAX types by a rule of their own, which checks no operand's mesh (a sort's results
# are typed as its operands, whatever mesh is set)
_OWN_TYPING = frozenset({"sort"})


def enable() -> None:
    """Type results over meshes of Auto axes from now on (called when the first such mesh or array appears)."""
    core.type_auto_meshes = auto_typed
    core.equation_mesh = traced_mesh


@contextlib.contextmanager
def auto_meshes_ignored() -> Iterator[None]:
    """Trace without typing results over meshes of Auto axes: for programs of the implementation's own (a lowering's
    helpers), which may be traced under another mesh than their values were (those of ``auto_axes``)."""
    saved, core.type_auto_meshes = core.type_auto_meshes, None
    try:
        yield
    finally:
        core.type_auto_meshes = saved


def traced_mesh(avals_out: Sequence[Any], staged_under: AbstractMesh | None = None) -> AbstractContextManager:
    """A block under the mesh an equation was traced under (``staged_under``, recorded where it was staged, else
    the one its results are typed over), when a mesh is current and that is the current one's axes retyped (the
    equation was traced inside ``auto_axes`` or ``explicit_axes``): evaluated again (rewritten for XLA, transformed,
    transposed), the equation checks its types against the mesh it was traced under, as JAX's equations do."""
    current = get_abstract_mesh()
    mesh = staged_under if staged_under is not None and not staged_under.empty else next(
        (m for m in map(_mesh_named, avals_out) if m is not None), None)
    if current.empty or mesh is None or mesh == current or mesh.manual_axes or current.manual_axes or (
            mesh.axis_names, mesh.axis_sizes) != (current.axis_names, current.axis_sizes):
        return contextlib.nullcontext()
    return use_abstract_mesh(mesh)


def auto_mesh_of(sharding: Any) -> AbstractMesh | None:
    """The abstract mesh a value laid out as ``sharding`` is typed over when its axes are all Auto (None for a
    device, an empty mesh or one with Explicit or Manual axes); turns the typing on when there is one."""
    mesh = getattr(sharding, "mesh", None)
    if not isinstance(sharding, NamedSharding) or mesh.empty or not mesh.are_all_axes_auto:
        return None
    enable()
    return getattr(mesh, "abstract_mesh", mesh)


def _mesh_named(aval: Any) -> AbstractMesh | None:
    sharding = getattr(aval, "explicit_sharding", None)
    return getattr(aval, "auto_mesh", None) if sharding is None else sharding.mesh


def _joined_mesh(avals: Sequence[Any]) -> Any:
    """The Auto mesh the operands ``avals`` share (None when they name different ones, ``_NO_MESH`` when none
    names one); JAX's ValueError for operands over different meshes one of which has other than Auto axes."""
    found = _NO_MESH
    for aval in avals:
        mesh = _mesh_named(aval)
        if mesh is None or mesh is found:
            continue
        if found is _NO_MESH:
            found = mesh
        elif mesh != found:
            if not (mesh.are_all_axes_auto and (found is None or found.are_all_axes_auto)):
                first = next(m for m in map(_mesh_named, avals) if m is not None)
                raise ValueError(f"Mesh for all inputs should be equal. Got one mesh: {first} and another mesh: "
                                 f"{mesh}")
            found = None
    return found


def check_context_mesh(primitive: core.Primitive, avals: Sequence[Any], context: AbstractMesh, where: str = "") -> None:
    """JAX's ValueError for an operand over a mesh other than the current one, when either has other than Auto
    axes (inside ``shard_map``, where the current mesh has Manual axes, values are typed by their own rules);
    ``where``: the source location its message ends with (none when JAX checks an equation being bound)."""
    if context.empty or context.manual_axes or primitive.name in _OWN_TYPING:
        return
    for aval in avals:
        if _foreign(aval, context):
            raise _context_mesh_error(primitive.name, context, aval, where)


def _foreign(aval: Any, context: AbstractMesh) -> bool:
    """Whether ``aval`` is typed over a mesh other than ``context`` (not empty nor manual), either having other than
    Auto axes."""
    mesh = _mesh_named(aval)
    return not (mesh is None or mesh == context or mesh.manual_axes or (
        mesh.are_all_axes_auto and context.are_all_axes_auto))


def _context_mesh_error(name: str, context: AbstractMesh, aval: Any, where: str = "") -> ValueError:
    return ValueError(f"For primitive {name}, context mesh {context} should match the aval mesh {_mesh_named(aval)} "
                      f"for shape {aval.str_short()}. This error occurs at source:  {where}")


def check_comparison_meshes(avals: Sequence[Any], num_keys: int, context: AbstractMesh | None) -> None:
    """JAX's ValueError, when it compiles the comparison of a sort traced under ``context`` (a mesh with other than
    Auto axes), for keys (``avals``' first ``num_keys``) typed over another mesh: its comparison's scalar operands
    keep their mesh, and the first operation on one checks it (a complex key's ``real``, a float key's canonical
    zero, then the keys' ``lt_to``, last key first)."""
    if context is None or context.empty or context.manual_axes or context.are_all_axes_auto:
        return
    keys = [aval.update(shape=(), auto_mesh=_mesh_named(aval)) for aval in avals[:num_keys]]
    for key in filter(lambda key: _foreign(key, context), keys):
        if dtypes.issubdtype(key.dtype, np.complexfloating):
            raise _context_mesh_error("real", context, key)
        if dtypes.issubdtype(key.dtype, np.floating):
            from jaxle_core.sharding_types import check_type_mesh  # local: sharding_types imports this module

            with use_abstract_mesh(context):
                check_type_mesh(key, "broadcast_in_dim", located=False)
    for key in reversed(keys):
        if _foreign(key, context):
            raise _context_mesh_error("lt_to", context, key)


def context_typed(avals: tuple, values: Sequence[Any]) -> tuple:
    """The avals of a jitted function's arguments ``values``, those of concrete values (constants included) over no
    mesh typed over the current mesh when it is of Auto axes, as JAX types a value entering a jitted function
    there; a traced argument keeps the type it was traced with."""
    context = get_abstract_mesh()
    if core.type_auto_meshes is None or context.empty or not context.are_all_axes_auto:
        return avals
    return tuple(_retyped(aval, context) if _mesh_named(aval) is None and isinstance(value, Array)
                 else aval for aval, value in zip(avals, values))


def _retyped(aval: Any, mesh: AbstractMesh | None) -> Any:
    if type(aval) is not ShapedArray or aval.explicit_sharding is not None or aval.auto_mesh is mesh:
        return aval
    return aval.update(auto_mesh=mesh)


def _typed_by_operands(primitive: core.Primitive, params: dict) -> bool:
    """Whether ``primitive`` types its results from its operands: not a placement (typed by its destination), a
    ``shard_map`` over a mesh of Auto axes (typed over it) or an equation holding jaxprs (typed by them)."""
    own = params.get("mesh")
    return (primitive.name not in _DESTINATIONS and not (own is not None and not own.empty and own.are_all_axes_auto)
            and not vma.holds_jaxprs(params))


def check_operand_meshes(primitive: core.Primitive, avals: Sequence[Any], params: dict) -> None:
    """``check_context_mesh`` of the operands of an equation typed by them (``_typed_by_operands``), against the
    current mesh."""
    if _typed_by_operands(primitive, params):
        check_context_mesh(primitive, avals, get_abstract_mesh())


def auto_typed(primitive: core.Primitive, avals: Sequence[Any], params: dict, out: Any) -> Any:
    """``out`` (the result aval, or list of them) typed over the Auto mesh of the operands, the context or the
    destination."""
    key = _DESTINATIONS.get(primitive.name)
    if key is not None:
        destinations = params[key] if key == "devices" else [params[key]] * len(avals)
        typed = [aval if destination is None else _retyped(aval, auto_mesh_of(destination))
                 for aval, destination in zip(out if primitive.multiple_results else [out], destinations)]
        return typed if primitive.multiple_results else typed[0]
    own = params.get("mesh")
    if own is not None and not own.empty and own.are_all_axes_auto:  # a shard_map's results lie over its mesh
        mesh = getattr(own, "abstract_mesh", own)
        return [_retyped(aval, mesh) for aval in out] if primitive.multiple_results else _retyped(out, mesh)
    if vma.holds_jaxprs(params):  # an inner jaxpr typed the results
        return out
    if primitive.name in _OWN_TYPING:  # each result over its operand's mesh
        return [_retyped(aval, _mesh_named(operand)) for aval, operand in zip(out, avals)]
    context = get_abstract_mesh()
    check_context_mesh(primitive, avals, context)
    if not context.empty and context.are_all_axes_auto:
        mesh = context  # as JAX's, whatever mesh of Auto axes the operands name
    else:
        mesh = _joined_mesh(avals)
        mesh = None if mesh is _NO_MESH else mesh
    if primitive.multiple_results:
        return [_retyped(aval, mesh) for aval in out]
    return _retyped(out, mesh)


def _entered(mesh: Any) -> None:
    if not mesh.empty and mesh.are_all_axes_auto:
        enable()


mesh_module.on_auto_mesh = _entered
