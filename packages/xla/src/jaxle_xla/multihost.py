"""``jax.experimental.multihost_utils``: exchanging host values between the processes of a multi-process run.

Every exchange is one XLA program over every device of the run, an ``all_gather`` of bytes that gloo carries
between processes, so values of any dtype travel unchanged and one program serves every dtype of a given size.
Each process contributes its value through its first device; all processes must call these functions in the same
order with values of the same shapes and dtypes. With a single process the values come back at once, as NumPy
arrays, as in JAX.
"""

from __future__ import annotations

import contextlib
import functools
import zlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

import jaxle_tree as tree
from jaxle_core import dtypes
from jaxle_core.array import Array
from jaxle_core.avals import ShapedArray
from jaxle_core.jit import jit
from jaxle_core.mesh import AxisType, Mesh, PartitionSpec
from jaxle_core.sharding import NamedSharding
from jaxle_xla import _jaxlib, clients, distributed, sharded_array
from jaxle_xla.array import XlaArray, laid_out
from jaxle_xla.make_array import ProcessBlocks, make_array_from_process_local_data

__all__ = ["ProcessFailureError", "assert_equal", "broadcast_one_to_all", "global_array_to_host_local_array",
           "host_local_array_to_global_array", "live_devices", "process_allgather", "reached_preemption_sync_point",
           "sync_global_devices"]


class ProcessFailureError(Exception):
    """Some processes of the run failed; ``failed_devices`` are their devices."""

    def __init__(self, failed_devices: set[_jaxlib.Device]):
        super().__init__(f"Devices failed: {failed_devices}")
        self.failed_devices = failed_devices


@functools.cache
def _all_gather_program(client: Any, devices: tuple[_jaxlib.Device, ...], width: int) -> Any:
    n = len(devices)
    groups = ", ".join(map(str, range(n)))
    text = (f"module @jit_multihost_all_gather attributes {{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = {n} : "
            f"i32}} {{\n  func.func public @main(%arg0: tensor<1x{width}xui8>) -> tensor<{n}x{width}xui8> {{\n"
            f"    %0 = \"stablehlo.all_gather\"(%arg0) {{all_gather_dim = 0 : i64, replica_groups = dense<[[{groups}]]>"
            f" : tensor<1x{n}xi64>}} : (tensor<1x{width}xui8>) -> tensor<{n}x{width}xui8>\n"
            f"    \"func.return\"(%0) : (tensor<{n}x{width}xui8>) -> ()\n  }}\n}}\n")
    return _jaxlib.compile_replicated(client, text, devices)


def _gather_bytes(data: bytes) -> list[bytes]:
    """Every process's ``data`` (all of one length), in process order."""
    client = clients.get_client("cpu")
    devices = tuple(client.devices())
    local = [d for d in devices if d.process_index == client.process_index()]
    width = max(len(data), 1)  # an empty value still takes part, so every process runs the same program
    row = np.zeros((1, width), np.uint8)
    row[0, :len(data)] = np.frombuffer(data, np.uint8)
    rows = [row] + [np.zeros_like(row)] * (len(local) - 1)
    gathered = _jaxlib.run_replicated(_all_gather_program(client, devices, width), devices, rows,
                                      (len(devices), width))
    first = {}
    for position, device in enumerate(devices):
        first.setdefault(device.process_index, position)
    return [gathered[first[p], :len(data)].tobytes() for p in sorted(first)]


def _host_value(x: Any) -> np.ndarray:
    """A leaf as the NumPy array a process sends: Arrays as they are, other values with JAX's canonical dtype."""
    if isinstance(x, Array):
        return np.asarray(x)
    return np.asarray(x, dtypes.dtype(x))


def _from_bytes(data: bytes, like: np.ndarray) -> np.ndarray:
    return np.frombuffer(data, like.dtype).reshape(like.shape)


def _gather_leaf(x: np.ndarray) -> list[np.ndarray]:
    return [_from_bytes(b, x) for b in _gather_bytes(x.tobytes())]


def _combine(values: list[np.ndarray], tiled: bool) -> np.ndarray:
    return np.concatenate(values) if tiled and values[0].ndim else np.stack(values)


def _multi_process() -> bool:
    return clients.process_count("cpu") > 1


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Every process's value of each leaf, as NumPy arrays: stacked on a new leading axis, or concatenated along
    the first axis when ``tiled`` (scalars are stacked either way)."""

    def gather(leaf: Any) -> np.ndarray:
        if _spans_processes(leaf):
            if not tiled:
                raise ValueError("Gathering global non-fully-addressable arrays only supports tiled=True")
            return np.asarray(_replicated(leaf._named_sharding.mesh)(leaf))
        if not _multi_process():
            value = np.asarray(leaf)
            return value if tiled else np.expand_dims(value, 0)
        return _combine(_gather_leaf(_host_value(leaf)), tiled)

    return tree.tree_map(gather, in_tree)


def _spans_processes(x: Any) -> bool:
    return type(x) is XlaArray and x._named_sharding is not None and not x._named_sharding.is_fully_addressable


@functools.cache
def _replicated(mesh: Mesh) -> Any:
    """A jitted identity whose result every device of ``mesh`` holds whole (so every process can read it)."""
    return jit(lambda x: x, out_shardings=NamedSharding(mesh, PartitionSpec()))


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """The source process's value of each leaf, in every process, as NumPy arrays. The source is process 0 unless
    ``is_source`` says which processes are (several sources' values are summed)."""
    if is_source is None:
        is_source = clients.process_index("cpu") == 0

    def broadcast(leaf: Any) -> np.ndarray:
        if not _multi_process():
            return np.asarray(leaf)
        value = _host_value(leaf)
        sources = [_from_bytes(b[:-1], value) for b in _gather_bytes(value.tobytes() + bytes([is_source])) if b[-1]]
        if not sources:
            return np.zeros_like(value)
        if value.dtype == np.bool_:
            return np.logical_or.reduce(sources)
        return np.asarray(np.sum(sources, axis=0, dtype=value.dtype))

    return tree.tree_map(broadcast, in_tree)


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Raise an AssertionError, in every process, unless each leaf has the same value in every process."""

    def check(leaf: Any) -> None:
        if not _multi_process():
            return
        value = _host_value(leaf)
        values = _gather_leaf(value)
        if not all(np.array_equal(v, value) for v in values):
            raise AssertionError(f"{fail_message}. Expected: {_combine(values, tiled=True)}; got: {leaf}.")

    tree.tree_map(check, in_tree)


def sync_global_devices(name: str) -> None:
    """Wait until every process of the run reaches a call with the same ``name`` (an AssertionError when the
    processes' names differ)."""
    assert_equal(np.uint32(zlib.crc32(name.encode())), f"sync_global_devices name mismatch ('{name}')")


def reached_preemption_sync_point(step_id: int) -> bool:
    """Whether the run should stop at ``step_id``: True, at the same step in every process, once any process has
    received SIGTERM; call it with increasing step ids. Always False outside a multi-process run."""
    manager = distributed.global_state.preemption_sync_manager
    if manager is None:
        if _multi_process():
            raise RuntimeError("Preemption sync manager has not been initialized.")
        return False
    return manager.reached_sync_point(step_id)


@contextlib.contextmanager
def live_devices(devices: Sequence[_jaxlib.Device]) -> Iterator[list[_jaxlib.Device]]:
    """The devices, among ``devices``, of the processes still alive: the context waits for each live process to
    enter it too."""
    client = distributed.global_state.client
    if client is None:
        raise RuntimeError("Distributed JAX not initialized.")
    processes = sorted({d.process_index for d in devices})
    alive = client.get_live_nodes(processes)
    yield [d for d in devices if d.process_index in alive]


def _pspecs_mismatch(inputs: Any, pspecs: Any, which: str) -> ValueError | None:
    """JAX's ValueError for ``pspecs`` that are not a tuple prefix of ``inputs`` taken as the positional arguments
    (its top level's children); None when they are a tuple of the right length (a deeper mismatch)."""
    what = f"{which} pspecs"
    intro = (f"{what} specification must be a tree prefix of the positional arguments tuple. In particular, {what} "
             "must either be a Sharding, a PartitionSpec, or a tuple of length equal to the number of positional "
             f"arguments. But {what} ")
    if not isinstance(pspecs, tuple):
        return ValueError(f"{intro}is not a tuple: got {type(pspecs)} instead.")
    arguments = len(tree.tree_structure(inputs).children())
    if len(pspecs) != arguments:
        return ValueError(f"{intro}is the wrong length: got a tuple or list of length {len(pspecs)} for an args "
                          f"tuple of length {arguments}.")
    return None


def _map_with_specs(convert: Any, inputs: Any, pspecs: Any, which: str) -> Any:
    """``convert(leaf, spec)`` over ``inputs``, ``pspecs`` being one PartitionSpec or a pytree prefix of them
    (``which``: ``input`` or ``output``, as JAX's errors name them; JAX's ValueError for a None among them)."""
    if any(spec is None for spec in tree.tree_leaves(pspecs, is_leaf=lambda x: x is None)):
        raise ValueError("`None` is not a valid input to the pspecs argument. Please use "
                         "jax.sharding.PartitionSpec() if you wanted to replicate your input.")
    try:
        spread = tree.tree_map(lambda spec, subtree: tree.tree_map(lambda _: spec, subtree), pspecs, inputs,
                               is_leaf=lambda x: isinstance(x, PartitionSpec))
    except ValueError as error:
        mismatch = _pspecs_mismatch(inputs, pspecs, which)
        if mismatch is None:
            raise
        raise mismatch from error
    return tree.tree_map(convert, inputs, spread, is_leaf=lambda x: isinstance(x, PartitionSpec))


def host_local_array_to_global_array(local_inputs: Any, global_mesh: Mesh, pspecs: Any) -> Any:
    """Each leaf, this process's part of an array laid out over ``global_mesh`` by its PartitionSpec, as the global
    array (see ``make_array_from_process_local_data``)."""
    return _map_with_specs(lambda leaf, spec: make_array_from_process_local_data(
        NamedSharding(global_mesh, spec), _host_value(leaf)), local_inputs, pspecs, "input")


def _local_mesh(mesh: Mesh) -> Mesh:
    """The part of ``mesh`` made of this process's devices, with the same axis names (typed Auto)."""
    local = np.vectorize(lambda d: d in set(mesh.local_devices), otypes=[bool])(mesh.devices)
    rows = [sorted(set(i)) for i in np.nonzero(local)]
    return Mesh(mesh.devices[np.ix_(*rows)], mesh.axis_names, axis_types=(AxisType.Auto,) * len(mesh.axis_names))


def global_array_to_host_local_array(global_inputs: Any, global_mesh: Mesh, pspecs: Any) -> Any:
    """Each leaf, a global array laid out over ``global_mesh``, as this process's part of it: an array over this
    process's devices (the inverse of ``host_local_array_to_global_array``). In a run of one process an Array is
    its own part, returned as it is, as JAX returns it; a host value is laid out over the local mesh."""
    local_mesh = _local_mesh(global_mesh)

    def convert(x: Any, spec: PartitionSpec) -> Any:
        local_sharding = NamedSharding(local_mesh, spec)
        if not isinstance(x, Array):
            local = _host_value(x)
            return laid_out(sharded_array.put(local, ShapedArray(local.shape, local.dtype), local_sharding),
                            local_sharding)
        if not _multi_process():
            return x
        sharding = NamedSharding(global_mesh, spec)
        blocks = ProcessBlocks(sharding, x.ndim)
        block_shape = sharding.shard_shape(x.shape)
        local = np.empty(tuple(len(held) * size for held, size in zip(blocks.held, block_shape)), x.dtype)
        for shard in x.addressable_shards:
            local[blocks.local_index(shard.device, block_shape)] = np.asarray(shard.data)
        aval = x.aval.update(shape=local.shape)
        return laid_out(sharded_array.put(local, aval, local_sharding), local_sharding)

    return _map_with_specs(convert, global_inputs, pspecs, "output")
