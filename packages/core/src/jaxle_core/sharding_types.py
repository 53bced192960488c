"""Sharding in types: over a mesh whose axes are Explicit, an array's type says how it is laid out.

An aval's ``explicit_sharding`` is a NamedSharding over the abstract mesh whose spec has one entry per dimension,
naming only the mesh's Explicit axes (``f32[8@x,4]``). Avals get one from the arrays laid out over such a mesh
(``device_put``, results of programs), and every primitive applied to them (or applied under ``set_mesh`` of such a
mesh) computes its results' layouts by a sharding rule: ``core.abstract_eval`` calls ``typed_results`` once the first
such mesh or array has been seen, so tracing without one never looks at layouts. Operands whose layouts cannot be
combined raise ``ShardingTypeError``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from typing import Any

from jaxle_core import core, vma
from jaxle_core import mesh as mesh_module
from jaxle_core.array import Array
from jaxle_core.auto_mesh_types import auto_mesh_of, check_operand_meshes
from jaxle_core.avals import ShapedArray
from jaxle_core.mesh import AbstractMesh, AxisType, PartitionSpec, get_abstract_mesh, get_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_core.source_info import current, summarize

__all__ = ["UNTYPED", "ShardingTypeError", "axis_size", "broadcast_layout", "check_divisible", "check_type_divides",
           "checked_out_sharding", "cotangent_sharding", "cotangent_spec", "elementwise_specs", "enable",
           "explicit_context", "explicit_mesh_of", "given_spec", "layout_divides", "layouts_ignored", "merged_specs",
           "no_context_mesh_error", "places", "register_rule", "resolve_out_sharding", "result_layout_operands",
           "same_as_operand", "source_sharding", "spec_indexed_error", "spec_of", "type_spec", "typed_as",
           "typed_aval", "typed_results", "typing_eagerly", "untyped", "when_enabled"]


class ShardingTypeError(Exception):
    """Operands laid out over Explicit mesh axes in ways an operation cannot combine (JAX's name)."""


SpecEntry = Any  # None, an axis name, or a tuple of axis names
Rule = Callable[..., Sequence[Any]]
"""``rule(avals, specs, out_avals, mesh, params)``: per result, a spec (a tuple of entries) over ``mesh``, a
NamedSharding (over another mesh), None (replicated, or as an inner jaxpr typed it) or ``UNTYPED``."""

UNTYPED: Any = object()  # a rule's answer for a result whose type carries no layout (a reshard to Auto axes)

_rules: dict[core.Primitive, Rule] = {}

# ``fallback_rule(primitive, avals, specs, outs, mesh, params)``: the specs of a primitive without a rule of its own,
# or None (its results replicated, or typed by an inner jaxpr); installed by sharding_rules.py.
fallback_rule: Callable[..., Sequence[tuple] | None] = lambda *args: None


# ``may_carry_axes(primitive, avals, params)``: whether the results may be unreduced or reduced over some axes, and
# ``axes_rule(primitive, avals, params)``: their (unreduced, reduced) axes; installed by unreduced_types.py.
may_carry_axes: Callable[..., bool] = lambda *args: False
axes_rule: Callable[..., tuple] = lambda *args: (frozenset(), frozenset())

_placing: set[core.Primitive] = set()  # primitives whose rule types by a mesh of its own (reshard's destination)


_per_dimension: set[core.Primitive] = set()  # primitives whose rule writes a spec entry per result dimension

# primitives whose given layout types their results only over a typed operand or a current mesh of Explicit axes
_typed_in_context: set[core.Primitive] = set()

_operand_per_result: set[core.Primitive] = set()  # primitives whose result i takes operand i's layout
_kept_operand: dict[core.Primitive, int] = {}  # primitives whose rule keeps one operand's layout: its position


def type_in_context_only(primitive: core.Primitive) -> None:
    """The layout ``primitive`` is given (its ``sharding`` parameter) types its results only where an operand's type
    or the current mesh has Explicit axes: elsewhere they are typed over no mesh, as JAX's standard sharding rules
    leave them (a ``convert_element_type`` to a NamedSharding outside ``set_mesh``)."""
    _typed_in_context.add(primitive)


def register_rule(primitive: core.Primitive, rule: Rule, places: bool = False, per_dimension: bool = False,
                  kept_operand: int | None = None, operand_per_result: bool = False) -> None:
    """``rule`` types ``primitive``'s results; a ``places`` rule is asked even when neither the operands nor the
    current mesh are typed (its destination may be); a ``per_dimension`` rule writes an entry for each dimension of
    its results even from operands of no layout (JAX's iota, broadcast_in_dim, concatenate, select_n); a rule
    giving the results the layout of the operand at position ``kept_operand`` (a pad's, a clamp's) leaves them of
    no layout when that operand has none, whatever the others'; an ``operand_per_result`` rule gives each result
    the layout of the operand at its position (a sort's)."""
    _rules[primitive] = rule
    if operand_per_result:
        _operand_per_result.add(primitive)
    if places:
        _placing.add(primitive)
    if per_dimension:
        _per_dimension.add(primitive)
    if kept_operand is not None:
        _kept_operand[primitive] = kept_operand


def layout_operands(primitive: core.Primitive, operands: Sequence[Any]) -> Sequence[Any]:
    """The operands whose layouts the results of ``primitive`` take: the one its rule keeps, else all of them."""
    position = _kept_operand.get(primitive)
    return operands if position is None else operands[position:position + 1]


def result_layout_operands(primitive: core.Primitive, operands: Sequence[Any]) -> list[Sequence[Any]]:
    """Per result of ``primitive``, the operands whose layouts it takes (one group for all results, unless each
    result takes its own operand's)."""
    if primitive in _operand_per_result:
        return [operands[i:i + 1] for i in range(len(operands))]
    return [layout_operands(primitive, operands)]


def places(primitive: core.Primitive) -> bool:
    """Whether ``primitive`` lays its result out as its parameters ask (a reshard, a constraint, a device_put): its
    type, untyped too, is the one asked for."""
    return primitive in _placing


def keeps_no_layout(primitive: core.Primitive, n_operands: int) -> bool:
    """Whether JAX's eager result of ``primitive`` on host values only (typed over no layout: an empty spec) says it
    is laid out over none (``P()``): its rule keeps its operand's empty spec, rather than combining several
    operands elementwise or writing an entry per dimension (``P(None,)``), or placing them (a reshard)."""
    if primitive in _per_dimension or primitive in _placing:
        return False
    return primitive in _rules or n_operands < 2


_pending_hooks: list[Callable[[], None]] = []  # run by the first ``enable``


def when_enabled(hook: Callable[[], None]) -> None:
    """Run ``hook`` once layouts are computed (now, if they already are): what only programs over Explicit axes
    need, installed without any cost to the others."""
    if core.type_shardings is typed_results:
        hook()
    else:
        _pending_hooks.append(hook)


def enable() -> None:
    """Compute layouts from now on (called when the first Explicit mesh or array appears; never undone)."""
    core.type_shardings = typed_results
    while _pending_hooks:
        _pending_hooks.pop()()


@contextlib.contextmanager
def layouts_ignored():
    """Trace without computing layouts: for programs of the implementation's own (a lowering's helpers), whose
    values no user sees typed."""
    saved = core.type_shardings
    core.type_shardings = None
    try:
        yield
    finally:
        core.type_shardings = saved


def untyped(aval: Any) -> Any:
    """``aval`` without its type's layout."""
    return aval.update(sharding=None) if getattr(aval, "explicit_sharding", None) is not None else aval


def explicit_mesh_of(mesh: Any) -> AbstractMesh | None:
    """``mesh``'s abstract mesh when it has an Explicit axis, else None."""
    if mesh is None or AxisType.Explicit not in mesh.axis_types:
        return None
    return mesh.abstract_mesh


def _explicit_entry(entry: SpecEntry, explicit: tuple) -> SpecEntry:
    """A spec entry reduced to the Explicit axes it names (types do not mention the others)."""
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return None
    axes = tuple(a for a in (entry if isinstance(entry, tuple) else (entry,)) if a in explicit)
    if not axes:
        return None
    return axes[0] if len(axes) == 1 else axes


def type_spec(mesh: AbstractMesh, spec: PartitionSpec, ndim: int) -> PartitionSpec:
    """``spec`` as a type carries it: one entry per dimension (trailing ones None), Explicit axes only (its
    unreduced and reduced axes too)."""
    explicit = mesh.explicit_axes
    entries = [_explicit_entry(spec[d] if d < len(spec) else None, explicit) for d in range(ndim)]
    if not (spec.unreduced or spec.reduced):
        return PartitionSpec(*entries)
    return PartitionSpec(*entries, unreduced=spec.unreduced & frozenset(explicit),
                         reduced=spec.reduced & frozenset(explicit))


def typed_aval(aval: ShapedArray, sharding: Any) -> ShapedArray:
    """``aval`` typed by the NamedSharding ``sharding`` when its mesh has Explicit axes, naming its mesh of Auto
    axes (``auto_mesh``) when it has none, else ``aval`` itself."""
    mesh = explicit_mesh_of(getattr(sharding, "mesh", None))
    if type(aval) is not ShapedArray:
        return aval
    if mesh is None:
        auto_mesh = auto_mesh_of(sharding)
        return aval if auto_mesh is None else aval.update(auto_mesh=auto_mesh)
    enable()
    return aval.update(sharding=NamedSharding(mesh, type_spec(mesh, sharding.spec, aval.ndim)))


def typed_as(aval: Any, sharding: NamedSharding) -> bool:
    """Whether ``aval`` is typed by ``sharding`` (over an abstract mesh) exactly, its spec as written: as JAX
    compares a value's type with an ``out_sharding`` (``P('x')`` is not the type ``P('x', None)`` of a matrix)."""
    own = getattr(aval, "explicit_sharding", None)
    return own is not None and own.mesh == sharding.mesh and own.spec == sharding.spec


def no_context_mesh_error(aval: ShapedArray) -> ValueError:
    """JAX's error for a value computed eagerly with ``aval``, typed over a mesh of several devices, where no
    ``set_mesh`` says which devices (a program without array arguments runs on one device)."""
    mesh = aval.explicit_sharding.mesh
    by_type: dict[str, list] = {}
    for name, axis_type in zip(mesh.axis_names, mesh.axis_types):
        by_type.setdefault(axis_type.name, []).append(name)
    axes = ", ".join(f"{kind}: {tuple(names)}" for kind, names in by_type.items())
    return ValueError(f"Length of device assignment 1 is not equal to the size of the mesh {mesh.size} of aval "
                      f"{aval.str_short(short_dtypes=True)}({{{axes}}}). Please enter your `jit` into a mesh context "
                      "via `jax.set_mesh`.")


def spec_of(aval: Any) -> tuple:
    """The entries of ``aval``'s type layout (all None when it has none)."""
    sharding = getattr(aval, "explicit_sharding", None)
    if sharding is None:
        return (None,) * len(getattr(aval, "shape", ()))
    return tuple(sharding.spec)


def cotangent_spec(spec: PartitionSpec) -> PartitionSpec:
    """The spec of a cotangent of a value laid out by ``spec``: its unreduced and reduced axes swapped."""
    if not (spec.unreduced or spec.reduced):
        return spec
    return spec.update(unreduced=spec.reduced, reduced=spec.unreduced)


def cotangent_sharding(sharding: NamedSharding) -> NamedSharding:
    """The layout of a cotangent of a value laid out as ``sharding``: its unreduced and reduced axes swapped."""
    spec = sharding.spec
    if not (spec.unreduced or spec.reduced):
        return sharding
    return sharding.update(spec=cotangent_spec(spec))


def source_sharding(x: Any) -> Any:
    """What a staged ``device_put`` records as the source of ``x``, as JAX's: where the array a tracer stands for
    lies, when it is known now (a JVP tracer's primal, evaluated eagerly), else its type's layout in device memory,
    if any."""
    value = core.concrete_value(x)
    if isinstance(value, Array) and not isinstance(value, core.Tracer) and hasattr(value, "sharding"):
        return value.sharding
    sharding = getattr(getattr(x, "aval", None), "explicit_sharding", None)
    return None if sharding is None else sharding.with_memory_kind("device")


def spec_indexed_error() -> ValueError:
    """JAX's error for a layout with unreduced or reduced axes that a rule reads entry by entry."""
    return ValueError("Using pspec[...] is dangerous when PartitionSpec has non-empty unreduced/reduced set. Please "
                      "use spec.partitions[...]")


def broadcast_layout(name: str, avals: Sequence[Any], ndim: int) -> NamedSharding | None:
    """The layout arrays of ``avals`` broadcast together to rank ``ndim`` share (trailing dimensions aligned, as
    their elementwise result's type says); None when none of them is laid out over Explicit axes."""
    if core.type_shardings is None:
        return None
    mesh = next((a.explicit_sharding.mesh for a in avals if getattr(a, "explicit_sharding", None) is not None), None)
    if mesh is None:
        return None
    if may_carry_axes(None, avals, {}):
        raise spec_indexed_error()
    specs = [(None,) * (ndim - a.ndim) + tuple(None if s == 1 else e for s, e in zip(a.shape, spec_of(a)))
             for a in avals if a.ndim]
    return NamedSharding(mesh, PartitionSpec(*merged_specs(name, specs)))


def checked_out_sharding(sharding: Any, function: str, same_mesh: bool = True,
                         located: bool = True) -> NamedSharding | None:
    """An ``out_sharding`` argument of ``function`` as JAX reads it: a PartitionSpec over the current mesh (its
    devices' when set), a NamedSharding as given (None for one over an empty mesh), with JAX's errors for a
    PartitionSpec outside any mesh, for another kind of argument, for a NamedSharding over another mesh than the
    current one (with ``same_mesh``, unless both have Auto axes only) and for axes that are not Explicit. The last
    two end with the user's source line (left empty, as JAX leaves it, where JAX checks inside a jitted function of
    its own: not ``located``)."""
    if sharding is None or isinstance(sharding, NamedSharding) and sharding.mesh.empty:
        return None
    context = get_abstract_mesh()
    if isinstance(sharding, PartitionSpec):
        if context.empty:
            raise ValueError("Using PartitionSpec when you are not under a mesh context is not allowed. Please pass a "
                             "NamedSharding instance or enter into a mesh context via `jax.set_mesh`. Got "
                             f"{sharding}")
        concrete = get_mesh()  # over the devices set, when they are the current mesh's
        sharding = NamedSharding(concrete if not concrete.empty and concrete.abstract_mesh == context else context,
                                 sharding)
    if not isinstance(sharding, NamedSharding):
        raise TypeError(f"`out_sharding` argument of {function} only supports instances of `NamedSharding` or "
                        f"`PartitionSpec`. Got {sharding} of type: {type(sharding)}")
    where = summarize(current()) if located else ""
    own = sharding.mesh.abstract_mesh
    if same_mesh and not context.empty and own != context and not (own.are_all_axes_auto
                                                                    and context.are_all_axes_auto):
        raise ValueError(f"Context mesh {context} should match the mesh of sharding {own} passed to {function}. "
                         f"This error occurs at source:  {where}")
    spec = sharding.spec
    for entry in (*spec, *spec.unreduced, *spec.reduced):
        for axis in entry if isinstance(entry, tuple) else (entry,):
            kind = None if axis is None or axis is PartitionSpec.UNCONSTRAINED else sharding.mesh.axis_types[
                sharding.mesh.axis_names.index(axis)]
            if kind is not None and kind is not AxisType.Explicit:
                raise ValueError(f"PartitionSpec passed to {function} cannot contain axis names that are of type Auto "
                                 f"or Manual. Got PartitionSpec: {spec} with axis name: {axis} of type: {kind}. This "
                                 f"error occurs at source:  {where}")
    return sharding


def check_type_mesh(aval: Any, function: str, located: bool = True) -> None:
    """JAX's refusal (``checked_out_sharding``) of the sharding the type ``aval`` names over a mesh of Auto axes,
    which JAX passes on as ``function``'s out_sharding, under ``set_mesh`` of a mesh with other axes."""
    mesh = getattr(aval, "auto_mesh", None)
    if mesh is not None:
        checked_out_sharding(NamedSharding(mesh, PartitionSpec()), function, located=located)


def resolve_out_sharding(out_sharding: Any, function: str | None = None, located: bool = True,
                         mesh: AbstractMesh | None = None) -> NamedSharding | None:
    """An ``out_sharding`` argument (a PartitionSpec over the current mesh, or a NamedSharding) as a NamedSharding
    over an abstract mesh; None stays None. Given the ``function`` it is an argument of, it is checked first as JAX
    checks it (``checked_out_sharding``)."""
    if function is not None:
        out_sharding = checked_out_sharding(out_sharding, function, located=located)
    if out_sharding is None:
        return None
    if isinstance(out_sharding, NamedSharding):
        return NamedSharding(out_sharding.mesh.abstract_mesh, out_sharding.spec)
    if isinstance(out_sharding, PartitionSpec):
        mesh = mesh or get_abstract_mesh()
        if mesh.empty:
            raise ValueError(f"Using PartitionSpec when you are not under a mesh context via `jax.set_mesh` is not "
                             f"allowed. Please pass a NamedSharding instance. Got out_sharding={out_sharding}")
        return NamedSharding(mesh, out_sharding)
    raise TypeError(f"out_sharding should be a PartitionSpec or a NamedSharding. Got {out_sharding}")


mesh_module.on_explicit_mesh = enable


def explicit_context() -> bool:
    """Whether the current mesh has Explicit axes (results are then laid out over it)."""
    return AxisType.Explicit in get_abstract_mesh().axis_types


def _mesh_of(primitive: core.Primitive, avals: Sequence[Any], params: dict) -> AbstractMesh | None:
    """The mesh the results are typed over: an operand's, else that of the layout the results are given (a
    broadcast of an untyped scalar to a typed layout), else the primitive's own mesh (a ``shard_map``'s), else the
    current mesh when it has Explicit axes."""
    for aval in avals:
        sharding = getattr(aval, "explicit_sharding", None)
        if sharding is not None:
            return sharding.mesh
    given = params.get("sharding", params.get("out_sharding"))
    if isinstance(given, NamedSharding) and explicit_mesh_of(given.mesh) is not None \
            and primitive not in _typed_in_context:
        return given.mesh.abstract_mesh
    own = explicit_mesh_of(params.get("mesh"))  # a shard_map's results are laid out over its mesh
    return own if own is not None else explicit_mesh_of(get_abstract_mesh())


_eager = False  # whether the primitive being typed runs eagerly (its host operands are then put on the mesh)


@contextlib.contextmanager
def typing_eagerly():
    """Type the primitives bound inside as an eager operation's: operands no mesh types (host values) are put on the
    current mesh first, so every result is typed over it (as JAX's eager results are)."""
    global _eager
    before, _eager = _eager, True
    try:
        yield
    finally:
        _eager = before


def _untyped_operands_kept(primitive: core.Primitive, avals: Sequence[Any], params: dict) -> bool:
    """Whether the results of ``primitive`` traced on operands no mesh types stay so in JAX (typed over the current
    mesh only by rules that write an entry per result dimension or combine several operands elementwise), its
    results given no layout of their own."""
    return (not _eager and all(getattr(a, "explicit_sharding", None) is None for a in layout_operands(primitive, avals))
            and params.get("sharding", params.get("out_sharding")) is None and params.get("mesh") is None
            and keeps_no_layout(primitive, len(avals)))


def typed_results(primitive: core.Primitive, avals: Sequence[Any], params: dict, out: Any) -> Any:
    """``out`` (the result aval, or list of them) typed by ``primitive``'s sharding rule; as JAX's, operands over
    another mesh than the current one are refused (also by ``auto_mesh_types`` when it types)."""
    if core.type_auto_meshes is None:
        check_operand_meshes(primitive, avals, params)
    mesh = _mesh_of(primitive, avals, params)
    if mesh is None and primitive not in _placing:
        return out
    current = avals and mesh == explicit_mesh_of(get_abstract_mesh())
    if current and _untyped_operands_kept(primitive, avals, params):
        return out  # as in JAX: typed over no mesh, as its operands (a jit's arguments given as host values)
    outs = out if primitive.multiple_results else [out]
    typed = _typed_by_rule(primitive, avals, params, outs, mesh)
    if current and primitive in _operand_per_result:  # each result as its own operand: untyped ones stay so
        kept = [_untyped_operands_kept(primitive, operand, params)
                for operand in result_layout_operands(primitive, avals)]
        typed = [aval if keep else t for aval, t, keep in zip(outs, typed, kept)]
    return typed if primitive.multiple_results else typed[0]


def _typed_by_rule(primitive: core.Primitive, avals: Sequence[Any], params: dict, outs: list[Any],
                   mesh: AbstractMesh | None) -> list[Any]:
    """The results ``outs`` of ``primitive`` typed over ``mesh`` by its sharding rule."""
    rule = _rules.get(primitive)
    if rule is None and vma.holds_jaxprs(params):
        return outs  # as in JAX: typed as the inner jaxpr types them (a constant it returns over no mesh)
    specs = [spec_of(a) for a in avals]
    if rule is None:
        specs = fallback_rule(primitive, avals, specs, outs, mesh, params) or [None] * len(outs)
    else:
        specs = rule(avals, specs, outs, mesh, params)
    axes = None  # the results' (unreduced, reduced) axes, when some may be
    if primitive not in _placing and may_carry_axes(primitive, avals, params) and not vma.holds_jaxprs(params):
        axes = axes_rule(primitive, avals, params)
    typed = []
    for aval, spec in zip(outs, specs):
        if type(aval) is not ShapedArray:
            typed.append(aval)
        elif spec is UNTYPED or (mesh is None and not isinstance(spec, NamedSharding)):
            typed.append(aval.update(sharding=None))
        elif isinstance(spec, NamedSharding):
            typed.append(aval.update(sharding=spec))
        elif spec is None and axes is None:  # no rule: a layout from an inner jaxpr stays, else replicated
            typed.append(aval if aval.explicit_sharding is not None else
                         aval.update(sharding=NamedSharding(mesh, PartitionSpec(*[None] * aval.ndim))))
        else:
            entries = (None,) * aval.ndim if spec is None else spec
            spec = PartitionSpec(*entries) if axes is None else PartitionSpec(*entries, unreduced=axes[0],
                                                                               reduced=axes[1])
            typed.append(aval.update(sharding=NamedSharding(mesh, _checked(spec, mesh))))
    for aval in typed:
        check_type_divides(getattr(aval, "explicit_sharding", None), aval.shape)
    return typed


def _checked(spec: PartitionSpec, mesh: AbstractMesh) -> PartitionSpec:
    NamedSharding(mesh, spec)  # JAX's DuplicateSpecError for an axis named twice
    return spec


# ---------------------------------------------------------------- rules shared by many primitives


def _entry_text(spec: tuple) -> str:
    return repr(tuple(spec))


def elementwise_specs(name: str, specs: Sequence[tuple], avals: Sequence[Any]) -> tuple:
    """The layout of an elementwise result: the operands' (rank-0 operands aside), which must agree where both
    split a dimension."""
    return merged_specs(name, [spec for spec, aval in zip(specs, avals) if getattr(aval, "shape", ())])


def merged_specs(name: str, shaped: Sequence[tuple]) -> tuple:
    """Specs of one length combined dimension by dimension: a split dimension stays split, two different splits
    of one dimension are JAX's ShardingTypeError."""
    if not shaped:
        return ()
    result = list(shaped[0])
    for spec in shaped[1:]:
        for d, entry in enumerate(spec):
            if entry is None or entry == result[d]:
                continue
            if result[d] is None:
                result[d] = entry
                continue
            raise ShardingTypeError(f"{name} got incompatible shardings for broadcasting: "
                                    f"{', '.join(_entry_text(s) for s in shaped)}.")
    return tuple(result)


def same_as_operand(avals, specs, outs, mesh, params) -> list[tuple]:
    """Every result laid out as the first operand."""
    return [specs[0]] * len(outs)


def axis_size(mesh: AbstractMesh, entry: SpecEntry) -> int:
    """How many pieces ``entry`` cuts a dimension into."""
    if entry is None:
        return 1
    return math.prod(mesh.shape[a] for a in (entry if isinstance(entry, tuple) else (entry,)))


def check_divisible(operation: str, x: ShapedArray, spec: tuple, out_shape: Sequence[int],
                    mesh: AbstractMesh) -> None:
    """JAX's ShardingTypeError when ``operation`` resizes a split dimension of ``x`` to a size its mesh axes do not
    divide (the result keeps ``spec``)."""
    for d, entry in enumerate(spec):
        if entry is not None and out_shape[d] != x.shape[d] and out_shape[d] % axis_size(mesh, entry):
            raise ShardingTypeError(
                f"{operation} on sharded dims where out dim ({out_shape[d]}) is not divisible by mesh axes "
                f"({axis_size(mesh, entry)}) with spec ({entry}) is not implemented. Got input "
                f"type={x.str_short(short_dtypes=True)} and output shape={tuple(out_shape)}")


def layout_divides(shape: Sequence[int], spec: Sequence[SpecEntry], mesh: AbstractMesh) -> None:
    """JAX's ValueError for a layout ``spec`` over ``mesh`` whose axes do not divide a dimension of ``shape``."""
    for d, entry in enumerate(spec):
        if entry is not None and shape[d] % axis_size(mesh, entry):
            axes = entry if isinstance(entry, tuple) else (entry,)
            raise ValueError(
                f"Sharding spec {axes} implies that array axis {d} is partitioned {axis_size(mesh, entry)} times, "
                f"but does not evenly divide the dimension size {shape[d]}. Got shape: {tuple(shape)} and sharding "
                f"{NamedSharding(mesh, PartitionSpec(*spec))!r}")


def check_type_divides(sharding: Any, shape: Sequence[int]) -> None:
    """JAX's ValueError when the Explicit axes of ``sharding`` (a NamedSharding) do not divide the dimensions of
    ``shape`` they split: no array of that type can exist (JAX checks the type before the layout)."""
    mesh = explicit_mesh_of(getattr(sharding, "mesh", None))
    if not isinstance(sharding, NamedSharding) or mesh is None or len(shape) < len(sharding.spec):
        return
    if all(isinstance(d, int) for d in shape):  # symbolic dimensions are checked when known
        layout_divides(shape, tuple(type_spec(mesh, sharding.spec, len(shape))), mesh)


def given_spec(sharding: Any, ndim: int) -> tuple | None:
    """The entries of an ``out_sharding``/``sharding`` parameter, padded to ``ndim``; None when not given."""
    if sharding is None:
        return None
    resolved = resolve_out_sharding(sharding)
    return tuple(type_spec(resolved.mesh, resolved.spec, ndim))
