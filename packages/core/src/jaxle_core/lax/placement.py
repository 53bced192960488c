"""Primitives that place values without changing them: ``stage`` (into the current trace),
``device_put`` (onto a device, as ``jax.device_put`` stages inside a traced function) and
``sharding_constraint`` (``with_sharding_constraint``: how a value is laid out across devices).

Their parameters are recorded as JAX records them; evaluated on one device each is an identity, and a backend
with several devices lays the value out as the sharding says. A PartitionSpec given to
``with_sharding_constraint`` is read over the current mesh (``set_mesh``).
"""

from __future__ import annotations

import enum
from typing import Any

import jaxle_tree as tree
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import EvalTrace, Primitive, Tracer, current_trace
from jaxle_core.memory_spaces import MemorySpace, register_placing, space_of_kind
from jaxle_core.mesh import AbstractMesh, PartitionSpec, get_abstract_mesh, get_mesh, resource_mesh
from jaxle_core.pretty import pp_eqn_generic, pp_eqn_rules
from jaxle_core.sharding import NamedSharding, Sharding, check_sharding_fits
from jaxle_core.sharding_types import check_type_divides, checked_out_sharding, source_sharding, spec_of, type_spec
from jaxle_core.source_info import current, reevaluating_equation, summarize
from jaxle_core.staging import staging_rewrites

__all__ = ["ArrayCopySemantics", "check_auto_axes_only", "device_put_p", "leaves_layout_open", "outside_context_mesh",
           "note_staged_at", "reshard", "reshard_p", "reshard_target", "sharding_constraint_p", "stage", "stage_p",
           "staged_at", "staged_device_put", "with_sharding_constraint"]

stage_p = Primitive("stage")
stage_p.def_abstract_eval(lambda aval: aval)
stage_p.def_impl(lambda x: x)
# Staging records nothing: a host value becomes a constant (or literal) of the jaxpr, a tracer stays itself.
staging_rewrites[stage_p] = lambda args, params: args[0]


def stage(x: Any, /) -> Any:
    """``x`` lifted into the current trace: an Array outside any transformation, else the trace's value."""
    return stage_p.bind(x)


class ArrayCopySemantics(enum.Enum):
    """Whether ``device_put`` copies its operand, may reuse its buffer, or donates it."""

    ALWAYS_COPY = 0
    REUSE_INPUT = 1
    DONATE_INPUT = 2

    def __repr__(self) -> str:
        return str(self)  # as jaxprs print it: ArrayCopySemantics.REUSE_INPUT


device_put_p = Primitive("device_put")
device_put_p.multiple_results = True


@device_put_p.def_abstract_eval
def _device_put_aval(*avals, devices, srcs, copy_semantics):
    if not len(avals) == len(devices) == len(srcs) == len(copy_semantics):
        raise ValueError(f"device_put: {len(avals)} operands need as many devices, sources and copy semantics; "
                         f"got {len(devices)}, {len(srcs)} and {len(copy_semantics)}")
    for aval, device in zip(avals, devices):  # a vmapped put's batch may be padded by XLA inside jit
        _check_destination_fits(aval, device, allow_uneven=True)
    return [aval.update(memory_space=_destination_space(aval, device)) if type(aval) is ShapedArray else aval
            for aval, device in zip(avals, devices)]


def _check_destination_fits(aval: Any, destination: Any, allow_uneven: bool = False) -> None:
    """JAX's ValueError when ``destination`` (a sharding with Explicit axes, or any sharding) cannot lay out a
    value of ``aval``."""
    check_type_divides(destination, aval.shape)
    check_sharding_fits(destination, aval.shape, "One of device_put args", allow_uneven=allow_uneven)


def _destination_space(aval: Any, destination: Any) -> MemorySpace:
    """The memory space ``device_put`` moves a value of ``aval`` to: a space named, that of a sharding's memory
    kind, else the value's own (a device keeps it)."""
    if isinstance(destination, MemorySpace):
        return destination
    if isinstance(destination, Sharding):
        return space_of_kind(destination.memory_kind)
    return aval.memory_space


register_placing(device_put_p)


device_put_p.def_impl(lambda *values, devices, srcs, copy_semantics: list(values))


def staged_device_put(values: list[Any], destinations: Any,
                      semantics: ArrayCopySemantics = ArrayCopySemantics.REUSE_INPUT) -> list[Any]:
    """``values`` put on ``destinations`` (a device, a sharding or a memory space: one for all, or a list of one
    per value) by one ``device_put`` equation, as JAX stages it inside a transformation; a sharding over devices
    is noted where it is staged, for JAX's errors when its devices disagree with others of the program
    (``staged_at``)."""
    n = len(values)
    destinations = tuple(destinations) if isinstance(destinations, list) else (destinations,) * n
    for value, destination in zip(values, destinations):  # under vmap, checked against one example as JAX does
        _check_destination_fits(get_aval(value), destination)
    outs = device_put_p.bind(*values, devices=destinations, srcs=tuple(source_sharding(v) for v in values),
                             copy_semantics=(semantics,) * n)
    for destination in dict.fromkeys(destinations):
        if isinstance(destination, Sharding) and not isinstance(getattr(destination, "mesh", None), AbstractMesh):
            note_staged_at(destination)
    return outs


# ---------------------------------------------------------------- sharding constraints


class EmptyMesh:
    """The device mesh in context when none is set; printed as JAX prints it."""

    empty = True

    def __repr__(self) -> str:
        return "Mesh()"


empty_mesh = EmptyMesh()

sharding_constraint_p = Primitive("sharding_constraint")
sharding_constraint_p.def_abstract_eval(lambda aval, **params: aval)
sharding_constraint_p.def_impl(lambda x, **params: x)


def _checked_sharding(sharding: Any, aval: Any, staged: bool) -> Any:
    """The Sharding a leaf is constrained to (a PartitionSpec read over the current mesh), checked against it
    (a ``staged`` leaf, a tracer, may be split unevenly: the compiled program pads it)."""
    if sharding is None:
        raise ValueError("One of with_sharding_constraint arguments got sharding None which is not allowed. Please "
                         "only pass `jax.sharding.Sharding` instances.")
    if isinstance(sharding, PartitionSpec):
        # over the abstract mesh of set_mesh (as JAX records it), else the mesh of a legacy `with mesh:`
        mesh = get_abstract_mesh() if not get_abstract_mesh().empty else resource_mesh()
        if mesh is None:
            raise RuntimeError("with_sharding_constraint requires a non-empty mesh in context if you are passing "
                               "`PartitionSpec`s to shardings. You can define a context mesh via "
                               "`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to shardings and then the "
                               "mesh context manager is not required.")
        sharding = NamedSharding(mesh, sharding)
    if not isinstance(sharding, Sharding):
        raise TypeError(f"shardings leaf specifications are expected to be PartitionSpec instances or None, but got "
                        f"{sharding}")
    # as JAX's: its rank first, then the kinds of the axes it names, then (outside a program) whether they divide
    check_sharding_fits(sharding, aval.shape, "One of with_sharding_constraint arguments", allow_uneven=True)
    if isinstance(sharding, NamedSharding) and not _asserting():
        check_auto_axes_only(sharding)
    if not staged:
        check_sharding_fits(sharding, aval.shape, "One of with_sharding_constraint arguments")
    return sharding


def check_auto_axes_only(sharding: NamedSharding) -> None:
    """JAX's error for a sharding constraint whose spec names an Explicit axis of its mesh (a layout of Explicit
    axes is the type's, changed by ``reshard`` only)."""
    named = set(sharding.mesh.axis_names) - set(sharding.replicated_axes)
    if named & set(sharding.mesh.explicit_axes):
        raise ValueError(f"The spec of NamedSharding passed to with_sharding_constraint can only refer to Auto axes of "
                         f"the mesh. Got spec={sharding.spec} and mesh={sharding.mesh.abstract_mesh!r}. You probably "
                         "meant to use `reshard` API?")


def _asserting() -> bool:
    """Whether constraints only check types: under ``set_mesh`` of a mesh whose axes are all Explicit."""
    context = get_abstract_mesh()
    return not context.empty and context.are_all_axes_explicit


def _asserted(leaf: Any, sharding: Any) -> bool:
    """Under ``set_mesh`` of a mesh whose axes are all Explicit a constraint only checks the type's layout (as JAX's
    does, whatever mesh the sharding names): True when it matches, JAX's AssertionError when not; False
    elsewhere."""
    if not isinstance(sharding, NamedSharding) or not _asserting():
        return False
    aval = get_aval(leaf)
    have = PartitionSpec(*spec_of(aval))
    if have != type_spec(get_abstract_mesh(), sharding.spec, aval.ndim):
        provided = PartitionSpec(*sharding.spec, *[None] * (aval.ndim - len(sharding.spec)))
        raise AssertionError(f"`with_sharding_constraint` acts as an assert when all axes of mesh are of type "
                             f"`Explicit`. The array sharding: {have} did not match the sharding provided: "
                             f"{provided}. Please use `jax.sharding.reshard` to shard your input to the sharding "
                             "you want.")
    return True


def _entry_axes(entry: Any) -> tuple:
    return () if entry is None else entry if isinstance(entry, tuple) else (entry,)


def _with_type_axes(sharding: Any, aval: Any) -> Any:
    """``sharding`` (naming Auto axes only) over a mesh with Explicit axes too, each dimension also split along the
    Explicit axes of ``aval``'s type: the value keeps its layout there, as JAX's constraint does."""
    if not isinstance(sharding, NamedSharding) or not sharding.mesh.explicit_axes or aval.explicit_sharding is None \
            or not any(spec_of(aval)):
        return sharding
    asked = list(sharding.spec) + [None] * (aval.ndim - len(sharding.spec))
    merged = [_entry_axes(own) + _entry_axes(entry) for own, entry in zip(spec_of(aval), asked)]
    spec = [None if not axes else axes[0] if len(axes) == 1 else axes for axes in merged]
    return NamedSharding(sharding.mesh, PartitionSpec(*spec), memory_kind=sharding.memory_kind)


def outside_context_mesh(sharding: Any) -> bool:
    """Whether ``sharding`` names devices other than those of the mesh set by ``set_mesh`` (when one is), or the same
    ones in another order: JAX refuses to compile such a constraint."""
    context = get_mesh()
    if context.empty or isinstance(getattr(sharding, "mesh", None), AbstractMesh):
        return False
    return tuple(sharding._device_assignment) != tuple(context._flat_devices_tuple)


# Where a constraint to each sharding over devices was last staged, for JAX's errors when their devices disagree
# with others of the program (the program compiled may be a re-staged copy of the one traced, so the sharding, not
# the equation, is the key); the oldest are forgotten.
_locations: dict[Any, str] = {}
_LOCATIONS_KEPT = 64


def staged_at(sharding: Any) -> str:
    """Where a constraint to ``sharding`` was last staged (``/path/file.py:12:8 (f)``), else ``unknown``."""
    return _locations.get(sharding, "unknown")


def note_staged_at(sharding: Any, where: str | None = None) -> None:
    """Note that a constraint (or ``device_put``) to ``sharding`` is staged ``where`` (by default the user's line
    being traced, or, for an equation of a jaxpr interpreted again, the line it was first staged at; JAX names
    none, ``""``, for those it stages inside its own jitted functions)."""
    known = _locations.pop(sharding, None)
    if where is None:
        where = known if known is not None and reevaluating_equation() else summarize(current())
    if len(_locations) >= _LOCATIONS_KEPT:
        del _locations[next(iter(_locations))]
    _locations[sharding] = where


def _unconstrained_dims(sharding: Any) -> frozenset:
    """The dimensions a sharding's spec leaves to XLA's partitioner (``P.UNCONSTRAINED``)."""
    spec = getattr(sharding, "spec", None)
    return frozenset(d for d, entry in enumerate(spec or ()) if entry is PartitionSpec.UNCONSTRAINED)


def with_sharding_constraint(x: Any, shardings: Any) -> Any:
    """``x`` (a pytree of arrays), constrained to ``shardings`` (one sharding, or a pytree prefix of ``x``)."""
    leaves, treedef = tree.tree_flatten(x)
    try:
        per_leaf = tree.tree_leaves(tree.tree_broadcast(shardings, x, is_leaf=lambda s: s is None),
                                    is_leaf=lambda s: s is None)
    except ValueError as error:
        details = str(error).replace("broadcast_prefix prefix_tree", "with_sharding_constraint shardings")
        raise ValueError("with_sharding_constraint shardings specification must be a tree prefix of the "
                         f"corresponding value; \n{details}") from None
    per_leaf = [_checked_sharding(sharding, get_aval(leaf), isinstance(leaf, Tracer))
                for sharding, leaf in zip(per_leaf, leaves)]
    context = get_abstract_mesh()
    context = empty_mesh if context.empty else context
    outs = [leaf if _asserted(leaf, sharding) else
            sharding_constraint_p.bind(leaf, sharding=_with_type_axes(sharding, get_aval(leaf)), layout=None,
                                       context_mesh=context,
                                       unconstrained_dims=_unconstrained_dims(sharding))
            for leaf, sharding in zip(leaves, per_leaf)]
    staging = not isinstance(current_trace(), EvalTrace)  # a constant's constraint is staged too
    for leaf, sharding in zip(leaves, per_leaf):
        if (staging or isinstance(leaf, Tracer)) and not isinstance(getattr(sharding, "mesh", None), AbstractMesh):
            note_staged_at(sharding)
    return tree.tree_unflatten(treedef, outs)


# ---------------------------------------------------------------- reshard

reshard_p = Primitive("reshard")
reshard_p.def_abstract_eval(lambda aval, **params: aval)
reshard_p.def_impl(lambda x, **params: x)
pp_eqn_rules[reshard_p] = lambda eqn, context: pp_eqn_generic(eqn, context, names=[])  # JAX prints no params


def leaves_layout_open(dst_sharding: NamedSharding) -> bool:
    """Whether a reshard to ``dst_sharding`` constrains nothing: a layout naming no axis of the abstract mesh (as
    ``auto_axes`` gives its arguments and ``explicit_axes`` its results), or of a mesh without Explicit axes (a
    reshard lays a value out along Explicit axes only), left to the partitioner."""
    return not any(dst_sharding.spec) and (isinstance(dst_sharding.mesh, AbstractMesh)
                                           or not dst_sharding.mesh.explicit_axes)


def reshard_target(sharding: Any, function: str = "reshard", same_mesh: bool = False) -> NamedSharding:
    """The NamedSharding a ``reshard`` (or the ``out_sharding`` argument of ``function``) asks for, checked as JAX
    checks it (``checked_out_sharding``; a reshard's may be over another mesh)."""
    if sharding is None:
        raise TypeError(f"`out_sharding` argument of {function} only supports instances of `NamedSharding` or "
                        f"`PartitionSpec`. Got {sharding} of type: {type(sharding)}")
    return checked_out_sharding(sharding, function, same_mesh)


def _within_rank(sharding: NamedSharding, ndim: int) -> NamedSharding:
    """``sharding`` for a value of rank ``ndim`` as JAX's reshard reads it: entries past the rank dropped when they
    are None, JAX's AssertionError (the rank and the spec) when one names mesh axes."""
    spec = sharding.spec
    if len(spec) <= ndim:
        return sharding
    if any(entry is not None for entry in spec[ndim:]):
        raise AssertionError((ndim, spec))
    return NamedSharding(sharding.mesh, spec.update(partitions=tuple(spec)[:ndim]))


def reshard(xs: Any, out_shardings: Any) -> Any:
    """``xs`` (a pytree of arrays) laid out as ``out_shardings`` (NamedShardings or PartitionSpecs over the current
    mesh, whose axes must be Explicit; a pytree prefix of ``xs``)."""
    leaves, treedef = tree.tree_flatten(xs)
    per_leaf = tree.tree_leaves(tree.tree_broadcast(out_shardings, xs, is_leaf=lambda s: s is None),
                                is_leaf=lambda s: s is None)
    outs = []
    for leaf, sharding in zip(leaves, per_leaf):
        target = _within_rank(reshard_target(sharding), get_aval(leaf).ndim)
        check_type_divides(target, get_aval(leaf).shape)
        check_sharding_fits(target, get_aval(leaf).shape, "One of reshard args")
        outs.append(reshard_p.bind(leaf, dst_sharding=target))
    return tree.tree_unflatten(treedef, outs)
