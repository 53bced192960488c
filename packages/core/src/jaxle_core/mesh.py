"""Device meshes and partition specs: the vocabulary of sharding, without any backend.

A ``Mesh`` arranges devices in an n-dimensional grid with named axes; a ``PartitionSpec`` says which mesh axes
split each dimension of an array. Devices are opaque here: anything with an ``id`` (and, for the abstract mesh's
description, ``device_kind`` and ``platform``). The mesh set by ``set_mesh`` (or ``use_abstract_mesh``) is the
ambient one that sharding-in-types and ``reshard`` read.
"""

from __future__ import annotations

import contextlib
import enum
import math
import threading
import warnings
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import numpy as np

from jaxle_core import config

__all__ = ["AbstractDevice", "AbstractMesh", "AxisType", "Mesh", "PartitionSpec", "get_abstract_mesh", "get_mesh",
           "set_mesh", "use_abstract_mesh"]


class AxisType(enum.Enum):
    """How a mesh axis is partitioned: by the compiler (Auto), in the types (Explicit), or by the user (Manual)."""

    Auto = enum.auto()
    Explicit = enum.auto()
    Manual = enum.auto()

    def __repr__(self) -> str:
        return self.name


class _Unconstrained:
    """The single value marking a dimension whose sharding the compiler may choose."""

    _instance: _Unconstrained | None = None

    def __new__(cls) -> _Unconstrained:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNCONSTRAINED"

    def __reduce__(self) -> tuple:
        return (_Unconstrained, ())


def _normalized_entry(entry: Any) -> Any:
    return tuple(entry) if isinstance(entry, list) else entry


def _axes_of_entry(entry: Any) -> tuple:
    if entry is None or entry is PartitionSpec.UNCONSTRAINED:
        return ()
    return entry if isinstance(entry, tuple) else (entry,)


class PartitionSpec:
    """Per array dimension, the mesh axis (or tuple of axes, or None) that splits it; also ``P``."""

    UNCONSTRAINED = _Unconstrained()
    __slots__ = ("_partitions", "unreduced", "reduced")

    def __init__(self, *partitions: Any, unreduced: Any = frozenset(), reduced: Any = frozenset()) -> None:
        self._partitions = tuple(_normalized_entry(p) for p in partitions)
        self.unreduced = frozenset(unreduced)
        self.reduced = frozenset(reduced)
        used = {axis for entry in self._partitions for axis in _axes_of_entry(entry)}
        for kind, axes in (("unreduced", self.unreduced), ("reduced", self.reduced)):
            if used & axes:
                raise ValueError(f"partitions cannot overlap with {kind} axes passed to PartitionSpec. Got "
                                 f"partitions: {self._partitions} and {kind} axes: {axes}")
        if self.unreduced & self.reduced:
            raise ValueError("`unreduced` and `reduced` argument to PartitionSpec cannot overlap. "
                             f"Got unreduced={self.unreduced}, reduced={self.reduced}")

    @property
    def partitions(self) -> tuple:
        return self._partitions

    def __repr__(self) -> str:
        text = "P" + repr(self._partitions)
        extras = [f"{kind}={{{', '.join(repr(a) for a in sorted(axes, key=str))}}}"
                  for kind, axes in (("unreduced", self.unreduced), ("reduced", self.reduced)) if axes]
        if not extras:
            return text
        body = text[2:-1].rstrip(",")
        return "P(" + ", ".join(([body] if body else []) + extras) + ")"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PartitionSpec):
            return False
        return (self._partitions, self.unreduced, self.reduced) == (other._partitions, other.unreduced, other.reduced)

    def __hash__(self) -> int:
        return hash((self._partitions, self.unreduced, self.reduced))

    def __len__(self) -> int:
        return len(self._partitions)

    def __getitem__(self, index: Any) -> Any:
        return self._partitions[index]

    def __iter__(self) -> Iterator:
        return iter(self._partitions)

    def __add__(self, other: Any) -> PartitionSpec:
        extra = other._partitions if isinstance(other, PartitionSpec) else tuple(other)
        return PartitionSpec(*self._partitions, *extra, unreduced=self.unreduced, reduced=self.reduced)

    def __radd__(self, other: Any) -> PartitionSpec:
        return PartitionSpec(*tuple(other), *self._partitions, unreduced=self.unreduced, reduced=self.reduced)

    def __reduce__(self) -> tuple:
        return (_make_spec, (self._partitions, self.unreduced, self.reduced))

    def count(self, value: Any) -> int:
        return self._partitions.count(value)

    def index(self, value: Any) -> int:
        return self._partitions.index(value)

    def update(self, **changes: Any) -> PartitionSpec:
        """A copy with ``partitions``, ``unreduced`` or ``reduced`` replaced."""
        return PartitionSpec(*changes.get("partitions", self._partitions),
                             unreduced=changes.get("unreduced", self.unreduced),
                             reduced=changes.get("reduced", self.reduced))


def _make_spec(partitions: tuple, unreduced: frozenset, reduced: frozenset) -> PartitionSpec:
    return PartitionSpec(*partitions, unreduced=unreduced, reduced=reduced)


class AbstractDevice:
    """What an abstract mesh knows of its devices: their kind and platform."""

    def __init__(self, device_kind: str, num_cores: int | None = None, platform: str | None = None) -> None:
        self.device_kind = device_kind
        self.num_cores = num_cores
        self.platform = platform

    def _key(self) -> tuple:
        return (self.device_kind, self.num_cores, self.platform)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractDevice) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _fields(self) -> str:
        return f"device_kind={self.device_kind}, num_cores={self.num_cores}, platform={self.platform}"

    def __repr__(self) -> str:
        return f"AbstractDevice({self._fields()})"


def _axis_types(axis_types: Any, count: int, default: AxisType, axis_names: tuple) -> tuple[AxisType, ...]:
    if axis_types is None:
        return (default,) * count
    if isinstance(axis_types, AxisType):
        return (axis_types,) * count
    axis_types = tuple(axis_types)
    if len(axis_types) != count:
        raise ValueError("Number of axis names should match the number of axis_types. Got "
                         f"axis_names={axis_names} and axis_types={axis_types}")
    return axis_types


def _is_local(device: Any) -> bool:
    """Whether ``device`` belongs to this process (devices that do not say are local)."""
    client = getattr(device, "client", None)
    if client is None or not hasattr(device, "process_index"):
        return True
    return device.process_index == client.process_index()


class _MeshAxes:
    """What concrete and abstract meshes share: named axes with sizes and types."""

    axis_names: tuple
    axis_sizes: tuple[int, ...]
    axis_types: tuple[AxisType, ...]

    @property
    def shape(self) -> OrderedDict:
        return OrderedDict(zip(self.axis_names, self.axis_sizes))

    @property
    def shape_tuple(self) -> tuple:
        return tuple(zip(self.axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        return math.prod(self.axis_sizes)

    @property
    def empty(self) -> bool:
        return not self.axis_names

    def _names_of(self, kind: AxisType) -> tuple:
        return tuple(n for n, t in zip(self.axis_names, self.axis_types) if t is kind)

    @property
    def explicit_axes(self) -> tuple:
        return self._names_of(AxisType.Explicit)

    @property
    def auto_axes(self) -> tuple:
        return self._names_of(AxisType.Auto)

    @property
    def manual_axes(self) -> tuple:
        return self._names_of(AxisType.Manual)

    @property
    def are_all_axes_auto(self) -> bool:
        return all(t is AxisType.Auto for t in self.axis_types)

    @property
    def are_all_axes_explicit(self) -> bool:
        return all(t is AxisType.Explicit for t in self.axis_types)

    @property
    def are_all_axes_manual(self) -> bool:
        return all(t is AxisType.Manual for t in self.axis_types)

    def _axes_text(self) -> str:
        """``'i': 4, axis_types=(Auto,)``, as meshes print inside jaxprs."""
        axes = ", ".join(f"{name!r}: {size}" for name, size in self.shape_tuple)
        return f"{axes or '()'}, axis_types={self.axis_types!r}"


class AbstractMesh(_MeshAxes):
    """A mesh's axis names, sizes and types without its devices: what tracing sees."""

    def __init__(self, axis_sizes: tuple[int, ...], axis_names: tuple, axis_types: Any = None, *,
                 abstract_device: AbstractDevice | None = None) -> None:
        self.axis_sizes = tuple(int(s) for s in axis_sizes)
        self.axis_names = tuple(axis_names)
        self.axis_types = _axis_types(axis_types, len(self.axis_names), AxisType.Auto, self.axis_names)
        self.abstract_device = abstract_device

    @property
    def abstract_mesh(self) -> AbstractMesh:
        return self

    def _key(self) -> tuple:
        return (self.axis_sizes, self.axis_names, self.axis_types, self.abstract_device)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractMesh) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        device = f", {self.abstract_device._fields()}" if self.abstract_device is not None else ""
        return f"AbstractMesh({self._axes_text()}{device})"

    def update(self, axis_sizes: Any = None, axis_names: Any = None, axis_types: Any = None) -> AbstractMesh:
        return AbstractMesh(self.axis_sizes if axis_sizes is None else axis_sizes,
                            self.axis_names if axis_names is None else axis_names,
                            self.axis_types if axis_types is None else axis_types,
                            abstract_device=self.abstract_device)

    def update_axis_types(self, name_to_type: dict) -> AbstractMesh:
        return self.update(axis_types=tuple(name_to_type.get(n, t) for n, t in zip(self.axis_names,
                                                                                    self.axis_types)))


class Mesh(_MeshAxes):
    """Devices laid out in a grid whose axes have names; ``with mesh:`` makes it the legacy resource mesh."""

    def __init__(self, devices: Any, axis_names: Any, axis_types: Any = None) -> None:
        if isinstance(axis_names, str):
            axis_names = (axis_names,)
        self.axis_names = tuple(axis_names)
        if not isinstance(devices, np.ndarray):
            devices = np.asarray(devices, dtype=object)
        if devices.ndim != len(self.axis_names):
            raise ValueError("Mesh requires the ndim of its first argument (`devices`) to equal the length of its "
                             f"second argument (`axis_names`), but got devices.ndim == {devices.ndim} and "
                             f"len(axis_names) == {len(self.axis_names)}.")
        devices = devices.copy()
        devices.flags.writeable = False
        self.devices = devices
        self.axis_sizes = tuple(int(s) for s in devices.shape)
        self.axis_types = _axis_types(axis_types, len(self.axis_names), AxisType.Auto, self.axis_names)

    @property
    def device_ids(self) -> np.ndarray:
        if self.empty:
            return np.zeros((0,), np.int64)
        return np.vectorize(lambda d: d.id, otypes=[np.int64])(self.devices)

    @property
    def _flat_devices_tuple(self) -> tuple:
        return () if self.empty else tuple(self.devices.flat)

    @property
    def local_devices(self) -> list:
        return [d for d in self._flat_devices_tuple if _is_local(d)]

    @property
    def local_mesh(self) -> Mesh:
        return self

    @property
    def is_multi_process(self) -> bool:
        return not all(_is_local(d) for d in self._flat_devices_tuple)

    @property
    def abstract_mesh(self) -> AbstractMesh:
        first = None if self.empty else self.devices.flat[0]
        device = None if first is None else AbstractDevice(first.device_kind, getattr(first, "num_cores", None),
                                                           first.platform)
        return AbstractMesh(self.axis_sizes, self.axis_names, self.axis_types, abstract_device=device)

    def update(self, devices: Any = None, axis_names: Any = None, axis_types: Any = None) -> Mesh:
        return Mesh(self.devices if devices is None else devices,
                    self.axis_names if axis_names is None else axis_names,
                    self.axis_types if axis_types is None else axis_types)

    def _key(self) -> tuple:
        key = self.__dict__.get("_cached_key")
        if key is None:  # computed once: meshes are compared and hashed on every call that keys a cache by them
            key = self.__dict__["_cached_key"] = (tuple(int(i) for i in self.device_ids.flat), self.axis_sizes,
                                                  self.axis_names, self.axis_types)
        return key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mesh) and (self is other or self._key() == other._key())

    def __hash__(self) -> int:
        return hash(self._key())

    def __copy__(self) -> Mesh:
        return self  # immutable; its devices cannot be pickled, so copies share them as JAX's do

    def __deepcopy__(self, memo: dict) -> Mesh:
        return self

    def __repr__(self) -> str:
        types = f", axis_types={self.axis_types!r}" if self.axis_names else ""
        return f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self.axis_names}{types})"

    def __str__(self) -> str:
        return f"Mesh({self._axes_text()})"

    def __enter__(self) -> Mesh:
        warnings.warn("`with mesh:` context manager has been deprecated. Please use `with jax.set_mesh(mesh):` "
                      "instead.", DeprecationWarning, stacklevel=2)
        _state.resource_meshes.append(self)
        key = _resource_key(self)
        key.__enter__()
        _state.resource_keys.append(key)
        return self

    def __exit__(self, *exc: Any) -> None:
        _state.resource_keys.pop().__exit__(*exc)
        _state.resource_meshes.pop()


_EMPTY_ABSTRACT_MESH = AbstractMesh((), ())
_EMPTY_MESH = Mesh(np.empty((), dtype=object), ())


class _MeshState(threading.local):
    def __init__(self) -> None:
        self.resource_meshes: list[Mesh] = []  # `with mesh:` (legacy): read by pjit-era in/out shardings
        self.resource_keys: list[Any] = []  # the cache-key contexts each `with mesh:` entered
        self.meshes: list[Mesh] = []  # set_mesh
        self.abstract_meshes: list[AbstractMesh] = []  # set_mesh and use_abstract_mesh


_state = _MeshState()
_global_mesh: list[Mesh | None] = [None]  # set_mesh(m) called as a function sets it for every thread


# The meshes in context are part of every jit cache key: a function traced under one mesh (its types, the
# ``ctx_mesh`` of its jit equations) is traced again under another.
_mesh_key = config.make_user_context(None)
# The mesh of the innermost `with mesh:` is too (pjit runs over it).
_resource_key = config.make_user_context(None)

# Called when a mesh with Explicit axes becomes current (sharding_types turns layout typing on); None until installed.
on_explicit_mesh: Any = None
# Called with every mesh made current (auto_mesh_types turns typing over meshes of Auto axes on); None until installed.
on_auto_mesh: Any = None


def _entered(mesh: Any) -> None:
    if on_explicit_mesh is not None and AxisType.Explicit in mesh.axis_types:
        on_explicit_mesh()
    if on_auto_mesh is not None:
        on_auto_mesh(mesh)


def get_mesh() -> Mesh:
    """The concrete mesh ``set_mesh`` made current (an empty mesh when none)."""
    if _state.meshes:
        return _state.meshes[-1]
    return _global_mesh[0] if _global_mesh[0] is not None else _EMPTY_MESH


def get_abstract_mesh() -> AbstractMesh:
    """The abstract mesh of the current ``set_mesh``/``use_abstract_mesh`` (an empty one when none)."""
    if _state.abstract_meshes:
        return _state.abstract_meshes[-1]
    return _global_mesh[0].abstract_mesh if _global_mesh[0] is not None else _EMPTY_ABSTRACT_MESH


def resource_mesh() -> Mesh | None:
    """The mesh of the innermost ``with mesh:``, or of ``set_mesh``; None outside both."""
    if _state.resource_meshes:
        return _state.resource_meshes[-1]
    mesh = get_mesh()
    return None if mesh.empty else mesh


def meshes_snapshot() -> tuple:
    """The meshes this thread has in context (``set_mesh`` and ``use_abstract_mesh`` blocks), for
    ``restored_meshes``."""
    return tuple(_state.meshes), tuple(_state.abstract_meshes), _mesh_key.thread_override()


@contextlib.contextmanager
def restored_meshes(snapshot: tuple) -> Iterator[None]:
    """Run the block with the meshes in context that ``snapshot`` (from ``meshes_snapshot``) recorded."""
    meshes, abstract_meshes, key = snapshot
    previous = _state.meshes, _state.abstract_meshes
    _state.meshes, _state.abstract_meshes = list(meshes), list(abstract_meshes)
    try:
        with _mesh_key.restore_override(key):
            yield
    finally:
        _state.meshes, _state.abstract_meshes = previous


@contextlib.contextmanager
def resource_env_meshes() -> Iterator[None]:
    """Run the block with the mesh of the innermost ``with mesh:`` (an empty one outside any) as the only mesh in
    context, concrete and abstract, as JAX's pjit traces and runs its function (``set_mesh``'s mesh is not
    pjit's)."""
    mesh = _state.resource_meshes[-1] if _state.resource_meshes else _EMPTY_MESH
    _state.meshes.append(mesh)
    _state.abstract_meshes.append(mesh.abstract_mesh)
    try:
        with _mesh_key((mesh, mesh.abstract_mesh)):
            yield
    finally:
        _state.meshes.pop()
        _state.abstract_meshes.pop()


class set_mesh:  # noqa: N801 - a function in JAX's API that also works as a context manager
    """Make ``mesh`` the current mesh: for the rest of the program, or inside ``with set_mesh(mesh):``."""

    def __init__(self, mesh: Mesh) -> None:
        if not isinstance(mesh, Mesh):
            raise ValueError(f"Expected mesh of type `jax.sharding.Mesh`. Got {type(mesh)}")
        self._mesh = mesh
        self._previous = _global_mesh[0], _mesh_key.global_and_override()[0]
        _global_mesh[0] = mesh
        _entered(mesh)
        _mesh_key.set_global((mesh, mesh.abstract_mesh))

    def __enter__(self) -> Mesh:
        _global_mesh[0] = self._previous[0]
        _mesh_key.set_global(self._previous[1])
        _state.meshes.append(self._mesh)
        _state.abstract_meshes.append(self._mesh.abstract_mesh)
        self._key = _mesh_key((self._mesh, self._mesh.abstract_mesh))
        self._key.__enter__()
        return self._mesh

    def __exit__(self, *exc: Any) -> None:
        self._key.__exit__(*exc)
        _state.meshes.pop()
        _state.abstract_meshes.pop()


class use_abstract_mesh:  # noqa: N801 - JAX's name for this context manager
    """Trace with ``mesh`` as the current abstract mesh (of the same size as the current one)."""

    def __init__(self, mesh: AbstractMesh) -> None:
        if not isinstance(mesh, AbstractMesh):
            raise ValueError(f"Expected mesh of type `jax.sharding.AbstractMesh`. Got {type(mesh)}")
        self._mesh = mesh

    def __enter__(self) -> None:
        previous = get_abstract_mesh()
        if not previous.empty and previous.size != self._mesh.size:
            raise ValueError(f"use_abstract_mesh cannot change the size of the mesh. Got new mesh: {self._mesh} with "
                             f"size={self._mesh.size} and prev mesh: {previous} with size={previous.size}")
        _state.abstract_meshes.append(self._mesh)
        _entered(self._mesh)
        self._key = _mesh_key((get_mesh(), self._mesh))
        self._key.__enter__()

    def __exit__(self, *exc: Any) -> None:
        self._key.__exit__(*exc)
        _state.abstract_meshes.pop()
