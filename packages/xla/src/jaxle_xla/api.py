"""The device-facing public API: ``device_put``, ``device_get`` and the device queries."""

from __future__ import annotations

import gc
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import core, dtypes
from jaxle_core.array import Array
from jaxle_core.avals import get_aval, not_a_jax_type
from jaxle_core.lax.placement import ArrayCopySemantics, staged_device_put
from jaxle_core.layout import Format
from jaxle_core.memory_spaces import MemorySpace
from jaxle_core.mesh import PartitionSpec, get_mesh
from jaxle_core.sharding import NamedSharding
from jaxle_xla import _jaxlib, transfer_guard
from jaxle_xla.array import XlaArray, share_host_value, view
from jaxle_xla.clients import (
    default_backend,
    device_count,
    devices,
    host_count,
    host_id,
    host_ids,
    local_device_count,
    local_devices,
    process_count,
    process_index,
    process_indices,
)
from jaxle_xla.effect_tokens import runtime_tokens
from jaxle_xla.layouts import put_with_format
from jaxle_xla.sharding import GSPMDSharding, placement_of

__all__ = ["Device", "default_backend", "device_count", "device_get", "device_put", "devices", "effects_barrier",
           "host_count", "host_id", "host_ids", "live_arrays", "local_device_count", "local_devices", "process_count",
           "process_index", "process_indices"]

Device = _jaxlib.Device


def _is_placement(spec: Any) -> bool:
    return spec is None or isinstance(spec, (_jaxlib.Device, _jaxlib.DeviceSharding, NamedSharding, PartitionSpec,
                                             MemorySpace, Format, GSPMDSharding))


def _placement_device(spec: Any) -> Any:
    """Where ``spec`` puts an array: a device, a SingleDeviceSharding (a device's memory), a memory space, a
    NamedSharding (several devices; a PartitionSpec is read over the mesh of ``set_mesh``; a GSPMDSharding over
    the mesh its tiles name), or None (the default)."""
    if isinstance(spec, GSPMDSharding):
        return placement_of(spec)
    if isinstance(spec, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise ValueError("Please set a mesh via `jax.set_mesh` if a PartitionSpec is passed to device_put")
        return NamedSharding(mesh, spec)
    if not _is_placement(spec):
        raise ValueError("`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, `jax.Device`, `Format`, "
                         f"`jax.memory.Space` or a pytree of these values. Received invalid value: {spec}")
    return spec


def device_put(x: Any, device: Any = None, *, src: Any = None, donate: bool = False,
               may_alias: bool | None = None) -> Any:
    """Every array leaf of ``x`` as an Array on ``device``.

    ``device`` is a Device, a SingleDeviceSharding, None (the default device,
    uncommitted: later computations may move the array) or a pytree prefix of
    ``x`` made of those. Python scalars stay weakly typed. With
    ``may_alias=False`` the result never shares a buffer with ``x``. ``src`` is
    accepted for JAX's signature and not needed: every array knows its device.
    """
    if donate and may_alias:
        raise ValueError("may_alias and donate cannot be True at the same time.")
    # local: the package's __init__ imports this module before it creates xla_backend
    from jaxle_xla import xla_backend as backend

    def put(leaf: Any, target: Any) -> Any:
        if type(target) is _jaxlib.Device and _in_other_memory_of(leaf, target):
            if may_alias is not False:  # JAX's error: the buffer would be reused in a memory it is not in
                raise ValueError(f"Memory kind mismatch with xla::PjRtBuffers. Got sharding with memory kind "
                                 f"'{target.default_memory().kind}' and a buffer with memory_kind "
                                 f"'{leaf.sharding.memory_kind}'")
            # a copy into the device's own memory, typed as the array was (as JAX's)
            return share_host_value(leaf, _jaxlib.copy_to_device(leaf, leaf.aval, target))
        out = backend.device_put(leaf, target, _aval_to_put(leaf).weak_type)
        shares_buffer = type(leaf) is XlaArray and (out is leaf or (
            leaf._named_sharding is None and out._named_sharding is None and leaf._maximal is None
            and _jaxlib.buffer_device(out) == _jaxlib.buffer_device(leaf)))
        if shares_buffer and (donate or may_alias is False):
            if leaf._named_sharding is not None:  # a new layout of the same values: new buffers, never aliases
                return backend.device_put(np.asarray(leaf), target, leaf.aval.weak_type)
            out = share_host_value(leaf, view(_jaxlib.copy_buffer(leaf, out.device) if may_alias is False else leaf,
                                              leaf.aval, out._committed))
        return out

    def put_leaf(leaf: Any, spec: Any) -> Any:
        if isinstance(spec, Format):
            return put_with_format(leaf, spec, lambda value, sharding: put(value, _placement_device(sharding)))
        return put(leaf, _placement_device(spec))

    with transfer_guard.explicit_transfers():
        if not isinstance(core.current_trace(), core.EvalTrace):
            return _staged_device_put(x, device, donate, may_alias)
        if _is_placement(device):
            if isinstance(device, Format):
                return tree.tree_map(lambda leaf: put_leaf(leaf, device), x)
            target = _placement_device(device)
            return tree.tree_map(lambda leaf: put(leaf, target), x)
        return tree.tree_map(lambda spec, subtree: tree.tree_map(lambda leaf: put_leaf(leaf, spec), subtree),
                             device, x, is_leaf=_is_placement)


def _aval_to_put(x: Any, position: int | None = None) -> Any:
    """The aval of a leaf ``device_put`` places, or JAX's TypeError for a value that is not an array: a string's,
    one without a dtype's, the refusal of a NumPy dtype arrays cannot have; inside a transformation (``position``
    among the leaves given) a NumPy scalar of such a dtype or another value with a dtype is refused as staged."""
    try:
        return get_aval(x)
    except TypeError:
        if isinstance(x, str):
            raise
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        raise TypeError(f"Cannot interpret value of type {type(x)} as an abstract array; it does not have a dtype "
                        "attribute")
    if isinstance(x, np.ndarray) or (isinstance(x, np.generic) and position is None):
        dtypes.check_valid_dtype(dtype)
    if position is not None:
        raise TypeError(f"Error interpreting argument to device_put as a JAX value. The problematic value is of type "
                        f"{type(x)} and was passed to device_put at position {position}.\n")
    raise not_a_jax_type(x, full_stop=True)


def _in_other_memory_of(x: Any, device: Any) -> bool:
    """Whether ``x`` is an array wholly on ``device`` outside the device's default memory."""
    return (type(x) is XlaArray and x.sharding.device_set == {device}
            and x.sharding.memory_kind != device.default_memory().kind)


def _staged_placement(spec: Any) -> Any:
    """What a staged ``device_put`` records for one of its placements ``spec``: a Format's sharding, a
    PartitionSpec read over the mesh of ``set_mesh``, a placement as it is (anything else refused)."""
    placement = spec.sharding if isinstance(spec, Format) else spec
    if isinstance(placement, PartitionSpec) or not _is_placement(placement):
        return _placement_device(placement)
    return placement


def _staged_placements(x: Any, device: Any) -> list[Any]:
    """The placement of each leaf of ``x``: ``device`` itself, or the entry of a pytree prefix of ``x`` made of
    placements that stands for the leaf's subtree."""
    if _is_placement(device):
        return [_staged_placement(device)] * len(tree.tree_leaves(x))
    specs, prefix = tree.tree_flatten(device, is_leaf=_is_placement)
    return [_staged_placement(spec) for spec, subtree in zip(specs, prefix.flatten_up_to(x))
            for _ in tree.tree_leaves(subtree)]


def _staged_device_put(x: Any, device: Any, donate: bool, may_alias: bool | None) -> Any:
    """Inside a transformation, the leaves of ``x`` go through one ``device_put`` equation (as JAX stages it),
    each to the placement ``device`` (one, or a pytree prefix of ``x``) gives it; NumPy values put nowhere in
    particular (every placement None, nothing donated or copied) are returned as they are, as JAX folds them."""
    placements = _staged_placements(x, device)
    leaves, treedef = tree.tree_flatten(x)
    for i, leaf in enumerate(leaves):
        if type(leaf) is int:
            dtypes.scalar_type_to_dtype(int, leaf)  # JAX's OverflowError for an int the default integer cannot hold
        elif not isinstance(leaf, (core.Tracer, bool, float, complex)):
            _aval_to_put(leaf, position=i)
    if (all(p is None for p in placements) and not donate and may_alias is not False
            and all(isinstance(leaf, (np.ndarray, np.generic)) for leaf in leaves)):
        return x
    staged = list(range(len(leaves)))
    if not staged:
        return x
    semantics = (ArrayCopySemantics.DONATE_INPUT if donate else
                 ArrayCopySemantics.ALWAYS_COPY if may_alias is False else ArrayCopySemantics.REUSE_INPUT)
    outs = staged_device_put([leaves[i] for i in staged], [placements[i] for i in staged], semantics)
    for i, out in zip(staged, outs):
        leaves[i] = out
    return tree.tree_unflatten(treedef, leaves)


def device_get(x: Any) -> Any:
    """Every Array leaf of ``x`` as a NumPy array (other leaves, and arrays of keys, which NumPy cannot hold,
    unchanged); the copies start together."""
    fetched = [leaf for leaf in tree.tree_leaves(x) if isinstance(leaf, Array) and not dtypes.is_extended(leaf.dtype)]
    for leaf in fetched:
        if isinstance(leaf, XlaArray):
            leaf.copy_to_host_async()
    fetched_ids = {id(leaf) for leaf in fetched}
    return tree.tree_map(lambda leaf: np.asarray(leaf) if id(leaf) in fetched_ids else leaf, x)


def effects_barrier() -> None:
    """Wait until the side effects (host callbacks) of every computation started so far have run.

    A compiled program that calls back into Python returns only once its callbacks have run (so that their output
    and errors belong to the call that ran them); what is left is the tokens of ordered effects kept between
    calls, waited for and forgotten (the next call of each effect starts a new chain), as in JAX.
    """
    runtime_tokens.block_until_ready()


def live_arrays(platform: str | None = None) -> list[XlaArray]:
    """Every Array not yet deleted whose buffer is on ``platform`` (the default backend when None)."""
    wanted = {"gpu": ("cuda", "rocm")}.get(platform or default_backend(), (platform or default_backend(),))
    # Arrays are not registered anywhere when made (that would cost on every operation): the garbage
    # collector's list of tracked objects holds them all.
    return [x for x in gc.get_objects()
            if type(x) is XlaArray and not x.is_deleted() and next(iter(x.devices())).platform in wanted]
