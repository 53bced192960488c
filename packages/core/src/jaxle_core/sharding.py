"""Shardings: how an array's elements are laid out over devices, without any backend.

``Sharding`` is the interface every layout offers; ``NamedSharding`` splits an array's dimensions over the named
axes of a ``Mesh`` as a ``PartitionSpec`` says. The index arithmetic lives here (which slice of the global array
each device holds); turning a sharding into what a compiler reads is the backend's business.
"""

from __future__ import annotations

import abc
import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np

# the module, not its names: it reads Sharding from this one
from jaxle_core import layout as layouts_module
from jaxle_core.mesh import AbstractMesh, AxisType, Mesh, PartitionSpec, get_mesh, resource_mesh
from jaxle_tree import keystr, tree_broadcast, tree_leaves, tree_leaves_with_path

__all__ = ["DuplicateSpecError", "IndivisibleError", "NamedSharding", "Sharding", "check_sharding_fits",
           "flat_jit_layouts", "flat_jit_shardings", "spec_for_context_mesh"]


class IndivisibleError(ValueError):
    """An array dimension is not divisible by the number of pieces a sharding cuts it into."""


class DuplicateSpecError(ValueError):
    """A partition spec names one mesh axis for two dimensions."""


class Sharding(abc.ABC):
    """Where each piece of an array lives: the devices, and which slice of the array each holds."""

    @property
    @abc.abstractmethod
    def device_set(self) -> set:
        """The devices holding some part of the array."""

    @abc.abstractmethod
    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict:
        """For each device, the index (a tuple of slices) of the part of an array of ``global_shape`` it holds."""

    @property
    def is_fully_replicated(self) -> bool:
        return True

    @property
    def is_fully_addressable(self) -> bool:
        return True

    @property
    def num_devices(self) -> int:
        return len(self.device_set)

    @property
    def addressable_devices(self) -> set:
        return set(self.device_set)

    def addressable_devices_indices_map(self, global_shape: tuple[int, ...]) -> dict:
        return self.devices_indices_map(global_shape)

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        """The shape of each device's part of an array of ``global_shape``."""
        index = next(iter(self.devices_indices_map(global_shape).values()))
        return tuple(len(range(*s.indices(n))) for s, n in zip(index, global_shape))

    def is_equivalent_to(self, other: Sharding, ndim: int) -> bool:
        """Whether both put the same parts of an array of rank ``ndim`` on the same devices."""
        shape = (2 * 3 * 5 * 7 * 8,) * ndim  # divisible by any mesh axis split a test could use
        mine, theirs = self.devices_indices_map(shape), other.devices_indices_map(shape)
        return mine == theirs


def _spec_axes(entry: Any) -> tuple:
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    return entry if isinstance(entry, tuple) else (entry,)


def _check_spec(mesh: Mesh, spec: PartitionSpec) -> None:
    seen: set = set()
    for entry in spec:
        for axis in _spec_axes(entry):
            if axis not in mesh.axis_names:
                raise ValueError(f"Resource axis: {axis} of {spec} is not found in mesh: {mesh.axis_names}.")
            if axis in seen:
                raise DuplicateSpecError("A single NamedSharding spec specification can map every mesh axis to at "
                                         f"most one positional dimension, but {spec} has duplicate entries for "
                                         f"`{axis}`")
            seen.add(axis)
    if PartitionSpec.UNCONSTRAINED in spec and not any(t is AxisType.Auto for t in mesh.axis_types):
        # nothing would be left to the partitioner
        raise ValueError(f"{spec} cannot contain `P.UNCONSTRAINED` when no mesh axis_types are `Auto`. Got mesh "
                         f"axis_types: ({', '.join(t.name for t in mesh.axis_types)})")
    for kind, axes in (("Unreduced", spec.unreduced), ("Reduced", spec.reduced)):
        if axes and any(a not in mesh.axis_names or mesh.axis_types[mesh.axis_names.index(a)] is not AxisType.Explicit
                        for a in axes):
            raise ValueError(f"{kind} axes can only refer to mesh axes that is of type `Explicit`. Got "
                             f"{kind.lower()} axes: {axes} and mesh: {mesh}")


def _check_memory_kind(device: Any, memory_kind: str) -> None:
    """JAX's error for a memory kind ``device`` does not have (devices of the reference backend have no memories)."""
    memories = getattr(device, "addressable_memories", None)
    if memories is None:
        return
    kinds = [memory.kind for memory in memories()]
    if memory_kind not in kinds:
        raise ValueError(f"Could not find memory addressable by device {device.device_kind}. Device "
                         f"{device.device_kind} can address the following memory kinds: {', '.join(kinds)}. Got "
                         f"memory kind: {memory_kind}")


class NamedSharding(Sharding):
    """An array's dimensions split over ``mesh``'s named axes as ``spec`` says; unnamed axes replicate it."""

    _sentence_end = "."  # of its rank error (a backend's sharding built on it may write JAX's without one)

    def __init__(self, mesh: Mesh, spec: PartitionSpec, *, memory_kind: str | None = None) -> None:
        if not isinstance(spec, PartitionSpec):
            raise TypeError("spec of NamedSharding must be an instance of jax.sharding.PartitionSpec. Got "
                            f"{spec} of type {type(spec)}")
        if not isinstance(mesh, (Mesh, AbstractMesh)):
            raise TypeError(f"mesh should be of type `jax.sharding.Mesh`. Got {mesh} of type {type(mesh)}")
        _check_spec(mesh, spec)
        if memory_kind is not None and isinstance(mesh, Mesh) and not mesh.empty:
            _check_memory_kind(mesh.devices.flat[0], memory_kind)
        self.mesh = mesh
        self.spec = spec
        self._memory_kind = memory_kind

    @property
    def memory_kind(self) -> str | None:
        """Where the array lives: device memory (none for a sharding over an abstract mesh, which has no devices)."""
        if isinstance(self.mesh, AbstractMesh):
            return self._memory_kind
        return self._memory_kind or "device"

    def with_memory_kind(self, kind: str) -> NamedSharding:
        return NamedSharding(self.mesh, self.spec, memory_kind=kind)

    def update(self, **changes: Any) -> NamedSharding:
        return NamedSharding(changes.get("mesh", self.mesh), changes.get("spec", self.spec),
                             memory_kind=changes.get("memory_kind", self._memory_kind))

    def _trimmed_spec(self) -> tuple:
        entries = [() if e is PartitionSpec.UNCONSTRAINED else _spec_axes(e) for e in self.spec]
        while entries and not entries[-1]:
            entries.pop()
        return tuple(entries)

    def _key(self) -> tuple:
        # computed once: shardings are compared and hashed on every sharded call, and never change
        key = self.__dict__.get("_cached_key")
        if key is None:
            key = self._cached_key = (self.mesh, self._trimmed_spec(), self.spec.unreduced, self.spec.reduced,
                                     self.memory_kind)
        return key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NamedSharding) and (self is other or self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        memory = "" if self.memory_kind is None else f", memory_kind={self.memory_kind}"
        return f"NamedSharding(mesh={self.mesh}, spec={self.spec}{memory})"

    @property
    def device_set(self) -> set:
        return set(self.mesh._flat_devices_tuple)

    @property
    def _device_assignment(self) -> tuple:
        return self.mesh._flat_devices_tuple

    @property
    def num_devices(self) -> int:
        return self.mesh.size

    @property
    def is_fully_addressable(self) -> bool:
        return not self.mesh.is_multi_process

    @property
    def addressable_devices(self) -> set:
        return set(self.mesh.local_devices)

    @property
    def is_fully_replicated(self) -> bool:
        return all(self.mesh.shape[a] == 1 for entry in self.spec for a in _spec_axes(entry))

    @property
    def replicated_axes(self) -> tuple:
        used = {a for entry in self.spec for a in _spec_axes(entry)}
        return tuple(a for a in self.mesh.axis_names if a not in used)

    def dimension_axes(self, ndim: int) -> list[tuple]:
        """The mesh axes splitting each of ``ndim`` dimensions, in order (empty for a whole dimension)."""
        return [_spec_axes(self.spec[d]) if d < len(self.spec) else () for d in range(ndim)]

    def check_compatible_aval(self, shape: tuple[int, ...]) -> None:
        """JAX's errors for an array of ``shape`` this sharding cannot lay out."""
        if len(shape) < len(self.spec):
            raise ValueError(f"Sharding {self} is only valid for values of rank at least {len(self.spec)}, but was "
                             f"applied to a value of rank {len(shape)}{self._sentence_end}")
        tiles = [math.prod(self.mesh.shape[a] for a in axes) for axes in self.dimension_axes(len(shape))]
        for dim, (size, tile) in enumerate(zip(shape, tiles)):
            if size % tile:
                raise IndivisibleError(
                    f"Sharding {self} implies that array axis {dim} is partitioned {tile} times, but the dimension "
                    f"size is {size} (full shape: {tuple(shape)}, per-dimension tiling factors: {tiles} should "
                    "evenly divide the shape)")

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict:
        if self.spec.unreduced:  # a partial sum on each device: no device holds a slice of the array
            raise NotImplementedError("device_indices_map doesn't work with unreduced. Please file a bug at "
                                      "https://github.com/jax-ml/jax/issues")
        return dict(zip(self.mesh._flat_devices_tuple, _indices(self, tuple(global_shape))))

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        self.check_compatible_aval(global_shape)
        axes = self.dimension_axes(len(global_shape))
        return tuple(n // math.prod(self.mesh.shape[a] for a in ax) for n, ax in zip(global_shape, axes))

    def replica_ids(self, global_shape: tuple[int, ...]) -> list[int]:
        """For each device in mesh order, which copy of its part it holds (0 for the first device holding it)."""
        seen: dict[tuple, int] = {}
        ids = []
        for index in _indices(self, tuple(global_shape)):
            key = tuple((s.start, s.stop) for s in index)
            ids.append(seen.get(key, 0))
            seen[key] = ids[-1] + 1
        return ids


@functools.lru_cache(maxsize=256)
def _indices(sharding: NamedSharding, shape: tuple[int, ...]) -> list[tuple]:
    """Each device's index (in mesh order) into an array of ``shape``."""
    sharding.check_compatible_aval(shape)
    mesh = sharding.mesh
    coordinates = np.indices(mesh.axis_sizes).reshape(len(mesh.axis_sizes), -1).T  # one row per device
    position = {name: i for i, name in enumerate(mesh.axis_names)}
    indices = []
    for coordinate in coordinates:
        index = []
        for size, axes in zip(shape, sharding.dimension_axes(len(shape))):
            if not axes:
                index.append(slice(None))
                continue
            block, count = 0, 1
            for axis in axes:  # the first axis is the major one
                block = block * mesh.shape[axis] + int(coordinate[position[axis]])
                count *= mesh.shape[axis]
            step = size // count
            index.append(slice(block * step, (block + 1) * step))
        indices.append(tuple(index))
    return indices


def spec_for_context_mesh(spec: PartitionSpec, what: str) -> NamedSharding:
    """``spec`` over the current mesh (``set_mesh`` or ``with mesh:``), as a NamedSharding."""
    mesh = resource_mesh()
    if mesh is None:
        mesh = get_mesh()
    if mesh.empty:
        raise RuntimeError(f"{what} requires a non-empty mesh in context if PartitionSpec is passed. Please use "
                           "`jax.set_mesh` to set a mesh in context.")
    return NamedSharding(mesh, spec)


def check_sharding_fits(sharding: Any, shape: tuple[int, ...], what: str, *, allow_uneven: bool = False) -> None:
    """Raise JAX's error, prefixed by ``what``, when ``sharding`` cannot lay out an array of ``shape``.

    ``allow_uneven`` accepts dimensions the sharding does not divide evenly: inside a compiled program XLA's
    partitioner pads them to a multiple of the number of blocks.
    """
    check = getattr(sharding, "check_compatible_aval", None)  # NamedSharding's, or a backend's sharding's
    if check is not None:
        try:
            check(shape)
        except IndivisibleError:
            if not allow_uneven:
                raise
        except ValueError as error:
            hint = " For scalars the PartitionSpec should be P()" if not shape else ""
            raise ValueError(f"{what} is incompatible with its sharding annotation {sharding}: {error}{hint}") from None


def _as_sharding(leaf: Any, kind: str, api: str = "jit") -> Any:
    """A jit in/out sharding leaf as a Sharding (a PartitionSpec over the context mesh; a Format's sharding), or
    None; ``api`` names the function refusing a PartitionSpec without a mesh."""
    if isinstance(leaf, layouts_module.Format):
        leaf = leaf.sharding
    if leaf is None or isinstance(leaf, Sharding):
        return leaf
    if isinstance(leaf, PartitionSpec):
        mesh = get_mesh()  # set_mesh's (pjit's: that of `with mesh:`, see ``mesh.resource_env_meshes``)
        if mesh.empty:
            raise RuntimeError(f"{api} requires a non-empty mesh in context if you are passing `PartitionSpec`s to "
                               f"{kind}. You can define a context mesh via `jax.set_mesh(mesh)`. Alternatively, "
                               f"provide `Sharding`s to {kind} and then the mesh context manager is not required.")
        return NamedSharding(mesh, leaf)
    raise TypeError(f"{kind} leaf specifications are expected to be PartitionSpec instances or None, but got {leaf}")


def _is_sharding_leaf(x: Any) -> bool:
    return x is None or isinstance(x, (Sharding, PartitionSpec, layouts_module.Format))


def _layout_of(leaf: Any, kind: str) -> Any:
    """The layout a jit in/out sharding leaf asks for: a Format's, else None (the default)."""
    return leaf.layout if isinstance(leaf, layouts_module.Format) else None


def _broadcast(shardings: Any, values: Any, kind: str, what: str, convert: Callable[[Any, str], Any] = _as_sharding
               ) -> list:
    """The leaves of the pytree prefix ``shardings`` for each leaf of ``values``, each ``convert``ed."""
    if _is_sharding_leaf(shardings):
        return [convert(shardings, kind)] * len(tree_leaves(values))
    if isinstance(shardings, list):
        shardings = tuple(shardings)
    if isinstance(shardings, tuple) and isinstance(values, tuple) and len(shardings) != len(values):
        raise ValueError(f"pjit {kind} specification must be a tree prefix of the {what}. In particular, pjit "
                         f"{kind} must either be a Sharding, a PartitionSpec, or a tuple of length equal to the "
                         f"number of positional arguments. But pjit {kind} is the wrong length: got a tuple or "
                         f"list of length {len(shardings)} for an args tuple of length {len(values)}.")
    try:
        spread = tree_broadcast(shardings, values, is_leaf=_is_sharding_leaf)
    except ValueError as error:
        raise ValueError(f"pjit {kind} specification must be a tree prefix of the {what}; {error}") from None
    return [convert(s, kind) for s in tree_leaves(spread, is_leaf=_is_sharding_leaf)]


def flat_jit_shardings(in_shardings: Any, out_shardings: Any, positional: tuple, keyword_leaves: int,
                       in_avals: Any, outputs: Any, out_avals: Any, debug_info: Any = None,
                       api: str = "jit") -> tuple[tuple, tuple]:
    """A jitted function's in_shardings per flat argument (keyword arguments unconstrained) and out_shardings per
    flat output, as Shardings or None, each checked against its array's shape (errors name its path, from
    ``debug_info``'s argument names, and the function, ``api``, that needs a mesh for a PartitionSpec)."""
    if in_shardings is not None and keyword_leaves:
        raise ValueError("pjit does not support kwargs when in_shardings is specified.")
    convert = functools.partial(_as_sharding, api=api)
    ins = _broadcast(in_shardings, positional, "in_shardings", "positional arguments tuple", convert)
    ins += [None] * keyword_leaves
    outs = _broadcast(out_shardings, outputs, "out_shardings", "output of the function", convert)
    for kind, shardings, avals, paths in _by_path(ins, in_avals, outs, out_avals, outputs, debug_info):
        for sharding, aval, path in zip(shardings, avals, paths):
            check_sharding_fits(sharding, aval.shape, f"One of pjit {kind} with pytree key path {path}")
    return tuple(ins), tuple(outs)


def _by_path(ins: list, in_avals: Any, outs: list, out_avals: Any, outputs: Any, debug_info: Any) -> tuple:
    """``(kind, per-leaf values, avals, pytree key paths)`` of a jitted function's arguments and of its outputs."""
    result_paths = ["result" + keystr(path) for path, _ in tree_leaves_with_path(outputs)]
    arg_names = list(debug_info.arg_names) if debug_info is not None else [f"args[{i}]" for i in range(len(ins))]
    return ("arguments", ins, in_avals, arg_names), ("outputs", outs, out_avals, result_paths)


def flat_jit_layouts(in_shardings: Any, out_shardings: Any, positional: tuple, keyword_leaves: int,
                     in_avals: Any, outputs: Any, out_avals: Any, debug_info: Any) -> tuple[tuple, tuple]:
    """The layouts the ``Format``s among a jitted function's in_shardings and out_shardings ask for, per flat
    argument and output (None: the default layout), each checked against its array's rank; empty when no Format
    is given."""
    if not any(isinstance(leaf, layouts_module.Format) for leaf in tree_leaves((in_shardings, out_shardings),
                                                                 is_leaf=_is_sharding_leaf)):
        return (), ()
    ins = _broadcast(in_shardings, positional, "in_shardings", "positional arguments tuple", _layout_of)
    ins += [None] * keyword_leaves
    outs = _broadcast(out_shardings, outputs, "out_shardings", "output of the function", _layout_of)
    for kind, layouts, avals, paths in _by_path(ins, in_avals, outs, out_avals, outputs, debug_info):
        for layout, aval, path in zip(layouts, avals, paths):
            layouts_module.check_layout_rank(layout, aval.shape, f"One of jit {kind} with pytree key path {path}")
    return tuple(ins), tuple(outs)
