"""``shard_map``: a function of per-device blocks, mapped over the devices of a mesh.

Each argument is split into blocks along the mesh axes its ``PartitionSpec``
names (the other mesh axes see it whole), the body runs on every device's
blocks with the mesh axes bound as named axes (so collectives name them), and
each result is assembled from the blocks along the axes its output spec names
(a mesh axis it does not name is taken from the first device, as every device
is expected to agree).

The primitive ``shard_map`` carries the body as a jaxpr over blocks, with JAX
0.10.2's params (``check_vma``, ``in_specs``, ``jaxpr``, ``mesh``,
``newly_manual_axes``, ``out_specs``). Its reference evaluation maps the body
over the mesh axes, one named batching trace per axis whose collectives act
across the devices' blocks as devices' do (``batching.trace.DeviceTrace``);
jaxle-xla lowers it to one SPMD program over the mesh's devices.
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import auto_mesh_types, core, pretty, sharding_types, vma
from jaxle_core.avals import NO_VMA, ShapedArray, get_aval, in_mesh_order
from jaxle_core.callbacks import errors_kept_with_results
from jaxle_core.core import ClosedJaxpr, Jaxpr, JaxprEqn, Primitive, Tracer, Var
from jaxle_core.jaxpr_util import calls_host, carried_jaxpr_dce_rule, dce_rules, jaxpr_calls_host
from jaxle_core.mesh import (
    AbstractMesh,
    AxisType,
    Mesh,
    PartitionSpec,
    get_abstract_mesh,
    get_mesh,
    meshes_snapshot,
    restored_meshes,
    use_abstract_mesh,
)
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import layout_divides, register_rule, spec_of, type_spec
from jaxle_core.staging import (
    DebugInfo,
    DynamicJaxprTracer,
    StagingTrace,
    flatten_fun,
    trace_to_jaxpr,
    transforms_eager_code,
)

__all__ = ["IndivisibleError", "ShardMapBody", "shard_map", "shard_map_p", "smap"]


class IndivisibleError(ValueError):
    """An array dimension that the mesh axes of its spec do not divide evenly."""


# ---------------------------------------------------------------- specs and blocks


def spec_entry_axes(entry: Any) -> tuple:
    """The mesh axes of one entry of a ``PartitionSpec`` (None: none, a name, or a tuple of names)."""
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    return tuple(entry) if isinstance(entry, tuple) else (entry,)


def spec_axes(spec: PartitionSpec) -> tuple:
    """Every mesh axis ``spec`` names, in the order it names them."""
    return tuple(a for entry in spec for a in spec_entry_axes(entry))


def _dim_factors(spec: PartitionSpec, ndim: int, mesh: Mesh | AbstractMesh) -> list[int]:
    entries = list(spec) + [None] * (ndim - len(spec))
    return [math.prod(mesh.shape[a] for a in spec_entry_axes(e)) for e in entries]


def block_aval(aval: ShapedArray, spec: PartitionSpec, mesh: Mesh | AbstractMesh) -> ShapedArray:
    """The per-device block of an array of ``aval`` split by ``spec``."""
    factors = _dim_factors(spec, aval.ndim, mesh)
    return aval.update(shape=tuple(d // f for d, f in zip(aval.shape, factors)))


def body_aval(aval: ShapedArray, spec: PartitionSpec, mesh: Mesh | AbstractMesh, check_vma: bool,
              manual: frozenset | None = None) -> ShapedArray:
    """The type of a body's input: the block of ``aval`` varying (when types are checked) over the axes of
    ``spec`` and those it varied over outside (inside an enclosing body); where mesh axes other than the
    ``manual`` ones (default: all) are Explicit, laid out over them as ``aval`` is. The manual axes its spec says it
    is unreduced or reduced over are its type's inside."""
    manual_axes = frozenset(mesh.axis_names) if manual is None else manual
    block = block_aval(aval, spec, mesh).update(
        vma=in_mesh_order(aval.vma | frozenset(spec_axes(spec)), mesh.axis_names) if check_vma else NO_VMA,
        unreduced=spec.unreduced & manual_axes if check_vma else NO_VMA,
        reduced=spec.reduced & manual_axes if check_vma else NO_VMA)
    inside = manual_mesh(mesh, manual)
    if not inside.explicit_axes:  # no axis left to lay the block out over (its Explicit axes manual inside)
        return block.update(sharding=None)
    layout = type_spec(inside, PartitionSpec(*spec_of(aval)), aval.ndim)
    layout_divides(block.shape, layout, inside)  # the axes left Explicit split the block as they split the array
    return block.update(sharding=NamedSharding(inside, layout))


def _result_layouts(avals, specs, outs, mesh: AbstractMesh, params: dict) -> list:
    """The sharding rule of ``shard_map`` over a mesh with Explicit axes: each result laid out along its out spec's
    Explicit axes and, within each block, as the body's result is over the axes left Explicit inside; unreduced
    and reduced over the axes its out spec says."""
    layouts: list = []
    for inner, spec in zip(params["jaxpr"].out_avals, params["out_specs"]):
        entries = []
        for dim, inner_entry in enumerate(spec_of(inner)):
            outer = spec_entry_axes(spec[dim]) if dim < len(spec) else ()
            axes = tuple(a for a in outer if a in mesh.explicit_axes) + spec_entry_axes(inner_entry)
            entries.append(axes[0] if len(axes) == 1 else axes or None)
        if spec.unreduced or spec.reduced:
            explicit = frozenset(mesh.explicit_axes)
            layouts.append(NamedSharding(mesh, PartitionSpec(*entries, unreduced=spec.unreduced & explicit,
                                                             reduced=spec.reduced & explicit)))
        else:
            layouts.append(tuple(entries))
    return layouts


def full_aval(aval: ShapedArray, spec: PartitionSpec, mesh: Mesh | AbstractMesh,
              manual: frozenset | None = None) -> ShapedArray:
    """The whole array assembled from per-device blocks of ``aval`` along ``spec``: it no longer varies over the
    ``manual`` axes (default: all of the mesh's), only over those of an enclosing body."""
    factors = _dim_factors(spec, aval.ndim, mesh)
    if manual is None:
        return aval.update(shape=tuple(d * f for d, f in zip(aval.shape, factors)), vma=NO_VMA, unreduced=NO_VMA,
                           reduced=NO_VMA)
    return aval.update(shape=tuple(d * f for d, f in zip(aval.shape, factors)), vma=aval.vma - manual,
                       unreduced=aval.unreduced - manual, reduced=aval.reduced - manual)


def check_divisible(aval: ShapedArray, spec: PartitionSpec, mesh: Mesh, sharding: object) -> None:
    """JAX's IndivisibleError, naming ``sharding``, when the axes of ``spec`` do not divide ``aval``'s dimensions."""
    factors = _dim_factors(spec, aval.ndim, mesh)
    for dim, (size, factor) in enumerate(zip(aval.shape, factors)):
        if size % factor:
            raise IndivisibleError(
                f"Sharding {sharding} implies that array axis {dim} is partitioned {factor} times, but the dimension "
                f"size is {size} (full shape: {aval.shape}, per-dimension tiling factors: {factors} should evenly "
                "divide the shape)")


def _bound_to(f: Callable, fun_name: str, index: int) -> str:
    """How JAX's errors say which parameter of ``f`` the positional argument ``index`` binds (nothing when the
    signature is unknown)."""
    import inspect

    try:
        parameters = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return ""
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if index < len(positional):
        return f", where args[{index}] is bound to {fun_name}'s parameter '{positional[index].name}'"
    varargs = next((p for p in parameters if p.kind is p.VAR_POSITIONAL), None)
    if varargs is None:
        return ""
    return (f", where args[{index}] is the index {index - len(positional)} component of {fun_name}'s varargs "
            f"parameter '{varargs.name}'")


class _InArgument:
    """An argument leaf as JAX's ``in_specs`` errors describe it: its path in ``args``, the parameter it binds and
    the path of its entry in ``in_specs``."""

    def __init__(self, f: Callable, fun_name: str, arg_path: tuple, spec_path: str):
        self.path = f"args{tree.keystr(arg_path)}"
        self.bound = _bound_to(f, fun_name, arg_path[0].idx)
        self.spec_path = spec_path


def _in_argument(f: Callable, fun_name: str, args: tuple, in_specs: Any, leaf: int) -> _InArgument:
    """The description of the ``leaf``-th argument leaf (worked out only for an error)."""
    is_spec = lambda x: x is None or isinstance(x, PartitionSpec)
    spec_paths = [tree.keystr(p) for p, _ in tree.tree_flatten_with_path(in_specs, is_leaf=is_spec)[0]]
    numbered = tree.tree_unflatten(tree.tree_structure(in_specs, is_leaf=is_spec), list(range(len(spec_paths))))
    which = tree.tree_leaves(tree.tree_broadcast(numbered, args))
    path = tree.tree_flatten_with_path(args)[0][leaf][0]
    return _InArgument(f, fun_name, path, spec_paths[which[leaf]])


def _not_manual_error(which: str, axes: Sequence[Any], manual: frozenset) -> ValueError:
    """JAX's error for ``in_specs``/``out_specs`` naming ``axes``, which are not manual."""
    listed = "".join(f"\n\n  {which} refers to {axis!r}" for axis in axes)
    return ValueError(f"shard_map {which} argument must refer to an axis marked as manual ({set_text(manual)}), "
                      f"but:{listed}\n\nCheck the {which} values passed to shard_map.")


def _check_spec_axes(spec: PartitionSpec, manual: frozenset, which: str) -> None:
    """JAX's error for an ``in_specs``/``out_specs`` entry naming axes that are not manual."""
    outside = [axis for axis in spec_axes(spec) if axis not in manual]
    if outside:
        raise _not_manual_error(which, outside, manual)


def _check_reductions(which: str, spec: PartitionSpec, mesh) -> None:
    """JAX's error for a spec naming unreduced or reduced axes of a mesh whose axes are not all Explicit."""
    for name, axes in (("unreduced", spec.unreduced), ("reduced", spec.reduced)):
        if axes and any(t is not AxisType.Explicit for t in mesh.axis_types):
            raise ValueError(f"{name} in {which} {spec} can only be used when the mesh passed to shard_map contains "
                             f"axis names all of type `Explicit`. Got mesh {mesh}")


def set_text(names: frozenset) -> str:
    """A frozenset of axis names as Python prints it (in sorted order, where Python's follows string hashes)."""
    return f"frozenset({{{', '.join(repr(n) for n in sorted(names, key=str))}}})" if names else "frozenset()"


def _check_in_spec(fun_name: str, describe: Callable[[], _InArgument], aval: ShapedArray, spec: PartitionSpec,
                   mesh: Mesh, manual: frozenset) -> None:
    """JAX's errors for an ``in_specs`` entry that names an axis that is not ``manual``, is longer than the
    argument's rank, or splits a dimension that its mesh axes do not divide (``describe()`` describes the
    argument)."""
    _check_reductions("in_specs", spec, mesh)
    _check_spec_axes(spec, manual, "in_specs")
    if len(spec) > aval.ndim:
        argument = describe()
        scalar = ("\n\nFor scalar values (rank 0), consider using an in_specs entry of `P()`, where `P = "
                  "jax.sharding.PartitionSpec`." if aval.ndim == 0 else "")
        raise ValueError(f"shard_map applied to the function {fun_name!r} was given an in_specs entry which is too "
                         "long to be compatible with the corresponding input value from the function:\n\nin_specs"
                         f"{argument.spec_path} is {spec} which has length {len(spec)}, but the passed "
                         f"{argument.path}{argument.bound}, has shape {aval.str_short()}, which has rank "
                         f"{aval.ndim} (and {aval.ndim} < {len(spec)})\n\nEntries in in_specs must be of length no "
                         "greater than the number of axes in the corresponding input value.\n\nEither revise the "
                         f"spec to be shorter, or modify {fun_name!r} so that its inputs have sufficient rank."
                         f"{scalar}")
    for dim, (size, entry) in enumerate(zip(aval.shape, spec)):
        axes = spec_entry_axes(entry)
        factor = math.prod(mesh.shape[a] for a in axes)
        if size % factor:
            argument = describe()
            named = f"mesh axis {axes[0]!r} (of size" if len(axes) == 1 else f"mesh axes {axes} (of total size"
            raise ValueError(
                f"shard_map applied to the function {fun_name!r} was given argument arrays with axis sizes that are "
                "not evenly divisible by the corresponding mesh axis sizes:\n\nThe mesh given has shape "
                f"{mesh.axis_sizes} with corresponding axis names {mesh.axis_names}.\n\nthe passed "
                f"{argument.path} of shape {aval.str_short()}{argument.bound}, corresponds to "
                f"in_specs{argument.spec_path} of value {spec}, which maps array axis {dim} (of size {size}) to "
                f"{named} {factor}), but {factor} does not evenly divide {size}\n\nArray arguments' axis sizes "
                "must be evenly divisible by the mesh axis or axes indicated by the corresponding elements of the "
                "argument's in_specs entry. Consider checking that in_specs are correct, and if so consider changing "
                f"the mesh axis sizes or else padding the input and adapting {fun_name!r} appropriately.")


def _padded(spec: PartitionSpec, ndim: int) -> PartitionSpec:
    """``spec`` with one entry per dimension (its unreduced and reduced axes kept)."""
    return PartitionSpec(*spec, *[None] * (ndim - len(spec)), unreduced=spec.unreduced, reduced=spec.reduced)


def check_in_type(aval: ShapedArray, spec: PartitionSpec, mesh: Mesh | AbstractMesh) -> None:
    """JAX's error for an ``in_specs`` entry that differs from the argument's type over a mesh whose axes are all
    Explicit (and all made manual): the arguments are not resharded to the specs. Inside the body of an eager
    ``shard_map``, JAX's eager evaluation shows the argument with every device's block stacked along a leading
    dimension split over the manual axes of ``mesh``."""
    given = _padded(spec, aval.ndim)
    typed = aval.explicit_sharding
    own = _padded(typed.spec if typed is not None else PartitionSpec(), aval.ndim)
    if given == own:
        return
    shown = aval
    if mesh.manual_axes:
        stacked = mesh.manual_axes[0] if len(mesh.manual_axes) == 1 else tuple(mesh.manual_axes)
        given, own = (PartitionSpec(stacked, *s, unreduced=s.unreduced, reduced=s.reduced) for s in (given, own))
        shown = aval.update(shape=(math.prod(mesh.shape[a] for a in mesh.manual_axes), *aval.shape), vma=NO_VMA,
                            sharding=NamedSharding(mesh, own))
    raise ValueError(f"in_specs passed to shard_map: {given} does not match the specs of the input: {own} for "
                     f"arg: {shown.str_short()}. `in_specs` is an optional argument so you can omit specifying "
                     "it and shard_map will infer the in_specs from the arguments. If you want to reshard your "
                     "inputs, you can use `jax.reshard` on the arguments and then pass those args to shard_map.")


def _check_eager_untyped(mesh: Mesh | AbstractMesh, manual: frozenset) -> None:
    """JAX 0.10.2's eager ``shard_map`` with unchecked types (also under ``grad`` or ``vmap``) refuses a body manual
    over only some axes, naming the others as if its out specs did."""
    others = [n for n in mesh.axis_names if n not in manual and n not in mesh.manual_axes]
    if others:
        raise _not_manual_error("out_specs", others, manual)


class _EagerBodies(threading.local):
    traces: tuple = ()  # the traces of the bodies of eager shard_maps being traced, innermost last


_eager_bodies = _EagerBodies()


def _recording_eager_body(fun: Callable) -> Callable:
    """``fun`` (an eager shard_map's flat body) recording the trace it runs in while it runs: a shard_map called
    there is checked as JAX's eager evaluation checks it."""

    def body(*blocks):
        _eager_bodies.traces = (*_eager_bodies.traces, core.current_trace())
        try:
            return fun(*blocks)
        finally:
            _eager_bodies.traces = _eager_bodies.traces[:-1]

    return body


def _checks_in_types(mesh: Mesh | AbstractMesh, manual: frozenset, excluded: frozenset) -> bool:
    """Whether the ``in_specs`` of a shard_map making ``manual`` manual are checked against its arguments' types, as
    JAX's are: when the mesh's axes not yet manual (nor ``excluded``, laying out a ``vmap``'s batch) are all
    Explicit and all made manual, at the top level or directly in the body of an eager shard_map."""
    remaining = [(n, t) for n, t in zip(mesh.axis_names, mesh.axis_types)
                 if n not in mesh.manual_axes and n not in excluded]
    if len(manual) != len(remaining) or any(t is not AxisType.Explicit for _, t in remaining):
        return False
    return not mesh.manual_axes or (bool(_eager_bodies.traces) and _eager_bodies.traces[-1] is core.current_trace())


def manual_names(mesh: Mesh | AbstractMesh, manual: frozenset | None = None) -> tuple:
    """The ``manual`` axes (default: all) in mesh order."""
    return mesh.axis_names if manual is None else tuple(n for n in mesh.axis_names if n in manual)


def manual_mesh(mesh: Mesh | AbstractMesh, manual: frozenset | None = None) -> AbstractMesh:
    """The abstract mesh a body is traced under: ``mesh``'s ``manual`` axes (default: all) made manual, the others
    keeping their types."""
    return mesh.abstract_mesh.update_axis_types({n: AxisType.Manual for n in manual_names(mesh, manual)})


@contextlib.contextmanager
def body_context(mesh: Mesh | AbstractMesh, check_vma: bool = False, manual: frozenset | None = None
                 ) -> Iterator[None]:
    """Trace a body: the ``manual`` mesh axes (default: all) bound as named axes, the mesh with them manual the
    context mesh, and with ``check_vma`` values typed by the manual axes (also an enclosing body's) they vary
    over."""
    inside = manual_mesh(mesh, manual)
    with contextlib.ExitStack() as stack:
        for name in manual_names(mesh, manual):
            stack.enter_context(core.extend_axis_env(name, mesh.shape[name]))
        stack.enter_context(use_abstract_mesh(inside))
        stack.enter_context(vma.checking_vma(inside.manual_axes if check_vma else ()))
        yield


# ---------------------------------------------------------------- the primitive

shard_map_p = Primitive("shard_map")
shard_map_p.multiple_results = True


@shard_map_p.def_abstract_eval
def _shard_map_aval(*avals, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, newly_manual_axes, **params):
    return [full_aval(a, s, mesh, newly_manual_axes) for a, s in zip(jaxpr.out_avals, out_specs)]


class ShardMapBody(ClosedJaxpr):
    """A ``shard_map``'s body (its ``jaxpr`` param), which knows the mesh it runs under: printed on its own, its types
    list the manual axes they vary over in that mesh's order, as JAX's do."""

    __slots__ = ("mesh",)

    def __init__(self, closed: ClosedJaxpr, mesh: AbstractMesh):
        super().__init__(closed.jaxpr, closed.consts)
        self.mesh = mesh

    def __str__(self) -> str:
        with use_abstract_mesh(self.mesh):
            return str(self.jaxpr)

    __repr__ = __str__


def shard_map_params(jaxpr: ClosedJaxpr, mesh: Mesh | AbstractMesh, in_specs: Sequence[PartitionSpec],
                     out_specs: Sequence[PartitionSpec], check_vma: bool, manual: frozenset | None = None) -> dict:
    """The params of a ``shard_map`` equation (JAX prints them sorted by name); ``manual``: the mesh axes it makes
    manual (default: all)."""
    return dict(jaxpr=ShardMapBody(jaxpr, manual_mesh(mesh, manual)), mesh=mesh, in_specs=tuple(in_specs),
                out_specs=tuple(out_specs), check_vma=bool(check_vma),
                newly_manual_axes=frozenset(mesh.axis_names if manual is None else manual))


# As JAX's, so that a program lowered from it neither takes nor donates the arguments its body no longer reads; a
# body rewritten for XLA (on keys' physical data) is a plain jaxpr
dce_rules[shard_map_p] = carried_jaxpr_dce_rule(
    ("in_specs",), ("out_specs",),
    lambda body, pruned: ShardMapBody(pruned, body.mesh) if isinstance(body, ShardMapBody) else pruned)


def with_consts_as_inputs(closed: ClosedJaxpr, args: Sequence[Any],
                          in_specs: Sequence[PartitionSpec]) -> tuple[ClosedJaxpr, list[Any], list[PartitionSpec]]:
    """``closed`` with its constants turned into leading replicated inputs (as JAX passes the values a body closes
    over), and the arguments and specs to match."""
    jaxpr, consts = closed.jaxpr, closed.consts
    if not consts:
        return closed, list(args), list(in_specs)
    opened = ClosedJaxpr(jaxpr.replace(constvars=[], invars=[*jaxpr.constvars, *jaxpr.invars]), [])
    return opened, [*consts, *args], [PartitionSpec()] * len(consts) + list(in_specs)


def bind_shard_map(closed: ClosedJaxpr, args: Sequence[Any], mesh, in_specs, out_specs, check_vma,
                   manual: frozenset | None = None) -> list[Any]:
    """A ``shard_map`` equation of ``closed`` on ``args``, making the ``manual`` mesh axes (default: all) manual."""
    if mesh.are_all_axes_auto:  # its results are typed over the mesh
        auto_mesh_types.enable()
    closed, args, in_specs = with_consts_as_inputs(closed, args, in_specs)
    return shard_map_p.bind(*args, **shard_map_params(closed, mesh, in_specs, out_specs, check_vma, manual))


def all_axes_spec(mesh: Mesh | AbstractMesh, manual: frozenset | None = None) -> PartitionSpec:
    """The spec splitting dimension 0 over every ``manual`` mesh axis (default: all): one row per device (how
    per-device values travel)."""
    names = manual_names(mesh, manual)
    return PartitionSpec(names[0] if len(names) == 1 else tuple(names))


def _split_blocks(x: Any, spec: PartitionSpec, mesh: Mesh | AbstractMesh, names: tuple) -> tuple[Any, list[bool]]:
    """``x`` reshaped to its mesh axes (those ``spec`` names, in mesh order) then its block dimensions; also which
    of the manual axes ``names`` it has."""
    from jaxle_core.lax.structural import reshape, transpose

    aval = get_aval(x)
    entries = list(spec) + [None] * (aval.ndim - len(spec))
    shape, labels = [], []
    for dim, entry in enumerate(entries):
        axes = spec_entry_axes(entry)
        shape.extend(mesh.shape[a] for a in axes)
        labels.extend(("mesh", a) for a in axes)
        shape.append(aval.shape[dim] // math.prod(mesh.shape[a] for a in axes))
        labels.append(("block", dim))
    present = [name in spec_axes(spec) for name in names]
    order = [labels.index(("mesh", n)) for n, p in zip(names, present) if p]
    order += [i for i, label in enumerate(labels) if label[0] == "block"]
    if len(shape) != aval.ndim:
        x = reshape(x, tuple(shape))
    if order != list(range(len(order))):
        x = transpose(x, tuple(order))
    return x, present


def _assemble(y: Any, spec: PartitionSpec, mesh: Mesh | AbstractMesh, manual: tuple) -> Any:
    """The whole output from ``y``, the blocks of every device stacked along leading axes, the ``manual`` mesh
    axes (mesh order)."""
    from jaxle_core.lax.slicing import index_in_dim
    from jaxle_core.lax.structural import reshape, transpose

    names = list(manual)
    named = spec_axes(spec)
    for position in reversed(range(len(names))):  # an axis the spec does not name: every device agrees
        if names[position] not in named:
            y = index_in_dim(y, 0, position, keepdims=False)
            del names[position]
    aval = get_aval(y)
    block_ndim = aval.ndim - len(names)
    entries = list(spec) + [None] * (block_ndim - len(spec))
    order, shape = [], []
    for dim, entry in enumerate(entries):
        axes = spec_entry_axes(entry)
        order.extend(names.index(a) for a in axes)
        order.append(len(names) + dim)
        shape.append(aval.shape[len(names) + dim] * math.prod(mesh.shape[a] for a in axes))
    if order != list(range(len(order))):
        y = transpose(y, tuple(order))
    return reshape(y, tuple(shape)) if get_aval(y).ndim != len(shape) else y


def _over_devices(fun: Callable, in_axes: tuple, name: Any, size: int) -> Callable:
    """``fun`` mapped over the devices of one mesh axis, results stacked in front."""
    from jaxle_core.batching.api import call_mapped
    from jaxle_core.batching.trace import DeviceTrace

    return lambda *xs: call_mapped(DeviceTrace, fun, xs, {}, in_axes, 0, name, size)


def evaluate_shard_map(args: Sequence[Any], *, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, newly_manual_axes,
                       **params) -> list[Any]:
    """The body mapped over every device's blocks (a named ``vmap`` per manual mesh axis: along the others each
    block is whole), results assembled by spec."""
    names = manual_names(mesh, newly_manual_axes)
    split = [_split_blocks(x, s, mesh, names) for x, s in zip(args, in_specs)]

    def body(*blocks):
        return core.eval_jaxpr(jaxpr.jaxpr, jaxpr.consts, *blocks)

    mapped = body
    for position in reversed(range(len(names))):
        in_axes = tuple(0 if present[position] else None for _, present in split)
        mapped = _over_devices(mapped, in_axes, names[position], mesh.shape[names[position]])
    inside = manual_mesh(mesh, newly_manual_axes)
    with use_abstract_mesh(inside) if get_abstract_mesh().empty else contextlib.nullcontext():
        outs = mapped(*[x for x, _ in split])
    return [_assemble(y, s, mesh, names) for y, s in zip(outs, out_specs)]


class _Steps(threading.local):
    running = False  # inside a _PerEquation step: it runs as a whole program


_steps = _Steps()


def runs_per_equation(params: dict) -> bool:
    """Whether an eager ``shard_map`` over several devices runs its body one equation at a time, as JAX's eager
    ``shard_map`` runs it: when the body calls back to the host, whose calls then happen in JAX's order (every
    device's call of one equation before the next equation's)."""
    return not _steps.running and params["mesh"].size > 1 and jaxpr_calls_host(params["jaxpr"].jaxpr)


def _device_rows(stack: Any) -> list[Any]:
    """The rows of ``stack`` (one per device along its leading axis) as NumPy arrays, None for those a failed
    computation left in error (a callback's error stays with its results, as in JAX, until they are read)."""
    try:
        return list(np.asarray(stack))
    except Exception:  # some device's rows are in error: read the others shard by shard
        rows: list[Any] = [None] * get_aval(stack).shape[0]
        for shard in stack.addressable_shards:
            try:
                data = np.asarray(shard.data)
            except Exception:  # this device's computation failed
                continue
            rows[shard.index[0]] = list(data)
        return rows


def _distinct_blocks(atom: Any, env: dict, mesh: Mesh, names: tuple, check_vma: bool) -> list[Any]:
    """The blocks of a debug callback's argument it is called with, in mesh order over the manual axes ``names``
    (None for a block in error): every device's, or with typed bodies only those along the axes the value varies
    over (as JAX's eager ``shard_map`` calls it: one call per block of each argument, the arguments' lists
    zipped)."""
    sizes = [mesh.shape[n] for n in names]
    if type(atom) is core.Literal:
        return [atom.val] * (1 if check_vma else math.prod(sizes))
    rows = _device_rows(env[atom])
    if not check_vma:
        return rows
    varying = atom.aval.vma
    kept = [all(c == 0 or n in varying for c, n in zip(at, names)) for at in np.ndindex(*sizes)]
    return [row for row, keep in zip(rows, kept) if keep]


class _PerEquation:
    """A ``shard_map`` body evaluated one equation at a time, each a ``shard_map`` of its own over ``mesh``. Every
    device's block of a value is kept stacked along a leading axis split over the manual mesh axes (``env``: the
    body's variables to those stacks); the body's types are already explicit, so each step runs untyped
    (``check_vma=False``). A debug callback runs on the host, device by device in mesh order, as in JAX."""

    def __init__(self, mesh: Mesh | AbstractMesh, manual: frozenset, check_vma: bool):
        self.mesh, self.manual, self.check_vma = mesh, manual, check_vma
        self.names = manual_names(mesh, manual)
        self.every_axis = PartitionSpec(self.names)
        self.env: dict = {}

    def _step(self, fun: Callable, values: Sequence[Any], specs: Sequence[PartitionSpec],
              avals: Sequence[ShapedArray], result_specs: Sequence[PartitionSpec]) -> list[Any]:
        with body_context(self.mesh, manual=self.manual):
            body = trace_to_jaxpr(fun, [a.update(vma=NO_VMA) for a in avals])
        _steps.running = True
        try:
            with errors_kept_with_results():  # a callback's error stays with its results, as in JAX's eager shard_map
                return shard_map_p.bind(*values, jaxpr=body, in_specs=tuple(specs),
                                        out_specs=tuple(result_specs), mesh=self.mesh, check_vma=False,
                                        newly_manual_axes=self.manual)
        finally:
            _steps.running = False

    def enter(self, variables: Sequence[Var], values: Sequence[Any], specs: Sequence[PartitionSpec]) -> None:
        """Bind ``variables`` to the blocks of ``values`` (whole arrays split by ``specs``)."""
        if variables:
            stacks = self._step(lambda *xs: _stack(xs), values, specs, [v.aval for v in variables],
                                [self.every_axis] * len(variables))
            self.env.update(zip(variables, stacks))

    def run(self, eqn: JaxprEqn) -> None:
        """Evaluate ``eqn`` on every device's blocks of its operands."""
        from jaxle_core.debugging import debug_callback_p, debug_print_p

        if eqn.primitive in (debug_callback_p, debug_print_p):  # called on the host with each block, as JAX calls it
            blocks = [_distinct_blocks(a, self.env, self.mesh, self.names, self.check_vma) for a in eqn.invars]
            for values in zip(*blocks):
                if not any(v is None for v in values):  # not called with a block in error, as in JAX
                    eqn.primitive.impl(*values, **eqn.params)
            return
        variables = [a for a in eqn.invars if type(a) is not core.Literal]

        def one(*stacked):
            blocks = dict(zip(variables, _unstack(stacked)))
            outs = eqn.primitive.bind(*[a.val if type(a) is core.Literal else blocks[a] for a in eqn.invars],
                                      **eqn.params)
            return _stack(outs if eqn.primitive.multiple_results else [outs])

        outs = self._step(one, [self.env[v] for v in variables], [self.every_axis] * len(variables),
                          _stacked_avals([v.aval for v in variables]), [self.every_axis] * len(eqn.outvars))
        self.env.update(zip(eqn.outvars, outs))

    def leave(self, atoms: Sequence[core.Atom], out_specs: Sequence[PartitionSpec]) -> list[Any]:
        """The whole arrays of ``atoms`` assembled from their blocks along ``out_specs``, each by a program of its
        own (so that one left in error by a callback leaves the others readable, as in JAX)."""
        return [self._step(functools.partial(list, [atom.val]), [], [], [], [spec])[0] if type(atom) is core.Literal
                else self._step(lambda x: _unstack([x]), [self.env[atom]], [self.every_axis],
                                _stacked_avals([atom.aval]), [spec])[0]
                for atom, spec in zip(atoms, out_specs)]


def _stack(blocks: Sequence[Any]) -> list[Any]:
    from jaxle_core.lax.structural import expand_dims

    return [expand_dims(b, (0,)) for b in blocks]


def _unstack(stacked: Sequence[Any]) -> list[Any]:
    from jaxle_core.lax.structural import squeeze

    return [squeeze(s, (0,)) for s in stacked]


def _stacked_avals(avals: Sequence[ShapedArray]) -> list[ShapedArray]:
    return [a.update(shape=(1, *a.shape)) for a in avals]  # one device's row


def evaluate_per_equation(args: Sequence[Any], *, jaxpr: ClosedJaxpr, mesh, in_specs, out_specs, check_vma,
                          newly_manual_axes) -> list[Any]:
    """``shard_map`` evaluated one body equation at a time (``_PerEquation``)."""
    run = _PerEquation(mesh, newly_manual_axes, check_vma)
    body = jaxpr.jaxpr
    run.enter(body.constvars, jaxpr.consts, [PartitionSpec()] * len(jaxpr.consts))
    run.enter(body.invars, args, in_specs)
    for eqn in body.eqns:
        run.run(eqn)
    return run.leave(body.outvars, out_specs)


class ShardMapTracer(DynamicJaxprTracer):
    """A value of the body of an eager ``shard_map`` (named as JAX's, which Python's format errors quote), shown
    as JAX's eager evaluation shows it: every device's block; its errors name no traced function."""

    __slots__ = ()

    def __repr__(self) -> str:
        trace = self._trace
        return trace.blocks_text(self) if trace.is_valid else super().__repr__()

    __str__ = __repr__

    def _origin(self) -> str:
        return ""


class _EagerBodyTrace(StagingTrace):
    """The trace of the body of a ``shard_map`` called eagerly, which JAX runs operation by operation as the Python
    body reaches them. Equations are recorded as any staging trace records them; once one calls back to the host,
    or Python reads a value (its concrete value, its text), every equation recorded so far runs
    (``_PerEquation``), so the callbacks run where the Python body reaches them (before an error it raises later,
    between its own prints), and the rest of the body runs equation by equation too (``finish``). A body that
    does neither runs as one program."""

    tracer_type = ShardMapTracer

    def __init__(self, debug_info: DebugInfo, args: Sequence[Any], in_specs: Sequence[PartitionSpec],
                 mesh: Mesh | AbstractMesh, manual: frozenset, check_vma: bool):
        super().__init__(debug_info)
        self.args, self.in_specs = args, in_specs
        self.run = _PerEquation(mesh, manual, check_vma)
        self.outside = core.context_snapshot(), meshes_snapshot()  # where the shard_map was called
        self.started = False  # whether an equation has called back (and the body runs equation by equation)
        self.done = 0  # how many of the equations have run

    def process_primitive(self, primitive, args, params):
        recorded = len(self.eqns)
        outs = super().process_primitive(primitive, args, params)
        if any(calls_host(eqn) for eqn in self.eqns[recorded:]):
            self._catch_up(self.eqns)
        return outs

    def _catch_up(self, eqns: Sequence[JaxprEqn]) -> None:
        """Run the equations of ``eqns`` not run yet, outside the body's trace (the values they read entered)."""
        context, meshes = self.outside
        with core.restored_context(context), restored_meshes(meshes):
            if not self.started:
                self.run.enter(self.invars, self.args, self.in_specs)
                self.started = True
            consts = [(var, value) for var, value in self.constvars.values() if var not in self.run.env]
            self.run.enter([var for var, _ in consts], [value for _, value in consts],
                           [PartitionSpec()] * len(consts))
            for eqn in eqns[self.done:]:
                self.run.run(eqn)
            self.done = len(eqns)

    def _blocks(self, tracer: DynamicJaxprTracer) -> np.ndarray:
        """Every device's block of ``tracer``, stacked in mesh order over the manual axes."""
        self._catch_up(self.eqns)
        return np.asarray(self.run.env[tracer.jaxpr_var])

    def concrete_value(self, tracer: Tracer) -> Any:
        """The value of ``tracer`` where JAX reads it: one all devices agree on by its type (checked, varying over no
        manual axis; unreduced or reduced over none)."""
        if not (self.run.check_vma and isinstance(tracer, DynamicJaxprTracer) and tracer._trace is self):
            return None
        aval = tracer.aval
        if (aval.vma | aval.unreduced | aval.reduced) & self.run.manual:
            return None
        return self._blocks(tracer)[0]

    def blocks_text(self, tracer: DynamicJaxprTracer) -> str:
        """JAX's text of a value of an eager ``shard_map`` body: each device's block under its mesh coordinates (as
        JAX's, it cannot show one in a body leaving some mesh axes unmapped)."""
        mesh = self.run.mesh if isinstance(self.run.mesh, Mesh) else get_mesh()
        names = self.run.names
        unmapped = [n for n in mesh.axis_names if n not in names]
        if unmapped:
            from jaxle_core.lax.parallel import unbound_axis_error  # local: the collectives build on shard_map's mesh

            raise unbound_axis_error(unmapped[0], "pvary")
        blocks = self._blocks(tracer)
        coordinates = f"({', '.join(map(str, mesh.axis_names))},)"
        texts = []
        for index, device in np.ndenumerate(mesh.devices):
            at = dict(zip(mesh.axis_names, index))
            row = np.ravel_multi_index([at[n] for n in names], [mesh.shape[n] for n in names])
            texts.append(f"On {device} at mesh coordinates {coordinates} = {index}:\n{blocks[row]}\n")
        return "\n".join(texts)

    def finish(self, closed: ClosedJaxpr, out_specs: Sequence[PartitionSpec]) -> list[Any]:
        """The results of ``closed`` (the traced body, its results cast as their specs say) once every equation has
        run."""
        self._catch_up(closed.jaxpr.eqns)
        context, meshes = self.outside
        with core.restored_context(context), restored_meshes(meshes):
            return self.run.leave(closed.jaxpr.outvars, out_specs)


@shard_map_p.def_impl
def _shard_map_impl(*args, **params):
    return [np.asarray(o) for o in evaluate_shard_map(args, **params)]


def _pp_shard_map(eqn: JaxprEqn, context: pretty.PpContext) -> pretty.Doc:
    # The body's types list the axes they vary over in mesh order.
    with use_abstract_mesh(manual_mesh(eqn.params["mesh"], eqn.params["newly_manual_axes"])):
        return pretty.pp_eqn_generic(eqn, context)


pretty.pp_eqn_rules[shard_map_p] = _pp_shard_map
register_rule(shard_map_p, _result_layouts)


# ---------------------------------------------------------------- shard_map


def _broadcast_specs(specs: Any, values: Any, what: str) -> list[PartitionSpec]:
    """``specs`` (a pytree prefix of ``values``) given per leaf of ``values``."""
    is_spec = lambda x: x is None or isinstance(x, PartitionSpec)
    try:
        flat = tree.tree_leaves(tree.tree_broadcast(specs, values, is_leaf=is_spec), is_leaf=is_spec)
    except ValueError as error:
        raise ValueError(f"shard_map {what} must be a tree prefix of the corresponding value, got specs {specs} "
                         f"for value tree {tree.tree_structure(values)}.") from error
    for spec in flat:
        if not isinstance(spec, PartitionSpec):
            raise TypeError(f"shard_map {what} must be PartitionSpecs, got {spec!r}")
    return flat


def check_context_mesh(mesh: Mesh | AbstractMesh) -> None:
    """JAX's error for a shard_map inside another over a different mesh (nested pmaps among them), or given a
    concrete mesh inside a body whose axes are manual (an inner shard_map takes the context mesh)."""
    context = get_abstract_mesh()
    if context.empty or ((context.axis_names, context.axis_sizes) == (mesh.axis_names, mesh.axis_sizes)
                         and (context.axis_types == mesh.axis_types or not context.manual_axes)):
        return
    raise ValueError(f"The context mesh {context} should match the mesh passed to shard_map {mesh}")


def trace_body(fun: Callable, block_avals: Sequence[ShapedArray], mesh, debug_info: DebugInfo,
               check_vma: bool = False, manual: frozenset | None = None,
               trace: StagingTrace | None = None) -> ClosedJaxpr:
    """The jaxpr of ``fun`` (flat blocks in, flat list out) traced under ``mesh``'s ``manual`` named axes (default:
    all), recorded into ``trace`` (default: a new staging trace)."""
    with body_context(mesh, check_vma, manual):
        return trace_to_jaxpr(fun, block_avals, debug_info, trace=trace)


def cast_outputs(closed: ClosedJaxpr, out_specs: Sequence[PartitionSpec], mesh,
                 manual: frozenset | None = None) -> ClosedJaxpr:
    """``closed`` with each output cast (``pvary``) to vary over the axes its spec splits it along, as JAX casts
    the results of a body checking types."""
    jaxpr = closed.jaxpr
    eqns, outvars = list(jaxpr.eqns), list(jaxpr.outvars)
    with use_abstract_mesh(manual_mesh(mesh, manual)):  # the axes in mesh order
        for index, (atom, spec) in enumerate(zip(jaxpr.outvars, out_specs)):
            missing = frozenset(spec_axes(spec)) - atom.aval.vma
            if missing & atom.aval.reduced:
                raise ValueError(f"pvary cannot accept args which are reduced. Got {atom.aval.str_short(True)} and "
                                 f"axes={set(missing)}")
            if missing:
                from jaxle_core.lax.parallel import pvary_p  # local: the collectives build on shard_map's mesh

                outvars[index] = Var(atom.aval.update(vma=atom.aval.vma | missing))
                eqns.append(JaxprEqn([atom], [outvars[index]], pvary_p, {"axes": vma.ordered(missing)}))
    if len(eqns) == len(jaxpr.eqns):
        return closed
    return ClosedJaxpr(jaxpr.replace(eqns=eqns, outvars=outvars), closed.consts)


def _axes_text(axes, mesh) -> str:
    return "{" + ",".join(str(a) for a in mesh.axis_names if a in axes) + "}"


def _replication_problem(path: str, spec: PartitionSpec, varying: frozenset, mesh,
                         batch_axes: frozenset = frozenset()) -> str | None:
    """JAX's words for an output whose spec leaves out axes it varies over (None when it varies as its spec
    says); ``batch_axes``: the mesh axes along which a ``vmap``'s ``spmd_axis_name`` splits the batch it varies
    with, which JAX's words name among those it varies over."""
    named = frozenset(spec_axes(spec))
    unnamed = [a for a in mesh.axis_names if a not in named]
    if not varying - named - spec.unreduced - spec.reduced:
        return None
    varying = varying | batch_axes
    if len(unnamed) == 1:
        return (f"{path} is {spec} which implies that the corresponding output value is replicated across mesh axis "
                f"{unnamed[0]!r}, but could not infer replication over any axes")
    return (f"{path} is {spec} which implies that the corresponding output value is only varying across mesh axes "
            f"{_axes_text(named, mesh)} and not {_axes_text(varying - named, mesh)}, but it was inferred to be "
            f"possibly varying over {_axes_text(varying, mesh)}")


def check_out_vma(fun_name: str, out_avals: Sequence[ShapedArray], flat_out_specs: Sequence[PartitionSpec],
                  out_paths: Sequence[str], mesh, manual: frozenset | None = None,
                  batch_axes: Sequence[frozenset] = ()) -> None:
    """JAX's error for results varying over ``manual`` mesh axes (default: all) that their out_specs say they are
    replicated over (a result may vary over an enclosing body's axes); ``batch_axes``: for each result, the mesh
    axes splitting the batch of a ``vmap`` it varies with (see ``_replication_problem``)."""
    manual = frozenset(mesh.axis_names) if manual is None else manual
    batch_axes = list(batch_axes) + [frozenset()] * (len(out_avals) - len(batch_axes))
    # a value unreduced or reduced over axes is not known to be replicated over them either
    problems = [p for p in (_replication_problem(path, spec, (aval.vma | aval.unreduced | aval.reduced) & manual, mesh,
                                                 batched)
                            for aval, spec, path, batched in zip(out_avals, flat_out_specs, out_paths, batch_axes))
                if p]
    if not problems:
        return
    listed = problems[0] if len(problems) == 1 else "\n\n".join(f"* {p}" for p in problems)
    raise ValueError(
        f"shard_map applied to the function {fun_name!r} was given out_specs which require replication which can't "
        f"be statically inferred given the mesh:\n\nThe mesh given has shape {mesh.axis_sizes} with corresponding "
        f"axis names {mesh.axis_names}.\n\n{listed}\n\nCheck if these output values are meant to be replicated "
        "over those mesh axes. If not, consider revising the corresponding out_specs entries. If so, consider "
        "disabling the check by passing the check_vma=False argument to `jax.shard_map`.")


def check_out_rank(fun_name: str, out_avals: Sequence[ShapedArray], flat_out_specs: Sequence[PartitionSpec],
                   paths: Sequence[str], eager: bool) -> None:
    """JAX's error for an out_specs entry longer than its result's rank (``paths``: each result's key path in the
    outputs; called ``eager``ly, JAX shows the result's type without its varying axes)."""
    for aval, spec, path in zip(out_avals, flat_out_specs, paths):
        if len(spec) <= aval.ndim:
            continue
        shown = aval.update(vma=NO_VMA) if eager else aval
        scalar = ("\n\nFor scalar values (rank 0), consider using an out_specs entry of `P()`, where `P = "
                  "jax.sharding.PartitionSpec`. In particular, for rank 0 outputs which are not constant over the "
                  "mesh, add at least one (singleton) axis to them so that they can be concatenated using out_specs."
                  if aval.ndim == 0 else "")
        raise ValueError(
            f"shard_map applied to the function {fun_name!r} was given an out_specs entry which is too long to be "
            f"compatible with the corresponding output value from the function:\n\nout_specs{path} is {spec} which "
            f"has length {len(spec)}, but {fun_name}(*args){path} has shape {shown.str_short()}, which has rank "
            f"{aval.ndim} "
            f"(and {aval.ndim} < {len(spec)})\n\nEntries in out_specs must be of length no greater than the number "
            f"of axes in the corresponding output value.\n\nEither revise the spec to be shorter, or modify "
            f"{fun_name!r} so that its outputs have sufficient rank.{scalar}")


def _inferred_specs(flat: Sequence[Any], mesh, manual: frozenset) -> list[PartitionSpec]:
    """The specs of arguments laid out (or typed) over ``mesh``'s ``manual`` axes (replicated for the others),
    which only manual axes that are all Explicit allow, as in JAX."""
    auto = [n for n, t in zip(mesh.axis_names, mesh.axis_types) if t is not AxisType.Explicit and n in manual]
    if auto:
        raise TypeError("shard_map in_specs argument must be a pytree of `jax.sharding.PartitionSpec` instances, but "
                        f"it was `None` when axis_names={set_text(frozenset(auto))} are of type AxisType.Auto")
    shardings = [get_aval(x).explicit_sharding or (None if isinstance(x, Tracer) else getattr(x, "sharding", None))
                 for x in flat]
    return [_manual_part(s.spec, manual)
            if isinstance(s, NamedSharding) and s.mesh.abstract_mesh == mesh.abstract_mesh else PartitionSpec()
            for s in shardings]


def _manual_part(spec: PartitionSpec, manual: frozenset) -> PartitionSpec:
    """``spec`` naming only the ``manual`` axes (trailing unsplit dimensions dropped), its unreduced and reduced ones
    included."""
    entries = [tuple(a for a in spec_entry_axes(e) if a in manual) for e in spec]
    entries = [None if not axes else axes[0] if len(axes) == 1 else axes for axes in entries]
    unreduced, reduced = spec.unreduced & manual, spec.reduced & manual
    while entries and entries[-1] is None and not (unreduced or reduced):
        entries.pop()
    return PartitionSpec(*entries, unreduced=unreduced, reduced=reduced)


def _context_mesh() -> AbstractMesh:
    mesh = get_abstract_mesh()
    if mesh.empty:
        raise ValueError("The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh context")
    return mesh


def shard_map(f: Callable | None = None, /, *, out_specs: Any, in_specs: Any = None, mesh: Mesh | None = None,
              axis_names: Any = frozenset(), check_vma: bool = True) -> Callable:
    """``f`` applied to every device's blocks of its arguments (split along ``in_specs`` over ``mesh``), the results
    assembled along ``out_specs``. Inside ``f`` the mesh axes are named axes for collectives."""
    if f is None:
        return lambda g: shard_map(g, out_specs=out_specs, in_specs=in_specs, mesh=mesh, axis_names=axis_names,
                                   check_vma=check_vma)
    if not callable(f):
        raise TypeError(f"shard_map requires a callable for its first argument, but got {f} of type {type(f)}.")
    # As JAX's, a shard_map given no mesh takes the context mesh of its first call, and one given no axis names takes
    # those its first call may make manual, for every call after
    names = axis_names

    @functools.wraps(f)
    def mapped(*args):
        nonlocal names, mesh
        if mesh is None:
            mesh = _context_mesh()
        excluded = _batch_axes()
        names = _axis_names(names, mesh, excluded)
        manual = names - frozenset(mesh.manual_axes)
        eager = isinstance(core.current_trace(), core.EvalTrace)
        flat, in_tree = tree.tree_flatten(args)
        flat_in_specs = (_inferred_specs(flat, mesh, manual) if in_specs is None
                         else _broadcast_specs(in_specs, args, "in_specs"))
        avals = [get_aval(x) for x in flat]
        fun_name = getattr(f, "__name__", type(f).__name__)
        given_specs = in_specs if in_specs is not None else flat_in_specs
        for leaf, (aval, spec) in enumerate(zip(avals, flat_in_specs)):
            _check_in_spec(fun_name, functools.partial(_in_argument, f, fun_name, args, given_specs, leaf), aval,
                           spec, mesh, manual | frozenset(mesh.manual_axes))
        if mesh.explicit_axes:  # the results are typed over the mesh, whatever the arguments' types
            sharding_types.enable()
        if in_specs is not None and _checks_in_types(mesh, manual, excluded):
            for aval, spec in zip(avals, flat_in_specs):
                check_in_type(aval, spec, mesh)
        check_context_mesh(mesh)
        eagerly = eager or transforms_eager_code()
        if eagerly and not check_vma:
            _check_eager_untyped(mesh, manual)
        debug_info = DebugInfo("shard_map", f, ())
        flat_fun, out_tree = flatten_fun(f, in_tree, debug_info)
        if eagerly:
            flat_fun = _recording_eager_body(flat_fun)
        # called eagerly, a body that calls back runs as the Python body reaches its operations
        body_trace = (_EagerBodyTrace(debug_info, flat, flat_in_specs, mesh, manual, check_vma)
                      if eager and not _steps.running else None)
        closed = trace_body(flat_fun, [body_aval(a, s, mesh, check_vma, manual)
                                       for a, s in zip(avals, flat_in_specs)], mesh, debug_info, check_vma, manual,
                            body_trace)
        outs_shape = tree.tree_unflatten(out_tree(), list(closed.out_avals))
        flat_out_specs = _broadcast_specs(out_specs, outs_shape, "out_specs")
        for spec in flat_out_specs:
            _check_reductions("out_specs", spec, mesh)
            _check_spec_axes(spec, manual | frozenset(mesh.manual_axes), "out_specs")
        paths = [tree.keystr(p) for p, _ in tree.tree_flatten_with_path(outs_shape)[0]]
        check_out_rank(fun_name, closed.out_avals, flat_out_specs, paths, eager)
        if check_vma:
            _check_spmd_batching(closed, flat, mesh, flat_in_specs, flat_out_specs, manual)
            closed = cast_outputs(closed, flat_out_specs, mesh, manual)
            if eager:  # JAX's eager shard_map checks its results one at a time, in a function of its own
                for aval, spec in zip(closed.out_avals, flat_out_specs):
                    check_out_vma("_rem_singleton", [aval], [spec], ["out_specs"], mesh, manual)
            check_out_vma(fun_name, closed.out_avals, flat_out_specs, [f"out_specs{p}" for p in paths], mesh,
                          manual, _spmd_batch_axes(closed.jaxpr, flat))
        if body_trace is not None and body_trace.started:
            if mesh.are_all_axes_auto:  # its results are typed over the mesh
                auto_mesh_types.enable()
            return tree.tree_unflatten(out_tree(), body_trace.finish(closed, flat_out_specs))
        outs = bind_shard_map(closed, flat, mesh, flat_in_specs, flat_out_specs, check_vma, manual)
        return tree.tree_unflatten(out_tree(), outs)

    return mapped


def _axis_names(axis_names: Any, mesh: Mesh | AbstractMesh, excluded: frozenset) -> frozenset:
    """The mesh axes a shard_map names: ``axis_names``, or when empty all but ``excluded`` (the manual ones are those
    an enclosing body has not made manual yet). JAX's errors for a wrong type or an axis not in the mesh (or
    excluded)."""
    if not isinstance(axis_names, (set, frozenset)):
        raise TypeError("`axis_names` argument of shard_map should be of type `frozenset` or `set`. Got type: "
                        f"{type(axis_names)}")
    names = frozenset(axis_names)
    available = frozenset(mesh.axis_names) - excluded
    if not names <= available:
        raise ValueError(f"jax.shard_map requires axis_names={set_text(names)} to be a subset of "
                         f"mesh.axis_names={set_text(available)}")
    return names or available


def _spmd_batch_axes(jaxpr: Jaxpr, flat: Sequence[Any]) -> list[frozenset]:
    """For each output of the body ``jaxpr`` called on ``flat``, the mesh axes that the ``vmap`` this shard_map
    runs under splits its batch along (its ``spmd_axis_name``) when the output depends on a batched argument:
    JAX's batched body varies over them there."""
    from jaxle_core.batching.trace import BatchTrace, BatchTracer  # batching registers shard_map's rule

    trace = core.current_trace()
    if not isinstance(trace, BatchTrace) or not trace.spmd_axes:
        return []
    batched = {v for v, x in zip(jaxpr.invars, flat)
               if isinstance(x, BatchTracer) and x._trace is trace and x.dim is not None}
    for eqn in jaxpr.eqns:
        if any(isinstance(v, Var) and v in batched for v in eqn.invars):
            batched.update(eqn.outvars)
    axes = frozenset(trace.spmd_axes)
    return [axes if isinstance(v, Var) and v in batched else frozenset() for v in jaxpr.outvars]


def _check_spmd_batching(closed: ClosedJaxpr, flat: Sequence[Any], mesh, in_specs, out_specs,
                         manual: frozenset) -> None:
    """Under a ``vmap`` naming mesh axes (``spmd_axis_name``), JAX's errors batching the body (see
    ``check_spmd_batched_body``), raised before the results' types are checked, as JAX raises them."""
    from jaxle_core.batching.shard_map import check_spmd_batched_body  # batching registers shard_map's rule
    from jaxle_core.batching.trace import BatchTrace

    trace = core.current_trace()
    if isinstance(trace, BatchTrace) and trace.spmd_axes:
        check_spmd_batched_body(trace, flat, closed, mesh, in_specs, out_specs, manual)


def _batch_axes() -> frozenset:
    """The mesh axes laying out the mapped dimensions of the ``vmap``s a shard_map runs under: as JAX, it leaves
    them out of its manual axes (each example's blocks keep them in their types)."""
    from jaxle_core.batching.trace import BatchTrace  # batching registers shard_map's rule: imported on use

    axes: set = set()
    trace = core.current_trace()
    while trace is not None:
        if isinstance(trace, BatchTrace) and trace.layout is not None:
            axes.update(spec_entry_axes(trace.layout.entry))
        trace = trace.parent
    return frozenset(axes)


def _axis_spec(axis: int | None, name: Any) -> PartitionSpec:
    return PartitionSpec() if axis is None else PartitionSpec(*([None] * axis), name)


def smap(f: Callable | None = None, /, *, in_axes: Any = 0, out_axes: Any, axis_name: Any) -> Callable:
    """``shard_map`` over one axis of the context mesh (``set_mesh``), with ``vmap``-style axes: ``f`` maps each
    device's slice of axis ``in_axes`` of its arguments; results are joined along ``out_axes``."""
    if f is None:
        return lambda g: smap(g, in_axes=in_axes, out_axes=out_axes, axis_name=axis_name)
    is_axis = lambda x: x is None
    to_specs = lambda axes: tree.tree_map(lambda a: _axis_spec(a, axis_name), axes, is_leaf=is_axis)

    def mapped(*args):
        specs = to_specs(tuple(in_axes) if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args))
        return shard_map(f, mesh=_context_mesh(), in_specs=specs, out_specs=to_specs(out_axes),
                         axis_names=frozenset({axis_name}))(*args)

    return mapped
