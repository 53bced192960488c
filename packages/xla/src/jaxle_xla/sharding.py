"""Shardings as XLA reads them: HLO sharding text for jaxlib's arrays, Shardy attributes for programs, and back.

A ``NamedSharding`` of rank ``ndim`` becomes one cached ``GSPMDSharding`` (jaxlib's class, whose C++ half jaxlib's
dispatch reads without calling Python) over the mesh's devices in row-major order; tile positions index that device
list. Programs annotate their arguments, results and constraints with Shardy's ``#sdy.sharding`` over an
``sdy.mesh`` of the same axes, so XLA's partitioner and JAX's agree on what they produce. Shardings XLA chooses come
back as HLO shardings and are named over the mesh of the computation.

A user's ``GSPMDSharding`` (jax.extend.sharding: the same jaxlib class, with JAX's Python methods attached) places
arrays as the ``HloNamedSharding`` over its ``PartitionerMesh`` (JAX's reading of its tile assignment as a mesh of
``_axis_i`` axes); arrays and results over such a mesh report GSPMDShardings (``public_sharding``), as JAX's do.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import types
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.device_mismatch import devices_text
from jaxle_core.lax.placement import reshard
from jaxle_core.mesh import AxisType, Mesh, PartitionSpec
from jaxle_core.sharding import IndivisibleError, NamedSharding, Sharding
from jaxle_xla import _jaxlib, clients

__all__ = ["GSPMDSharding", "HloNamedSharding", "PartitionerMesh", "SingleDeviceSharding",
           "devices_text", "gspmd_sharding", "hlo_sharding_text", "incompatible_devices_error", "inspected_layout",
           "make_mesh", "make_single_device_sharding", "mesh_text", "named_from_hlo", "one_device_of",
           "partitioner_layout", "placement_of", "program_placement", "public_sharding", "reshard", "same_placement",
           "same_tiles", "sdy_sharding_text"]

SingleDeviceSharding = _jaxlib.DeviceSharding
# named as JAX names its class (errors show the name: 'SingleDeviceSharding' object has no attribute 'spec'), and
# found by that name here when pickled
SingleDeviceSharding.__name__ = SingleDeviceSharding.__qualname__ = "SingleDeviceSharding"
SingleDeviceSharding.__module__ = __name__
Sharding.register(SingleDeviceSharding)


def incompatible_devices_error(first: str, second: str) -> ValueError:
    """JAX's error for two parts of a computation (each described with ``devices_text``) on different devices."""
    return ValueError(f"Received incompatible devices for jitted computation. Got {first} and {second}")


GSPMDSharding = _jaxlib.xc.GSPMDSharding
"""A layout named only by XLA's HLO sharding over a list of devices, as JAX reports the layouts it cannot name over a
mesh: jaxlib's own class (JAX's too), made as jaxlib makes it, ``GSPMDSharding(devices, hlo, memory_kind=None)``
with ``hlo`` an ``HloSharding`` or an ``OpSharding``; tile positions index ``devices``. Its Python half is
``_GSPMDShardingMethods``."""


class _GSPMDShardingMethods:
    """The Python half of jaxlib's ``GSPMDSharding``, attached to it as JAX attaches its own (arrays laid out over
    several devices carry the same class: these are written over jaxlib's own fields only)."""

    @classmethod
    def get_replicated(cls, devices: Sequence[Any], *, memory_kind: str | None = None) -> GSPMDSharding:
        """Whole copies of the value on every one of ``devices``."""
        return GSPMDSharding(tuple(devices), _jaxlib.xc.HloSharding.replicate(), memory_kind)

    _device_assignment = property(lambda self: tuple(self._devices))
    device_set = property(lambda self: set(self._devices))
    num_devices = property(lambda self: len(self._devices))
    memory_kind = property(lambda self: self._memory_kind)

    @property
    def is_fully_replicated(self) -> bool:
        return self._hlo_sharding.is_replicated() or math.prod(_tiles(self)) == 1

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict:
        tiles = _tiles(self)
        devices = self._device_assignment
        if not tiles:
            return {d: (slice(None),) * len(global_shape) for d in devices}
        dims = list(self._hlo_sharding.tile_assignment_dimensions())
        positions = np.array(self._hlo_sharding.tile_assignment_devices()).reshape(dims)
        indices = {}
        for tile in itertools.product(*(range(n) for n in dims)):
            index = []
            for dim, (size, count) in enumerate(zip(global_shape, tiles)):
                step = -(-size // count)
                index.append(slice(None) if count == 1 else slice(tile[dim] * step, min((tile[dim] + 1) * step, size)))
            indices[devices[positions[tile]]] = tuple(index)
        return indices

    def _to_xla_hlo_sharding(self, ndim: int) -> Any:
        return self._hlo_sharding

    def check_compatible_aval(self, shape: tuple[int, ...]) -> None:
        """JAX's errors for an array of ``shape`` this sharding cannot lay out in a program (as jit's in_shardings
        and out_shardings are checked)."""
        program_placement(self).check_compatible_aval(shape)

    def with_memory_kind(self, kind: str) -> GSPMDSharding:
        return GSPMDSharding(self._devices, self._hlo_sharding, kind)

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is GSPMDSharding and other._devices == self._devices
                                 and other._hlo_sharding == self._hlo_sharding
                                 and other._memory_kind == self._memory_kind)

    def __hash__(self) -> int:
        return hash((self._devices, self._hlo_sharding, self._memory_kind))

    def __repr__(self) -> str:
        return f"GSPMDSharding({self._hlo_sharding}, memory_kind={self._memory_kind})"

    def __reduce__(self) -> tuple:
        # copied through the constructor; pickling fails as JAX's does, on the devices
        return GSPMDSharding, (tuple(self._devices), self._hlo_sharding.to_proto(), self._memory_kind)


def _tiles(sharding: GSPMDSharding) -> list[int]:
    """How many tiles split each dimension (none for whole copies)."""
    hlo = sharding._hlo_sharding
    if not hlo.is_tiled():
        return []
    dims = list(hlo.tile_assignment_dimensions())
    return dims[:-1] if hlo.replicate_on_last_tile_dim() else dims


def _attach(cls: type, methods: type) -> None:
    """Give ``cls`` (a jaxlib class) the members ``methods`` defines, and those of jaxle's ``Sharding`` it lacks."""
    for source in (methods, Sharding):
        for name, member in vars(source).items():
            kept = source is methods or not (hasattr(cls, name) or getattr(member, "__isabstractmethod__", False))
            if isinstance(member, (property, classmethod, types.FunctionType)) and kept:
                setattr(cls, name, member)


_attach(GSPMDSharding, _GSPMDShardingMethods)
Sharding.register(GSPMDSharding)


def maximal_sharding(devices: Sequence[Any], index: int) -> GSPMDSharding:
    """The layout XLA gives a value that only the ``index``-th of ``devices`` computes in a partitioned program (a
    host callback's result outside ``shard_map``): as JAX reports it, a ``GSPMDSharding`` over all the devices
    (every one holds the whole shape), whose arrays cannot be computed with (``unconvertible_error``)."""
    return GSPMDSharding(tuple(devices), _jaxlib.hlo_sharding(f"{{maximal device={index}}}"))


def maximal_index(sharding: GSPMDSharding) -> int:
    """Which of its devices a maximal ``sharding`` (``maximal_sharding``) puts the value on."""
    return sharding._hlo_sharding.tile_assignment_devices()[0]


def unconvertible_error(sharding: GSPMDSharding) -> TypeError:
    """JAX's error for a GSPMDSharding that no mesh of its devices expresses, used as a placement (a maximal one's
    arrays given to a computation among them)."""
    return TypeError(f"Cannot convert GSPMDSharding {sharding._hlo_sharding} into SdyArray.")


class PartitionerMesh(Mesh):
    """The mesh a GSPMDSharding is read over, as JAX reads it: one Auto axis (``_axis_0``, ``_axis_1``, ...) per
    factor of its tile assignment, over its devices in order. Programs partitioned over it report the layouts
    XLA gives their values as GSPMDShardings, as JAX's do."""


class HloNamedSharding(NamedSharding):
    """A GSPMDSharding as the NamedSharding over its PartitionerMesh that places arrays and partitions programs;
    it prints as, and is reported as (``public_sharding``), the GSPMDSharding ``gspmd``. ``in_programs`` is
    False for one whose devices follow no iota: arrays are put so (the mesh then lists the devices in the tiles'
    order), and no program takes them, as in JAX."""

    _sentence_end = ""  # JAX writes a GSPMDSharding's rank error without a full stop

    def __init__(self, mesh: PartitionerMesh, spec: PartitionSpec, gspmd: GSPMDSharding, in_programs: bool = True):
        super().__init__(mesh, spec, memory_kind=None if gspmd.memory_kind == "device" else gspmd.memory_kind)
        self.gspmd = gspmd
        self.in_programs = in_programs

    def with_memory_kind(self, kind: str) -> HloNamedSharding:
        gspmd = self.gspmd.with_memory_kind(kind)
        return HloNamedSharding(self.mesh, self.spec, gspmd, self.in_programs)

    def __repr__(self) -> str:
        return repr(self.gspmd)


def public_sharding(sharding: Any) -> Any:
    """The sharding users see for ``sharding``: a GSPMDSharding for the NamedSharding placing it."""
    return sharding.gspmd if type(sharding) is HloNamedSharding else sharding


def program_placement(sharding: Any) -> Any:
    """``sharding`` as a program's arguments, results and constraints read it: a GSPMDSharding as the
    NamedSharding placing it (a maximal one as whole copies; JAX's TypeError for one no mesh expresses), any
    other as it is."""
    if type(sharding) is HloNamedSharding:
        placement = sharding
    elif isinstance(sharding, GSPMDSharding):
        placement = placement_of(sharding)
    else:
        return sharding
    if not placement.in_programs:
        raise unconvertible_error(placement.gspmd)
    gspmd = placement.gspmd
    if gspmd._hlo_sharding.is_maximal():  # read as whole copies on every device, as JAX reads it
        return placement_of(GSPMDSharding.get_replicated(gspmd._device_assignment, memory_kind=gspmd.memory_kind))
    return placement


# HLO sharding text of tiles whose devices are an iota (0, 1, ...) reshaped to ``dims`` and transposed by ``perm``
_IOTA_TILES = re.compile(r"\{devices=\[([\d,]+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?( last_tile_dim_replicate)?\}")
# HLO sharding text of tiles given as a list of device positions
_LISTED_TILES = re.compile(r"\{devices=\[([\d,]+)\][\d,]+( last_tile_dim_replicate)?\}")


@functools.lru_cache(maxsize=256)
def placement_of(sharding: GSPMDSharding) -> HloNamedSharding:
    """The NamedSharding laying arrays out as ``sharding`` does, over its PartitionerMesh: each dimension of the
    iota its tile assignment reshapes is cut into the factors the tiles need (major first), one mesh axis each.
    Tiles given as a list of device positions are placed over a mesh of the tiles' own dimensions (no program
    takes them); a manual sharding has no mesh: JAX's TypeError."""
    devices = sharding._device_assignment
    hlo = sharding._hlo_sharding
    if hlo.is_replicated() or hlo.is_maximal():  # whole copies (JAX places a maximal one so too): splitting nothing
        return HloNamedSharding(_partitioner_mesh(devices, (len(devices),)), PartitionSpec(), sharding)
    text = str(hlo)
    iota, listed = _IOTA_TILES.fullmatch(text), _LISTED_TILES.fullmatch(text)
    if iota is None and listed is None:
        raise unconvertible_error(sharding)
    if math.prod(hlo.tile_assignment_dimensions()) != len(devices):
        raise ValueError(f"{sharding} tiles {math.prod(hlo.tile_assignment_dimensions())} devices, but lists "
                         f"{len(devices)}")
    replicating = hlo.replicate_on_last_tile_dim()
    tiles = list(hlo.tile_assignment_dimensions())
    if listed is not None:
        in_tile_order = tuple(devices[i] for i in hlo.tile_assignment_devices())
        sizes = [n for n in tiles if n > 1]
        names = iter(range(len(sizes)))
        entries = [f"_axis_{next(names)}" if n > 1 else None for n in tiles]
        return HloNamedSharding(_partitioner_mesh(in_tile_order, tuple(sizes)),
                                PartitionSpec(*(entries[:-1] if replicating else entries)), sharding, False)
    dims = [int(n) for n in iota[2].split(",")]
    perm = [int(n) for n in iota[3].split(",")] if iota[3] else list(range(len(dims)))
    axes, per_tile = _iota_factors(tiles, dims, perm)
    if axes is None:
        raise unconvertible_error(sharding)
    if replicating:
        per_tile.pop()  # the last tile dimension replicates rather than splits
    names = {factor: f"_axis_{i}" for i, factor in enumerate(sorted(axes))}
    entries = [None if not factors else names[factors[0]] if len(factors) == 1 else
               tuple(names[f] for f in factors) for factors in per_tile]
    return HloNamedSharding(_partitioner_mesh(devices, tuple(axes[f] for f in sorted(axes))),
                            PartitionSpec(*entries), sharding)


def _iota_factors(tiles: list[int], dims: list[int], perm: list[int]) -> tuple[dict | None, list[list]]:
    """The factors cutting an iota of ``dims``, transposed by ``perm``, at the boundaries of ``tiles``: their
    sizes keyed by (iota dimension, position in it), ordered as the iota's devices are, and the factors of each
    tile dimension, major first; (None, ...) when the boundaries do not fall between factors."""
    sizes: dict[tuple[int, int], int] = {}
    per_tile: list[list[tuple[int, int]]] = []
    cut = [0] * len(dims)  # factors taken so far from each iota dimension
    source = iter(perm)
    dim, left = None, 1
    for tile in tiles:
        per_tile.append([])
        while tile > 1:
            if left == 1:
                dim = next(source, None)
                if dim is None:
                    return None, per_tile
                left = dims[dim]
                continue
            factor = math.gcd(tile, left)
            if factor == 1:
                return None, per_tile
            key = (dim, cut[dim])
            cut[dim] += 1
            sizes[key] = factor
            per_tile[-1].append(key)
            tile //= factor
            left //= factor
    return sizes, per_tile


@functools.lru_cache(maxsize=256)
def _partitioner_mesh(devices: tuple, sizes: tuple[int, ...]) -> PartitionerMesh:
    grid = np.empty(len(devices), dtype=object)
    grid[:] = devices
    return PartitionerMesh(grid.reshape(sizes), tuple(f"_axis_{i}" for i in range(len(sizes))),
                           (AxisType.Auto,) * len(sizes))


def hlo_sharding_text(sharding: NamedSharding, ndim: int) -> str:
    """XLA's HLO sharding text: each dimension tiled by its axes (major first), unused axes replicating the tiles."""
    mesh = sharding.mesh
    position = {name: i for i, name in enumerate(mesh.axis_names)}
    dims = sharding.dimension_axes(ndim)
    tiles = [math.prod(mesh.shape[a] for a in axes) for axes in dims]
    unused = [a for a in mesh.axis_names if all(a not in axes for axes in dims)]
    replicas = math.prod(mesh.shape[a] for a in unused)
    if math.prod(tiles) == 1:
        return "{replicated}"
    order = [position[a] for axes in dims for a in axes] + [position[a] for a in unused]
    tile_dims = tiles + ([replicas] if replicas > 1 else [])
    if order == sorted(order):
        devices = f"<=[{mesh.size}]"
    else:
        devices = f"<=[{','.join(map(str, mesh.axis_sizes))}]T({','.join(map(str, order))})"
    last = " last_tile_dim_replicate" if replicas > 1 else ""
    return f"{{devices=[{','.join(map(str, tile_dims))}]{devices}{last}}}"


def _tiles_hlo(sharding: Any, ndim: int) -> Any:
    """XLA's HLO sharding of a rank-``ndim`` array laid out by ``sharding`` (its tiles over positions in its device
    list): whole copies for a sharding of one device."""
    if type(sharding) is HloNamedSharding:
        return sharding.gspmd._hlo_sharding
    if isinstance(sharding, NamedSharding):
        return _jaxlib.hlo_sharding(hlo_sharding_text(sharding, ndim))
    if isinstance(sharding, GSPMDSharding):
        return sharding._hlo_sharding
    return _jaxlib.hlo_sharding("{replicated}")


def _whole_copies(hlo: Any) -> bool:
    return hlo.num_devices() == 1 or hlo.is_replicated()


def same_tiles(first: Any, second: Any, ndim: int) -> bool:
    """Whether both shardings split a rank-``ndim`` array into the same tiles at the same positions of their device
    lists, whatever the devices (whole copies alike on any number of devices): how JAX's jit compares a committed
    argument's sharding with its in_sharding, moving the argument to that sharding's devices when they differ."""
    a, b = _tiles_hlo(first, ndim), _tiles_hlo(second, ndim)
    return (_whole_copies(a) and _whole_copies(b)) or a == b


@functools.lru_cache(maxsize=1024)
def one_device_of(sharding: Any) -> _jaxlib.Device | None:
    """The device a sharding of a single device (a SingleDeviceSharding) names, else None."""
    if sharding is None or isinstance(sharding, NamedSharding):
        return None
    devices = sharding._device_assignment
    return devices[0] if len(devices) == 1 else None


def gspmd_sharding(sharding: NamedSharding, ndim: int) -> Any:
    """The jaxlib sharding of an array of rank ``ndim`` laid out by ``sharding``."""
    kind = sharding.memory_kind
    return _jaxlib.gspmd_sharding(sharding.mesh._flat_devices_tuple,
                                  _jaxlib.hlo_sharding(hlo_sharding_text(sharding, ndim)),
                                  None if kind == "device" else kind)


@functools.lru_cache(maxsize=1024)
def same_placement(first: NamedSharding, second: NamedSharding, ndim: int) -> bool:
    """Whether both lay a rank-``ndim`` array's buffers out alike (same devices in order, same tiles), so that an
    array of one serves as an array of the other without moving; their meshes may name their axes differently."""
    if first.mesh._flat_devices_tuple == second.mesh._flat_devices_tuple \
            and hlo_sharding_text(first, ndim) == hlo_sharding_text(second, ndim):
        return True
    return first.is_equivalent_to(second, ndim)  # the same blocks on the same devices, however the meshes differ


def mesh_text(axes: Sequence[tuple[str, int]], device_id: int | None = None) -> str:
    """What an ``sdy.mesh`` declaration says of its ``(name, size)`` axes (of a maximal mesh, of no axes: its one
    ``device_id``): ``<[...]>``, and the same as the ``stablehlo.mesh`` attribute JAX gives it."""
    shardy = ", ".join(f'"{name}"={size}' for name, size in axes)
    stablehlo = ", ".join(f'{{name = "{name}", size = {size} : i64}}' for name, size in axes)
    if device_id is None:
        return f"<[{shardy}]> {{stablehlo.mesh = {{axes = [{stablehlo}]}}}}"
    return (f"<[{shardy}], device_ids=[{device_id}]> {{stablehlo.mesh = {{axes = [{stablehlo}], "
            f"device_ids = dense<{device_id}> : tensor<1xi64>}}}}")


def sdy_sharding_text(sharding: NamedSharding, ndim: int, mesh_symbol: str,
                      unconstrained_dims: frozenset = frozenset()) -> str:
    """``#sdy.sharding<@mesh, [{"x"}, {}]>``: each dimension's axes (unconstrained dimensions left open), then the
    unreduced axes (``unreduced={"y"}``)."""
    dims = []
    for d, axes in enumerate(sharding.dimension_axes(ndim)):
        entry = sharding.spec[d] if d < len(sharding.spec) else None
        names = ", ".join(f'"{a}"' for a in axes)
        open_dim = d in unconstrained_dims or entry is PartitionSpec.UNCONSTRAINED
        dims.append(f"{{{names}{', ?' if open_dim and names else '?' if open_dim else ''}}}")
    unreduced = sharding.spec.unreduced
    if unreduced:  # partial sums the partitioner reduces where a later layout asks
        names = ", ".join(f'"{a}"' for a in sharding.mesh.axis_names if a in unreduced)
        return f"#sdy.sharding<@{mesh_symbol}, [{', '.join(dims)}], unreduced={{{names}}}>"
    return f"#sdy.sharding<@{mesh_symbol}, [{', '.join(dims)}]>"


def named_from_hlo(hlo: Any, mesh: Mesh, ndim: int) -> NamedSharding:
    """The NamedSharding over ``mesh`` laying out a rank-``ndim`` array as XLA's ``hlo`` sharding does (the
    shortest spec, as JAX names them); over a PartitionerMesh, one reported as the GSPMDSharding of ``hlo``."""
    if isinstance(mesh, PartitionerMesh):
        return _placement_from_hlo_text(str(hlo), mesh, ndim)
    return _named_from_hlo_text(str(hlo), mesh, ndim)


@functools.lru_cache(maxsize=1024)
def _placement_from_hlo_text(text: str, mesh: PartitionerMesh, ndim: int) -> HloNamedSharding:
    """The placement of a value XLA laid out by ``text`` in a program over ``mesh``: over that mesh where its axes
    express it (one mesh for the whole program), else over the layout's own."""
    gspmd = GSPMDSharding(mesh._flat_devices_tuple, _jaxlib.hlo_sharding(text))
    try:
        return HloNamedSharding(mesh, _named_from_hlo_text(text, mesh, ndim).spec, gspmd)
    except ValueError:
        return placement_of(gspmd)


@functools.lru_cache(maxsize=1024)
def _named_from_hlo_text(text: str, mesh: Mesh, ndim: int) -> NamedSharding:
    hlo = _jaxlib.hlo_sharding(text)
    if hlo.is_replicated():
        return NamedSharding(mesh, PartitionSpec())
    tiles = hlo.tile_assignment_dimensions()[:ndim]
    axes = [a for a in mesh.axis_names if mesh.shape[a] > 1]
    for spec in _specs_with_tiles(axes, mesh, tiles):
        candidate = NamedSharding(mesh, spec)
        if _jaxlib.hlo_sharding(hlo_sharding_text(candidate, ndim)) == hlo:
            return candidate
    # JAX checks that the mesh's axes divide the tiles only for tiles over the devices in order (no transpose)
    error = None if "T(" in text else _unnamed_error(list(hlo.tile_assignment_dimensions()), mesh)
    raise error or ValueError(f"XLA chose the sharding {text}, which no PartitionSpec over {mesh} expresses")


def partitioner_layout(hlo: Any, mesh: Mesh, ndim: int, *, result: bool = True) -> NamedSharding:
    """The layout XLA's partitioner gave a rank-``ndim`` argument or result of a program over ``mesh``, as JAX
    reports it: named over ``mesh`` (``named_from_hlo``); where no PartitionSpec names it, its GSPMDSharding
    (placing the array over a mesh of its own), but where the mesh's axes, in order, do not divide its tiles:
    JAX's IndivisibleError for a ``result`` (and an argument JAX names as one), a placement for another argument."""
    try:
        return named_from_hlo(hlo, mesh, ndim)
    except IndivisibleError:
        if result:
            raise
    except ValueError:
        pass
    return placement_of(GSPMDSharding(mesh._flat_devices_tuple, hlo))


def _unnamed_error(tiles: list[int], mesh: Mesh) -> IndivisibleError | None:
    """JAX's error for a layout XLA chose that no PartitionSpec over ``mesh`` names: the first tile dimension (in
    order, ``tiles`` with the replicating one) that the mesh's axes, taken in order, do not divide; None when
    they all do."""
    axes = iter(mesh.axis_sizes)
    for size in tiles:
        while size > 1:
            axis = next(axes, None)
            if axis is None:
                return None
            if size % axis:
                mesh_shape = ", ".join(f"('{name}', {n})" for name, n in zip(mesh.axis_names, mesh.axis_sizes))
                return IndivisibleError(f"shape={tiles} is incompatible with mesh_shape=OrderedDict([{mesh_shape}]): "
                                        f"dim_size={size} is not divisible by axis_size={axis}.")
            size //= axis
    return None


def _specs_with_tiles(axes: list, mesh: Mesh, tiles: list[int]):
    """Every PartitionSpec over ``axes`` whose dimension ``d`` is split ``tiles[d]`` times, trailing Nones cut."""

    def choices(d: int, free: tuple):
        if d == len(tiles):
            yield ()
            return
        for k in range(len(free) + 1):
            for picked in itertools.permutations(free, k):
                if math.prod(mesh.shape[a] for a in picked) == tiles[d]:
                    rest = tuple(a for a in free if a not in picked)
                    for tail in choices(d + 1, rest):
                        yield (picked,) + tail

    for per_dim in choices(0, tuple(axes)):
        entries = [None if not p else p[0] if len(p) == 1 else p for p in per_dim]
        while entries and entries[-1] is None:
            entries.pop()
        yield PartitionSpec(*entries)


def inspected_layout(hlo: Any, mesh: Mesh, ndim: int) -> Sharding:
    """What ``inspect_array_sharding`` reports for a value XLA laid out by ``hlo`` in a program partitioned over
    ``mesh``, as JAX does: a NamedSharding over the mesh with every axis Auto (inside a ``shard_map`` body, where
    each device holds its own block, replicated); in a program over a GSPMDSharding's mesh, the GSPMDSharding of
    ``hlo``."""
    if isinstance(mesh, PartitionerMesh):
        return GSPMDSharding(mesh._flat_devices_tuple, _jaxlib.xc.HloSharding.replicate() if hlo.is_manual() else hlo)
    mesh = mesh.update(axis_types=(AxisType.Auto,) * len(mesh.axis_names))
    if hlo.is_manual():
        return NamedSharding(mesh, PartitionSpec())
    return named_from_hlo(hlo, mesh, ndim)


def make_single_device_sharding(device: Any, *, memory_kind: str | None = None) -> SingleDeviceSharding:
    """The sharding placing a whole array on ``device``."""
    return _jaxlib.DeviceSharding(device, memory_kind)


def make_mesh(axis_shapes: Sequence[int], axis_names: Sequence[str], axis_types: Any = None, *,
              devices: Sequence[Any] | None = None) -> Mesh:
    """A mesh of ``axis_shapes`` over the first devices (``devices`` when given), its axes Explicit by default."""
    devices = list(clients.devices() if devices is None else devices)
    size = math.prod(axis_shapes)
    if len(devices) < size:
        raise ValueError(f"Number of devices {len(devices)} must be >= the product of mesh_shape "
                         f"{tuple(axis_shapes)}")
    grid = np.empty(size, dtype=object)
    grid[:] = devices[:size]
    types = (AxisType.Explicit,) * len(axis_names) if axis_types is None else axis_types
    return Mesh(grid.reshape(tuple(axis_shapes)), tuple(axis_names), types)
