"""``pmap`` as JAX 0.10.2 builds it: a ``jit`` around a ``shard_map`` over a one-axis mesh of devices.

The mapped axis of each argument is split over the first ``axis_size`` devices
(each device's block keeps it with size 1, and the body squeezes it away);
every output gets a dimension of size 1 back at its ``out_axes`` position and
is assembled along it (``out_axes=None``: the first device's value). An
unnamed pmap names its axis ``_internal_pmap_axis_name``, as JAX does. In a multi-process run the mesh is every
process's devices: each process passes (and gets back) the slices of its own devices.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

import jaxle_tree as tree
from jaxle_core import backend as backend_module
from jaxle_core import core, execution_checks
from jaxle_core.avals import ShapeDtypeStruct, abstract_argument_aval, get_aval
from jaxle_core.config import disable_jit, trace_context
from jaxle_core.core import Tracer
from jaxle_core.jit import Lowered, jit, jit_wrapped
from jaxle_core.lax.structural import broadcast_in_dim, squeeze
from jaxle_core.mesh import Mesh, PartitionSpec
from jaxle_core.shard_map import bind_shard_map, block_aval, check_context_mesh, check_divisible, trace_body
from jaxle_core.sharding import NamedSharding
from jaxle_core.staging import DebugInfo

__all__ = ["pmap", "set_fast_dispatch"]


PMAP_AXIS_NAME = "_internal_pmap_axis_name"
_ARRANGEMENTS_KEPT = 64


class _Plan:
    """What one call of a pmapped function stages: the jit's static argument, hashed once (C++ dispatch hashes
    it on every call)."""

    __slots__ = ("mesh", "in_tree", "in_axes", "out_axes", "static", "_key", "_hash")

    def __init__(self, mesh: Mesh, in_tree: Any, in_axes: tuple, out_axes: Any, static: tuple):
        self.mesh, self.in_tree, self.in_axes, self.out_axes = mesh, in_tree, in_axes, out_axes
        self.static = static  # (position, value) of each static broadcasted argument
        # out_axes as its leaves and structure: a prefix tree may be made of lists, which do not hash
        out_axes_key = tree.tree_flatten(out_axes, is_leaf=lambda x: x is None)
        self._key = (mesh, in_tree, in_axes, (tuple(out_axes_key[0]), out_axes_key[1]), static)
        self._hash = None

    def __hash__(self) -> int:  # (a static argument that does not hash fails here, in jit, with its error)
        if self._hash is None:
            self._hash = hash(self._key)
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is _Plan and self._key == other._key)


class _Staged(NamedTuple):
    """What one call stages: the plan, the jitted function it calls, the flat arguments (as given), their
    shardings, whether the run has several processes, and the backend."""

    plan: _Plan
    call: Callable
    flat: list
    shardings: list
    processes: bool
    backend: Any


class _Placed(NamedTuple):
    """What calls whose arguments have one tree structure and shapes share: each flat argument's sharding, the
    plan, the jitted function to call, and the backend it was worked out for."""

    shardings: list
    plan: _Plan
    call: Callable
    backend: Any


@functools.lru_cache(maxsize=64)
def _mesh(devices: tuple, name: Any) -> Mesh:
    """The one-axis mesh of ``devices`` (made once: a mesh hashes by its devices, and calls reuse it)."""
    return Mesh(np.array(devices, dtype=object), (name,))


def _process_mesh(available: tuple, size: int, name: Any) -> Mesh:
    """In a multi-process run, pmap maps every process's devices, each process giving its own devices' slices."""
    mesh = _mesh(available, name)
    if size != len(mesh.local_devices):
        raise ValueError(f"pmap in a multi-process run maps each process's {len(mesh.local_devices)} local devices, "
                         f"but the mapped axis has size {size}")
    return mesh


@functools.lru_cache(maxsize=64)
def _placement(available: tuple, size: int, name: Any, flat_axes: tuple, devices_given: bool
               ) -> tuple[Mesh, list[NamedSharding], bool]:
    """The mesh of one call, each flat argument's sharding, and whether the run has several processes (made
    once per layout: building them is most of a call's work in Python)."""
    processes = not devices_given and _mesh(available, name).is_multi_process
    mesh = _process_mesh(available, size, name) if processes else _mesh(available[:size], name)
    return mesh, [NamedSharding(mesh, _mapped_spec(a, name)) for a in flat_axes], processes


def _shapes(flat: Sequence[Any]) -> tuple | None:
    """The shapes of arrays ``flat``; None when a leaf has no shape (a Python scalar, which is weakly typed)."""
    try:
        return tuple([x.shape for x in flat])
    except AttributeError:
        return None


fast_dispatch: Callable[[str, Callable], Callable | None] | None = None
"""Set by a backend that runs cached pmap calls itself (jaxle_xla: through jaxlib's C++ dispatch): given the
function's name and ``call_entry(args, kwargs) -> (result, the inner jit's cache entry or None, flat arguments)``,
it returns a callable taking a call's arguments, which hands every call it cannot run to ``call_entry``, or None."""
fast_dispatch_errors: tuple[type[BaseException], ...] = ()
"""The errors of ``fast_dispatch``'s callables after which pmap's Python path runs the call again (a deleted
argument, say, which it reports as JAX does)."""


def set_fast_dispatch(dispatch: Callable[[str, Callable], Callable | None] | None,
                      errors: tuple[type[BaseException], ...] = ()) -> None:
    """Install (or, with None, remove) a backend's dispatch of cached pmap calls: see ``fast_dispatch``."""
    global fast_dispatch, fast_dispatch_errors
    fast_dispatch, fast_dispatch_errors = dispatch, errors


def _global_argument(aval: Any, axis: int | None, devices: int) -> ShapeDtypeStruct:
    """The global array a process's argument of a multi-process pmap is part of: its mapped ``axis`` (one slice
    per local device) spans every process's ``devices``."""
    shape = list(aval.shape)
    if axis is not None:
        shape[axis] = devices
    return ShapeDtypeStruct(tuple(shape), aval.dtype, weak_type=aval.weak_type)


def _laid_out_argument(aval: Any, sharding: NamedSharding) -> Any:
    """An argument of type ``aval`` as a call lays it out, by ``sharding`` (an extended one as it is)."""
    if not isinstance(aval.dtype, np.dtype):
        return aval
    return ShapeDtypeStruct(aval.shape, aval.dtype, weak_type=aval.weak_type, sharding=sharding)


def _mapped_spec(axis: int | None, name: Any) -> PartitionSpec:
    return PartitionSpec() if axis is None else PartitionSpec(*([None] * axis), name)


def _normalized_axes(avals: Sequence[Any], axes: Sequence[Any]) -> tuple:
    out = []
    for aval, axis in zip(avals, axes):
        if axis is not None:
            ndim = aval.ndim
            if not -ndim <= axis < ndim:
                raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
            axis %= ndim
        out.append(axis)
    return tuple(out)


def _block_to_output(x: Any, axis: int | None) -> Any:
    """A body's output as its device's block: a dimension of size 1 inserted at ``axis``."""
    if axis is None:
        return x
    aval = get_aval(x)
    ndim = aval.ndim + 1
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    axis %= ndim
    shape = aval.shape[:axis] + (1,) + aval.shape[axis:]
    return broadcast_in_dim(x, shape, tuple(i for i in range(ndim) if i != axis))


def pmap(fun: Callable, axis_name: Any = None, *, in_axes: Any = 0, out_axes: Any = 0,
         static_broadcasted_argnums: int | Sequence[int] = (), devices: Sequence[Any] | None = None,
         backend: str | None = None, axis_size: int | None = None, donate_argnums: int | Sequence[int] = ()
         ) -> Callable:
    """``fun`` mapped over axis ``in_axes`` of its arguments, one slice per device, results stacked along
    ``out_axes``; ``axis_name`` names the mapped axis for collectives."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")
    static_positions = (static_broadcasted_argnums,) if isinstance(static_broadcasted_argnums, int) \
        else tuple(static_broadcasted_argnums)
    name = PMAP_AXIS_NAME if axis_name is None else axis_name

    def _fun(plan: _Plan, *flat_args):
        mesh = plan.mesh
        in_specs = [_mapped_spec(a, name) for a in plan.in_axes]
        check_context_mesh(mesh)
        out_info: list[tuple[Any, list]] = []

        def body(*blocks):
            leaves = [b if a is None else squeeze(b, (a,)) for b, a in zip(blocks, plan.in_axes)]
            dynamic, keywords = tree.tree_unflatten(plan.in_tree, leaves)
            dynamic = list(dynamic)
            for position, value in plan.static:
                dynamic.insert(position, value)
            out = fun(*dynamic, **keywords)
            out_flat, out_tree = tree.tree_flatten(out)
            axes = out_tree.flatten_up_to(tree.tree_broadcast(plan.out_axes, out, is_leaf=lambda x: x is None))
            out_info.append((out_tree, axes))
            return [_block_to_output(x, a) for x, a in zip(out_flat, axes)]

        block_avals = [block_aval(get_aval(x), s, mesh) for x, s in zip(flat_args, in_specs)]
        closed = trace_body(body, block_avals, mesh, DebugInfo("pmap", fun, ()))
        out_tree, axes = out_info[0]
        out_specs = [_mapped_spec(None if a is None else a % aval.ndim, name)
                     for a, aval in zip(axes, closed.out_avals)]
        return tree.tree_unflatten(out_tree, bind_shard_map(closed, flat_args, mesh, in_specs, out_specs, False))

    donate_positions = (donate_argnums,) if isinstance(donate_argnums, int) else tuple(donate_argnums)
    if set(static_positions) & set(donate_positions):
        raise ValueError(f"`static_argnums` {sorted(static_positions)} and `donate_argnums` "
                         f"{sorted(donate_positions)} cannot intersect.")

    def dynamic_donations(static_positions_now: set) -> set[int]:
        """The donated positions among the dynamic arguments (the positional ones without the static ones), as
        JAX numbers them: each position less the static ones before it."""
        return {p - sum(s < p for s in static_positions_now) for p in donate_positions if p >= 0}

    @functools.lru_cache(maxsize=16)
    def jitted(donated: tuple[int, ...]) -> Callable:
        """``_fun`` jitted, donating the flat arguments ``donated`` (after the plan)."""
        return jit(_fun, static_argnums=0, donate_argnums=tuple(1 + i for i in donated))

    def _arrangement(args: tuple, dynamic: tuple, kwargs: dict, avals: list, spec: tuple,
                     static_positions_now: set) -> tuple[tuple, tuple[int, ...]]:
        """Each flat argument's mapped axis, and the flat arguments donated: the same for every call whose
        arguments have one tree structure and ranks (kept per structure, as working them out dominates a call)."""
        # up to the arguments' own structure: a None among the arguments is an empty subtree, not a leaf
        flat_axes = tree.tree_structure(dynamic).flatten_up_to(
            tree.tree_broadcast(spec, dynamic, is_leaf=lambda x: x is None)) + [0] * len(tree.tree_leaves(kwargs))
        flat_axes = _normalized_axes(avals, flat_axes)
        # JAX's program donates whole positional arguments (keyword ones never)
        donations = dynamic_donations(static_positions_now)
        donated, start = [], 0
        for position, arg in enumerate(dynamic):
            count = len(tree.tree_leaves(arg))
            if position in donations:
                donated.extend(range(start, start + count))
            start += count
        return flat_axes, tuple(donated)

    arrangements: dict[tuple, tuple] = {}
    placed_calls: dict[tuple, _Placed] = {}  # by the flat arguments' tree structure and shapes

    fast_by_context: dict[int, tuple] = {}  # id of a trace context -> (the context, the backend's dispatch)

    def fast_call() -> Callable | None:
        """The backend's own dispatch of this pmap's cached calls in the current trace context, or None."""
        if fast_dispatch is None or execution_checks.armed or disable_jit.value:
            return None
        context = trace_context()
        known = fast_by_context.get(id(context))
        if known is None or known[0] is not context:
            if len(fast_by_context) >= 8:  # contexts switched back and forth: forget the old objects
                fast_by_context.clear()
            name = getattr(fun, "__name__", type(fun).__name__)
            known = fast_by_context[id(context)] = (context, fast_dispatch(name, call_entry))
        return known[1]

    def call_entry(args: tuple, kwargs: dict) -> tuple[Any, Any, list]:
        return general_call(args, kwargs, with_entry=True)

    @functools.wraps(fun)
    def pmapped(*args, **kwargs):
        if not static_positions and type(core._context.trace) is core.EvalTrace:
            fast = fast_call()
            if fast is not None:
                try:
                    return fast(*args, **kwargs)
                except fast_dispatch_errors:  # the general path runs it again and reports the error
                    pass
            # The common call: arguments of a structure and shapes seen before, no static ones, at the top level.
            flat, in_tree = tree.tree_flatten((args, kwargs))
            shapes = _shapes(flat)
            known = None if shapes is None else placed_calls.get((in_tree, shapes))
            if known is not None:
                backend = known.backend
                if backend is backend_module.current_backend():
                    return known.call(known.plan, *backend.lay_out_all(flat, known.shardings))
        return general_call(args, kwargs)

    def staged(args: tuple, kwargs: dict, abstractify: Callable[[Any], Any] = get_aval) -> _Staged:
        """What a call on ``args``/``kwargs`` stages (the arguments abstracted by ``abstractify``)."""
        static = tuple((i, args[i]) for i in sorted(p % len(args) for p in static_positions)) if args else ()
        static_positions_now = {p for p, _ in static}
        dynamic = tuple(a for i, a in enumerate(args) if i not in static_positions_now)
        axes_spec = in_axes
        if isinstance(axes_spec, list):
            axes_spec = tuple(axes_spec)
        if isinstance(axes_spec, tuple) and len(axes_spec) != len(dynamic):
            raise ValueError("pmap in_axes specification must be a tree prefix of the corresponding value, got "
                             f"specification {in_axes} for value tree {tree.tree_structure(dynamic)}.")
        spec = axes_spec if isinstance(axes_spec, tuple) else (axes_spec,) * len(dynamic)
        flat, in_tree = tree.tree_flatten((dynamic, kwargs))
        avals = [abstractify(x) for x in flat]
        key = (in_tree, len(args), tuple(aval.ndim for aval in avals))
        known = arrangements.get(key)
        if known is None:
            known = _arrangement(args, dynamic, kwargs, avals, spec, static_positions_now)
            if len(arrangements) < _ARRANGEMENTS_KEPT:
                arrangements[key] = known
        flat_axes, donated = known
        sizes = [aval.shape[a] for aval, a in zip(avals, flat_axes) if a is not None]
        if not sizes:
            raise ValueError("pmap requires at least one argument with a mapped axis.")
        size = sizes[0] if axis_size is None else axis_size
        backend = backend_module.current_backend()
        available = tuple(devices) if devices is not None else tuple(backend.devices())
        mesh, shardings, processes = _placement(available, size, name, flat_axes, devices is not None)
        plan = _Plan(mesh, in_tree, flat_axes, out_axes, static) if static else _plan(mesh, in_tree, flat_axes)
        return _Staged(plan, jitted(donated), flat, shardings, processes, backend)

    def general_call(args: tuple, kwargs: dict, with_entry: bool = False):
        """The call; ``with_entry``: with the inner jit's cache entry that ran it (None where it was staged or
        its results were assembled per process) and the flat arguments as given."""
        plan, call, flat, shardings, processes, backend = staged(args, kwargs)
        mesh, in_tree, static, given = plan.mesh, plan.in_tree, plan.static, flat
        if processes:  # each process's arguments are its own devices' slices of the global ones
            flat = [backend.from_process_local(x, sharding) for x, sharding in zip(flat, shardings)]
        for x, sharding in zip(flat, shardings):
            check_divisible(get_aval(x), sharding.spec, mesh, sharding)
        if mesh.size > 1 and not any(isinstance(x, Tracer) for x in flat):
            shapes = _shapes(flat)
            if not static and not processes and shapes is not None and len(placed_calls) < _ARRANGEMENTS_KEPT:
                placed_calls[(in_tree, shapes)] = _Placed(shardings, plan, call, backend)
            # Each device gets its slice directly, as the program's arguments are split.
            flat = [backend.device_put(x, sharding, get_aval(x).weak_type) for x, sharding in zip(flat, shardings)]
        if with_entry:
            out, entry = jit_wrapped(call).call_entry((plan, *flat), {})
            if processes:
                return tree.tree_map(backend.process_local_part, out), None, given
            return out, entry, given
        out = call(plan, *flat)
        return tree.tree_map(backend.process_local_part, out) if processes else out

    def lower(*args, **kwargs) -> Lowered:
        """The program a call on ``args``/``kwargs`` runs (arrays or ``ShapeDtypeStruct``s), lowered: a ``jit``
        stage whose arguments are this function's own, static ones left out."""
        plan, call, flat, shardings, processes, _ = staged(args, kwargs, abstract_argument_aval)
        if processes:  # as JAX's: each process gives its own devices' slices, the program takes the global arrays
            flat = [_global_argument(abstract_argument_aval(x), axis, plan.mesh.size)
                    for x, axis in zip(flat, plan.in_axes)]
        for x, sharding in zip(flat, shardings):
            check_divisible(abstract_argument_aval(x), sharding.spec, plan.mesh, sharding)
        if plan.mesh.size > 1:  # typed as a call's arguments laid out over the mesh are: calls reuse this program
            flat = [_laid_out_argument(abstract_argument_aval(x), sharding) for x, sharding in zip(flat, shardings)]
        traced = jit_wrapped(call).trace(plan, *flat)
        out_avals = traced.jaxpr.out_avals
        out_axes_flat = traced.out_tree.flatten_up_to(tree.tree_broadcast(
            out_axes, traced.out_tree.unflatten(out_avals), is_leaf=lambda x: x is None))
        out_shardings = tuple(NamedSharding(plan.mesh, _mapped_spec(None if a is None else a % aval.ndim, name))
                              for a, aval in zip(out_axes_flat, out_avals))
        # JAX 0.10.2 reports the donated positions (counted without the static arguments) as flat arguments
        static_positions_now = {p for p, _ in plan.static}
        donations = dynamic_donations(static_positions_now)
        reported = [i in donations for i in range(len(flat))]
        return traced.seen_through(plan.in_tree, shardings, out_shardings, reported).lower()

    pmapped.lower = lower

    @functools.lru_cache(maxsize=_ARRANGEMENTS_KEPT)
    def _plan(mesh: Mesh, in_tree: Any, flat_axes: tuple) -> _Plan:
        """One plan object per layout without static arguments, so that C++ dispatch compares it by identity."""
        return _Plan(mesh, in_tree, flat_axes, out_axes, ())

    return pmapped
