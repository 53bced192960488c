"""The batching interpreter: values carrying a batch dimension, and the rule table of ``vmap``.

A ``BatchTracer`` holds a value of the parent trace and the index of its batch
dimension (``None``: the value is the same for every batch element). Applying
a primitive to tracers whose values are all unbatched just applies it; otherwise
the primitive's rule in ``batching_rules`` computes the batched result with
ordinary lax operations: ``rule(values, dims, **params) -> (out, out_dim)``
(lists of each for primitives with multiple results). Rules produce batched
operations, never loops. Rules that batch a sub-jaxpr over the same (possibly
named) axis sit in ``traced_batching_rules`` and are given the trace first:
``rule(trace, values, dims, **params)``.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from jaxle_core import core
from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive, Tracer
from jaxle_core.lax.structural import broadcast_in_dim_p, transpose
from jaxle_core.mesh import AbstractMesh, PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_core.sharding_types import ShardingTypeError, spec_of, type_spec

batching_rules: dict[Primitive, Callable[..., tuple[Any, Any]]] = {}
# Rules batching a sub-jaxpr (calls, control flow, custom derivatives): ``rule(trace, values, dims, **params)``,
# the trace telling the inner batching which axis (name and size) it maps.
traced_batching_rules: dict[Primitive, Callable[..., tuple[Any, Any]]] = {}
# Collectives over named axes: ``rule(trace, values, dims, **params) -> (out, out_dim)``, consulted even when no
# operand is batched (a collective over the trace's own axis depends on it), and given the trace's axis name/size.
collective_rules: dict[Primitive, Callable[..., tuple[Any, Any]]] = {}
# Primitives whose layout clashes JAX 0.10.2 reports in each example's types (elementwise ones, contractions,
# select_n, pad); the others' errors name the batched types, as their batched operations meet them.
per_example_errors: set[Primitive] = set()
# Primitives bound again with other parameters when none of their operands is batched: ``update(params)`` (JAX
# names a ``closed_call`` a batch trace processes after the function it traces, batched operands or not).
unbatched_params: dict[Primitive, Callable[[dict], dict]] = {}


class BatchLayout(NamedTuple):
    """How the mapped dimension of a ``vmap`` over Explicit mesh axes is laid out: ``entry`` (mesh axes) of
    ``mesh``. Batched values carry it in their types wherever the batch dimension is put back."""

    mesh: Any
    entry: Any


# The layout of the batch dimension of the trace whose rule is running (None: whole, or no mesh), read where a
# rule builds batched types without the trace at hand (sub-jaxprs, broadcasts to the batch).
_rule_layout: contextvars.ContextVar[BatchLayout | None] = contextvars.ContextVar("batch_layout", default=None)


def current_layout() -> BatchLayout | None:
    """The batch dimension's layout for the rule now running."""
    return _rule_layout.get()


# The mesh axes (``vmap``'s ``spmd_axis_name``, a tuple) the batch dimension of the trace whose rule is running is
# split along in the shardings its rules write (None: left to XLA's partitioner), read as the layout is.
_rule_spmd_axes: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("spmd_axes", default=None)


def current_spmd_axes() -> tuple | None:
    """The mesh axes ``vmap``'s ``spmd_axis_name`` names for the rule now running (None: none named)."""
    return _rule_spmd_axes.get()


def spmd_entry(axes: tuple) -> Any:
    """The PartitionSpec entry splitting a dimension along ``axes``: one name alone, several as a tuple."""
    return axes[0] if len(axes) == 1 else axes


def with_batch_dim(aval: ShapedArray, dim: int | None, size: int) -> ShapedArray:
    """``aval`` with a batch dimension of ``size`` inserted at ``dim`` (none when ``dim`` is None), typed as the
    running rule's batch dimension is laid out."""
    if dim is None:
        return aval
    shape = aval.shape[:dim] + (size,) + aval.shape[dim:]
    layout = current_layout()
    sharding = getattr(aval, "explicit_sharding", None)
    auto_mesh = getattr(aval, "auto_mesh", None)
    mesh = sharding.mesh if sharding is not None else auto_mesh if auto_mesh is not None else getattr(
        layout, "mesh", None)
    # the batch's mesh axes that are Explicit where the value lives (inside ``auto_axes`` they may not be)
    entry = None if layout is None else type_spec(mesh, PartitionSpec(layout.entry), 1)[0]
    if sharding is None and entry is None:
        return aval.update(shape=shape) if auto_mesh is None else aval.update(shape=shape, auto_mesh=auto_mesh)
    spec = list(spec_of(aval))
    spec.insert(dim, entry)
    return aval.update(shape=shape, sharding=NamedSharding(mesh, PartitionSpec(*spec)))


def sharding_with_batch_dim(sharding: Any, dim: int, entry: Any) -> Any:
    """The NamedSharding ``sharding`` with the batch dimension ``dim`` inserted, laid out by ``entry`` (a rule's
    ``out_sharding`` batched); anything else as it is."""
    if not isinstance(sharding, NamedSharding):
        return sharding
    entries = list(sharding.spec) + [None] * max(0, dim - len(sharding.spec))
    entries.insert(dim, entry)
    return sharding.update(spec=sharding.spec.update(partitions=entries))


def vmapped_sharding(sharding: Any, dim: int) -> Any:
    """A rule's given ``sharding`` with the batch dimension ``dim`` inserted, laid out as the running rule's batch
    dimension is (as JAX's rules batch an ``out_sharding``)."""
    layout = current_layout()
    return sharding_with_batch_dim(sharding, dim, None if layout is None else layout.entry)


class BatchTracer(Tracer):
    """A value with a batch dimension ``dim`` (or ``None`` when it does not vary along the batch)."""

    __slots__ = ("val", "dim")

    def __init__(self, trace: BatchTrace, val: Any, dim: int | None):
        self._trace = trace
        self.val = val
        self.dim = dim

    @property
    def aval(self) -> ShapedArray:
        aval = get_aval(self.val)
        if self.dim is None:
            return aval
        shape = aval.shape[:self.dim] + aval.shape[self.dim + 1:]
        sharding = getattr(aval, "explicit_sharding", None)
        if sharding is None:  # an example of a batch typed over a mesh of Auto axes is typed over it too
            return aval.update(shape=shape, auto_mesh=getattr(aval, "auto_mesh", None))
        # each element of the batch keeps the layout of its own dimensions
        spec = tuple(sharding.spec)
        return aval.update(shape=shape, sharding=NamedSharding(sharding.mesh,
                                                               PartitionSpec(*spec[:self.dim], *spec[self.dim + 1:])))

    def __repr__(self) -> str:
        return f"VmapTracer(aval={self.aval.str_short()}, batched={get_aval(self.val).str_short()})"


class BatchTrace(core.Trace):
    """Interprets primitives on batched values by their batching rules."""

    def __init__(self, axis_size: int, axis_name: Any = None, layout: BatchLayout | None = None,
                 spmd_axes: tuple | None = None):
        self.axis_size = axis_size
        self.axis_name = axis_name
        self.layout = layout
        self.spmd_axes = spmd_axes

    def describe(self) -> str:
        return "a vmap trace"

    def to_val_dim(self, x: Any) -> tuple[Any, int | None]:
        if isinstance(x, BatchTracer) and x._trace is self:
            return x.val, x.dim
        if isinstance(x, Tracer):
            core.check_tracer_valid(x)
        return x, None

    def process_primitive(self, primitive, args, params):
        try:
            if (self.layout is None and _rule_layout.get() is None and self.spmd_axes is None
                    and _rule_spmd_axes.get() is None):
                return self._apply_rule(primitive, args, params)
            with self.running_rules():
                return self._apply_rule(primitive, args, params)
        except ShardingTypeError:
            if primitive not in per_example_errors:
                raise
            per_example = self._per_example_error(primitive, args, params)
            if per_example is None:
                raise
            raise per_example from None

    def _per_example_error(self, primitive, args, params) -> ShardingTypeError | None:
        """The error typing ``primitive`` on one example's operands raises, if any."""
        avals = [x.aval if isinstance(x, Tracer) else get_aval(x) for x in args]
        try:
            core.abstract_eval(primitive, avals, params)
        except ShardingTypeError as error:
            return error
        return None

    @contextlib.contextmanager
    def running_rules(self) -> Iterator[None]:
        """Within: rules batch over this trace's axis (``current_layout`` is its batch dimension's, and
        ``current_spmd_axes`` its mesh axes)."""
        token, spmd_token = _rule_layout.set(self.layout), _rule_spmd_axes.set(self.spmd_axes)
        try:
            yield
        finally:
            _rule_spmd_axes.reset(spmd_token)
            _rule_layout.reset(token)

    def _apply_rule(self, primitive, args, params):
        vals, dims = zip(*map(self.to_val_dim, args)) if args else ((), ())
        collective = collective_rules.get(primitive)
        if collective is not None:
            with core.set_current_trace(self.parent):
                out, out_dim = collective(self, list(vals), list(dims), **params)
        else:
            # Inside a named vmap, a body (jit, cond, loops, custom rules) may use the axis even when no operand
            # is batched, so it is batched too.
            if all(d is None for d in dims) and (self.axis_name is None or not _carries_jaxprs(params)):
                update = unbatched_params.get(primitive)
                with core.set_current_trace(self.parent):
                    return primitive.bind(*vals, **(params if update is None else update(params)))
            rule = batching_rules.get(primitive)
            if rule is not None:
                with core.set_current_trace(self.parent):
                    out, out_dim = rule(list(vals), list(dims), **params)
            else:
                traced_rule = traced_batching_rules.get(primitive)
                if traced_rule is None:
                    raise NotImplementedError(f"Batching rule for '{primitive.name}' not implemented")
                with core.set_current_trace(self.parent):
                    out, out_dim = traced_rule(self, list(vals), list(dims), **params)
        if primitive.multiple_results:
            return [BatchTracer(self, v, d) for v, d in zip(out, out_dim)]
        return BatchTracer(self, out, out_dim)


class DeviceTrace(BatchTrace):
    """A batch trace whose members are devices of a mesh axis (``shard_map``'s evaluation): collectives follow
    the devices' semantics where they differ from ``vmap``'s (a ``ppermute`` may leave members without a
    sender, which receive zeros; reductions may be over ``axis_index_groups``)."""

    def describe(self) -> str:
        return "a shard_map trace"


def _carries_jaxprs(params: dict) -> bool:
    return any(isinstance(v, (core.ClosedJaxpr, core.Jaxpr))
               or (isinstance(v, tuple) and any(isinstance(e, (core.ClosedJaxpr, core.Jaxpr)) for e in v))
               for v in params.values())


# ---------------------------------------------------------------- moving batch dimensions


def move_dim(x: Any, src: int, dst: int) -> Any:
    """``x`` with its dimension ``src`` moved to position ``dst`` (a ``transpose`` unless already there)."""
    if src == dst:
        return x
    perm = [i for i in range(get_aval(x).ndim) if i != src]
    perm.insert(dst, src)
    return transpose(x, tuple(perm))


def insert_dim(x: Any, size: int, dst: int) -> Any:
    """``x`` repeated ``size`` times along a new dimension at ``dst`` (as JAX, NumPy-computed dims), laid out as
    the running rule's batch dimension."""
    shape = get_aval(x).shape
    new_shape = shape[:dst] + (size,) + shape[dst:]
    dims = tuple(np.int64(i) for i in range(len(new_shape)) if i != dst)
    return broadcast_to_batch(x, new_shape, dims, dst)


def broadcast_to_batch(x: Any, shape: tuple[int, ...], broadcast_dimensions: tuple, batch_dim: int) -> Any:
    """``broadcast_in_dim`` of an unbatched ``x`` to ``shape``, whose dimension ``batch_dim`` is the batch: laid out
    as the running rule's batch dimension when ``x`` is typed over the mesh; a value that is not (a constant) is
    broadcast to a batch not typed either, as JAX's (under a batch split over mesh axes, over the empty mesh: the
    equation, evaluated again under the mesh, still types its result over none)."""
    aval = get_aval(x)
    layout = current_layout()
    if getattr(aval, "explicit_sharding", None) is None:
        if core.type_shardings is None and layout is None and not _in_split_batch():
            return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=broadcast_dimensions, sharding=None)
        # over no mesh, whatever the current one or the batch's layout: evaluated again under the mesh (rewritten
        # for XLA, transformed), the equation still types its result over none
        return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=broadcast_dimensions,
                                       sharding=NamedSharding(AbstractMesh((), ()), PartitionSpec()))
    if layout is None:
        return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=broadcast_dimensions, sharding=None)
    spec: list = [None] * len(shape)
    for in_dim, out_dim in enumerate(broadcast_dimensions):
        if aval.shape[in_dim] == shape[out_dim]:
            spec[out_dim] = spec_of(aval)[in_dim]
    spec[batch_dim] = layout.entry
    sharding = NamedSharding(aval.explicit_sharding.mesh, PartitionSpec(*spec))
    return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=broadcast_dimensions, sharding=sharding)


def _in_split_batch() -> bool:
    """Whether a ``vmap`` whose batch is laid out over mesh axes encloses the running code."""
    trace = core.current_trace()
    while trace is not None:
        if isinstance(trace, BatchTrace) and trace.layout is not None:
            return True
        trace = trace.parent
    return False


def check_carry_batchable(carries: Sequence[Any], dims: Sequence[int | None], batched: Sequence[bool]) -> None:
    """JAX 0.10.2's error for a loop whose initial carry arrives unbatched but must be batched, when the batch
    dimension is laid out over mesh axes and the carry is not typed over the mesh (JAX broadcasts it over the empty
    mesh; one typed over the mesh is broadcast over the batch's layout); raised as soon as the loop's body says so,
    before the body is batched further."""
    layout = current_layout()
    if layout is None:
        return
    for x, dim, must in zip(carries, dims, batched):
        if must and dim is None and getattr(get_aval(x), "explicit_sharding", None) is None:
            axis = layout.entry if isinstance(layout.entry, str) else layout.entry[0]
            spec = PartitionSpec(layout.entry, *[None] * get_aval(x).ndim)
            raise ValueError(f"Resource axis: {axis} of {spec} is not found in mesh: ().")


def at_dim(x: Any, dim: int | None, size: int, dst: int = 0) -> Any:
    """``x`` with its batch dimension at ``dst``, materialising one of ``size`` if it has none."""
    return insert_dim(x, size, dst) if dim is None else move_dim(x, dim, dst)
