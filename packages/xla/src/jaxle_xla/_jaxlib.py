"""Every private jaxlib call jaxle makes, in one place.

jaxlib's Python surface is private and changes between releases; a jaxlib
upgrade should touch this file only. Everything here was checked against
jaxlib 0.10.2 (see shared/design/JAXLIB_NOTES.md). The bridge stays off the
paths where jaxlib's C++ imports ``jax`` modules by name: results come back
through ``consume_with_handlers`` with checks skipped, never through
``disassemble_into_single_device_arrays``; CPU buffers are read back from
their host address. The remaining exceptions are reading back a buffer of
another platform (``to_host``, ``copy_to_host_async``) and ``dlpack_capsule``.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import ctypes
import functools
import gc
import importlib.abc
import importlib.metadata
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import ml_dtypes
import numpy as np

# XLA's C++ logging prints INFO lines (client start-up, device counts) on stderr unless told otherwise; like JAX,
# keep warnings and errors and drop INFO, unless the user chose a level. Read once, when jaxlib loads.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

from jaxlib import _jax  # noqa: E402
from jaxlib import xla_client as xc  # noqa: E402

from jaxle_core.config import config  # noqa: E402
from jaxle_xla import ir_dumps  # noqa: E402

Device = xc.Device
DeviceBuffer = xc.ArrayImpl
LoadedExecutable = xc.LoadedExecutable
XlaRuntimeError = xc.XlaRuntimeError

# The C++ side refuses to move data before it has been told where the x64 flag lives. jaxle canonicalises dtypes
# itself; the flag follows jaxle's for C++ dispatch, which keys and transfers Python scalars and NumPy arguments by
# it, and is on for jaxle's own transfers: jaxlib must never narrow a 64-bit array jaxle puts.
_X64 = _jax.config.Config("jaxle_enable_x64", True, include_in_jit_key=True, include_in_trace_context=True)
_jax.jax_jit.set_enable_x64_state(_X64)


@contextlib.contextmanager
def _unnarrowed():
    """jaxlib's x64 flag on for a transfer: jaxle's flag (mirrored for C++ dispatch, see fast_jit) is off, yet the
    value, already of the aval's dtype (64 bits for a DLPack import, say), must not be narrowed."""
    previous = _X64.swap_local(True)
    try:
        yield
    finally:
        _X64.swap_local(previous)


_device_shardings: dict[Device, DeviceSharding] = {}
_memory_shardings: dict[tuple[Device, str], DeviceSharding] = {}


class DeviceSharding(xc.SingleDeviceSharding):
    """The placement of an array on one device, with the Python half jaxlib expects.

    There is one instance per device and memory kind, so that equality and hashing are identity, computed in C:
    jaxlib's C++ dispatch hashes each argument's sharding on every jitted call, and a ``__hash__`` written in Python
    cost a Python call per argument (15 of them per step of a small training loop).
    """

    def __new__(cls, device: Device, memory_kind: str | None = None) -> DeviceSharding:
        try:
            sharding = _device_shardings.get(device)
        except TypeError:  # not a device: jaxlib's constructor says so
            sharding = None
        if memory_kind is not None and (sharding is None or memory_kind != sharding.memory_kind):
            if not isinstance(device, Device) or memory_kind != device.default_memory().kind:
                return _other_memory_sharding(cls, device, memory_kind)
        if sharding is None:
            sharding = super().__new__(cls)
            xc.SingleDeviceSharding.__init__(sharding, device)
            sharding.memory_kind = device.default_memory().kind
            sharding = _device_shardings.setdefault(device, sharding)
        return sharding

    def __init__(self, device: Device, memory_kind: str | None = None):
        pass  # made by __new__, once per device and memory kind

    _device_assignment = property(lambda self: (self._device,))
    device_set = property(lambda self: {self._device})
    is_fully_replicated = property(lambda self: True)
    is_fully_addressable = property(lambda self: True)
    num_devices = property(lambda self: 1)

    def with_memory_kind(self, kind: str) -> DeviceSharding:
        """The sharding of the same device in memory of ``kind``."""
        return DeviceSharding(self._device, kind)

    def _to_xla_hlo_sharding(self, ndim: int):
        return xc.HloSharding.replicate()

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict:
        return {self._device: (slice(None),) * len(global_shape)}

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(global_shape)

    def __reduce__(self) -> tuple:
        # Rebuilt through the constructor, which returns the one object of its device and memory kind; pickling
        # fails as JAX's does, on the Device (copying does not pickle it).
        return DeviceSharding, (self._device, self.memory_kind)

    def __copy__(self) -> DeviceSharding:
        return self

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind={self.memory_kind})"


def _other_memory_sharding(cls: type, device: Device, memory_kind: str) -> DeviceSharding:
    """The one sharding of ``device`` in its memory of ``memory_kind`` other than the default (jaxlib's error for a
    kind the device has not)."""
    sharding = _memory_shardings.get((device, memory_kind))
    if sharding is None:
        sharding = xc.SingleDeviceSharding.__new__(cls)
        xc.SingleDeviceSharding.__init__(sharding, device, memory_kind=memory_kind)
        sharding.memory_kind = memory_kind
        sharding = _memory_shardings.setdefault((device, memory_kind), sharding)
    return sharding


def sharding_for(device: Device, memory_kind: str | None = None) -> DeviceSharding:
    """The sharding of ``device`` (in its memory of ``memory_kind``, its default memory when None)."""
    if memory_kind is None:
        return _device_shardings.get(device) or DeviceSharding(device)
    return DeviceSharding(device, memory_kind)


def buffer_sharding(buffer: DeviceBuffer) -> DeviceSharding:
    """The sharding of a single-device array: its device, and the memory its buffer lives in."""
    sharding = buffer._sharding
    if type(sharding) is DeviceSharding:
        return sharding
    return DeviceSharding(sharding._device, sharding._memory_kind)  # a shard jaxlib made: jaxle's own object


# ---------------------------------------------------------------- clients


def make_cpu_client(num_devices: int, distributed: dict[str, Any] | None = None, *, asynchronous: bool = True,
                    local_topology_minutes: int = 2, global_topology_minutes: int = 5) -> Any:
    """A CPU client with ``num_devices`` devices (jaxlib's default when negative). ``distributed`` holds the
    multi-process options (``distributed_client``, ``node_id``, ``num_nodes``, ``collectives``); a process of a
    distributed run waits that many minutes for its own and for every process's topology. ``asynchronous``:
    computations return before they finish."""
    options = dict(distributed or {})
    if num_devices > 0:
        options["num_devices"] = num_devices
    return xc.make_cpu_client(asynchronous=asynchronous, get_local_topology_timeout_minutes=local_topology_minutes,
                              get_global_topology_timeout_minutes=global_topology_minutes, **options)


# ---------------------------------------------------------------- distributed runtime

DistributedRuntimeService = _jax.DistributedRuntimeService
DistributedRuntimeClient = _jax.DistributedRuntimeClient


def start_distributed_service(bind_address: str, num_processes: int, heartbeat_timeout: int,
                              shutdown_timeout: int) -> DistributedRuntimeService:
    """The coordination service every process of a run connects to (process 0 starts it); timeouts in seconds."""
    return _jax.get_distributed_runtime_service(bind_address, num_processes, heartbeat_timeout=heartbeat_timeout,
                                                shutdown_timeout=shutdown_timeout)


def _connection_failed(status: Any) -> None:
    """Never completes: jaxlib cannot hand the status to Python, so calling this raises inside jaxlib."""


def connect_distributed_client(address: str, process_id: int, init_timeout: int, heartbeat_timeout: int,
                               shutdown_timeout: int) -> DistributedRuntimeClient:
    """A client of the service at ``address``, connected: returns once every process has connected.

    Without an error callback jaxlib aborts the process when the other processes do not all connect within
    ``init_timeout`` seconds; with one (which jaxlib fails to call from C++) ``connect`` raises a RuntimeError
    instead, which the caller turns into a readable error. Failures after connecting (a peer that dies, missed
    heartbeats) still end the process inside jaxlib."""
    client = _jax.get_distributed_runtime_client(address, process_id, init_timeout=init_timeout,
                                                 heartbeat_timeout=heartbeat_timeout,
                                                 shutdown_timeout=shutdown_timeout,
                                                 missed_heartbeat_callback=_connection_failed, use_compression=True)
    client.connect()
    return client


def start_preemption_sync_manager(client: DistributedRuntimeClient) -> Any:
    """jaxlib's agreement on a step at which every process stops once one is told to (SIGTERM): its
    ``reached_sync_point(step)`` is True at that step, in every process."""
    manager = _jax.create_preemption_sync_manager()
    manager.initialize(client)
    return manager


def cpu_collectives(client: DistributedRuntimeClient, hostname: str | None = None) -> Any:
    """CPU collectives between processes over gloo's TCP transport, rendezvousing through ``client``'s store."""
    return _jax.make_gloo_tcp_collectives(distributed_client=client, hostname=hostname)


def mpi_collectives() -> Any:
    """CPU collectives between processes over MPI (the processes are those of ``mpirun``), finalized at exit."""
    collectives = _jax.make_mpi_collectives()
    collectives.Init()
    atexit.register(collectives.Finalize)
    return collectives


def compile_replicated(client: Any, module_text: str, devices: Sequence[Device]) -> LoadedExecutable:
    """Compile a module whose program runs once per device of ``devices`` (one replica each, in order), which may
    span processes; its collectives name replicas by their position in ``devices``."""
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_replicas = len(devices)
    build.num_partitions = 1
    build.device_assignment = xc.DeviceAssignment.create(np.array([[d.id] for d in devices]))
    return client.compile_and_load(module_text, xc.DeviceList(tuple(devices)), options)


def run_replicated(executable: LoadedExecutable, devices: Sequence[Device], rows: Sequence[np.ndarray],
                   out_shape: tuple[int, ...]) -> np.ndarray:
    """Run a replicated program of one argument and one result, both arrays of bytes (uint8): ``rows`` are this
    process's per-device arguments (shape ``(1, n)``), in the order of its devices in ``devices``; every replica's
    result is the same, ``out_shape``, returned as a host array. Every process must run it with its rows."""
    local = [d for d in devices if d.process_index == d.client.process_index()]
    everywhere = tuple(devices)
    one_row_each = xc.GSPMDSharding(everywhere, xc.HloSharding.iota_tile([len(devices), 1]))
    argument = xc.batched_device_put(_ByteAval((len(devices), rows[0].shape[1])), one_row_each, list(rows), local,
                                     True)
    replicated = xc.GSPMDSharding(everywhere, xc.HloSharding.replicate())
    handler = xc.array_result_handler(_ByteAval(out_shape), replicated, True, _skip_checks=True)
    (result,) = executable.execute_sharded([argument]).consume_with_handlers([handler])
    return to_host(shard_buffers(result)[0], out_shape, np.dtype(np.uint8))


class _ByteAval:
    """The shape and type jaxlib reads from an aval, for arrays of bytes."""

    dtype = np.dtype(np.uint8)
    weak_type = False

    def __init__(self, shape: tuple[int, ...]):
        self.shape = shape
        self.ndim = len(shape)


class _RefuseJax(importlib.abc.MetaPathFinder):
    """Fails imports of ``jax`` modules, which jaxlib's C++ tries when it makes single-device views of a
    multi-device array: where jax is installed it would otherwise be imported (jaxle never loads it)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        if fullname == "jax" or fullname.startswith("jax."):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


@contextlib.contextmanager
def _without_jax_imports():
    finder = _RefuseJax()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


# The PJRT plugin packages NVIDIA GPUs need (installed by `pip install jax-cuda12-plugin[with-cuda]`);
# each ships its shared library inside the package directory.
GPU_PLUGIN_PACKAGES = {"cuda": ("jax_cuda13_plugin", "jax_cuda12_plugin"), "rocm": ("jax_rocm7_plugin",
                                                                                     "jax_rocm60_plugin")}


def find_plugin_library(platform: str) -> str | None:
    """The path of an installed PJRT plugin's shared library for ``platform``, or None."""
    for package in GPU_PLUGIN_PACKAGES.get(platform, ()):
        try:
            files = importlib.metadata.files(package.replace("_", "-")) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        for f in files:
            if f.name.startswith("xla_") and f.name.endswith(".so"):
                return str(f.locate())
    return None


def make_plugin_client(platform: str, library: str, options: dict[str, Any]) -> Any:
    """A client for a PJRT plugin (a GPU, for example) loaded from ``library``, created with ``options`` (over
    jaxlib's own GPU options)."""
    if not xc.pjrt_plugin_loaded(platform):
        xc.load_pjrt_plugin_dynamically(platform, library)
    if not xc.pjrt_plugin_initialized(platform):
        xc.initialize_pjrt_plugin(platform)
    defaults = xc.generate_pjrt_gpu_plugin_options() if platform in ("cuda", "rocm") else {}
    return xc.make_c_api_client(platform, {**defaults, **options}, None)


# ---------------------------------------------------------------- LAPACK


@functools.cache
def register_lapack_targets() -> None:
    """Make jaxlib's LAPACK custom-call targets (``lapack_spotrf_ffi`` and the rest, typed FFI) callable on CPU.

    jaxlib's LAPACK module takes its routines from SciPy's LAPACK and BLAS, which it must be pointed at first
    (without that a call crashes); registering after a client exists is fine. Done once, on first use, because
    loading SciPy's LAPACK takes a fraction of a second.

    Each target is also declared batch-partitionable, as JAX declares them: XLA's partitioner then splits a call
    along the batch dimensions its ``num_batch_dims`` frontend attribute counts, each device factoring its own
    matrices, where it would otherwise gather the whole batch onto every device."""
    from jaxlib.cpu import _lapack

    _lapack.initialize()
    for name, target in _lapack.registrations().items():
        _jax.register_custom_call_target(name, target, "Host", 1, 0)  # api version 1: the typed FFI
        register_custom_call_as_batch_partitionable(name)


def register_custom_call_target(name: str, target: Any, platform: str, api_version: int, **options: Any) -> None:
    """Register a user's custom-call target (a PyCapsule, or a dict of them for a typed-FFI handler's stages)."""
    xc.register_custom_call_target(name, target, platform, api_version, **options)


def register_custom_type(name: str, type_id: Any, platform: str) -> None:
    """Register a user type for typed-FFI handlers (``type_id`` a PyCapsule holding its id, or a dict)."""
    xc.register_custom_type(name, type_id, platform)


def register_custom_call_as_batch_partitionable(name: str) -> None:
    xc.register_custom_call_as_batch_partitionable(name)


def include_dir() -> str:
    """The directory of the C++ headers jaxlib ships for writing FFI kernels (``xla/ffi/api/ffi.h``)."""
    import jaxlib

    return os.path.join(os.path.dirname(jaxlib.__file__), "include")


# ---------------------------------------------------------------- buffers


def device_put(value: np.ndarray, aval: Any, device: Device, committed: bool = True,
               memory_kind: str | None = None) -> DeviceBuffer:
    """Copy a host array to ``device`` (into its memory of ``memory_kind``, the default one when None); ``aval``
    has shape, dtype and weak_type."""
    with _unnarrowed():
        return xc.batched_device_put(aval, sharding_for(device, memory_kind), [value], [device], committed)


def copy_to_device(buffer: DeviceBuffer, aval: Any, device: Device, committed: bool = True,
                   memory_kind: str | None = None) -> DeviceBuffer:
    """``buffer`` moved to another device of the same client, or to another memory of a device."""
    with _unnarrowed():
        return xc.batched_device_put(aval, sharding_for(device, memory_kind), [buffer], [device], committed)


def copy_buffer(buffer: DeviceBuffer, device: Device) -> DeviceBuffer:
    """A new buffer on ``device`` holding a copy of ``buffer`` (never an alias of it)."""
    return xc.batched_copy_array_to_devices_with_sharding(
        [buffer], [xc.DeviceList((device,))], [sharding_for(device)], [xc.ArrayCopySemantics.ALWAYS_COPY])[0]


def buffer_device(buffer: DeviceBuffer) -> Device:
    return buffer._sharding._device


def rewrap(buffer: DeviceBuffer, aval: Any, committed: bool) -> DeviceBuffer:
    """A second handle on ``buffer`` (a single-device array; deleting either deletes both) typed ``aval``. Also
    gives a shard of a multi-device array (which has no aval of its own) its aval and jaxle's sharding."""
    return xc.ArrayImpl(aval, buffer_sharding(buffer), [buffer], committed, True)


# jaxlib's own methods of its array type, kept before jaxle_xla.array installs the jax.Array interface over them.
wait = xc.ArrayImpl.block_until_ready
wait_all = xc.batched_block_until_ready
is_ready = xc.ArrayImpl.is_ready
delete = xc.ArrayImpl.delete
is_deleted = xc.ArrayImpl.is_deleted
size_in_bytes = xc.ArrayImpl.on_device_size_in_bytes


def adopt_array_base(base: type) -> type:
    """jaxlib's array type, with ``base`` (a class of no instance layout) made one of its base classes, so that
    its instances are ``base`` instances and inherit what ``base`` defines and does not."""
    if base not in xc.ArrayImpl.__mro__:
        xc.ArrayImpl.__bases__ = (*xc.ArrayImpl.__bases__, base)
    return xc.ArrayImpl


# Element types XLA may pack several to a byte; read through jaxlib, never from raw memory.
_PACKED = {np.dtype(t) for t in (ml_dtypes.int2, ml_dtypes.uint2, ml_dtypes.int4, ml_dtypes.uint4,
                                  ml_dtypes.float4_e2m1fn)}


# Whether some buffer may be in a layout other than row-major (jax.experimental.layout): set by the first
# program asked for one, so that reads of every other program's buffers skip the check.
custom_layouts_in_use = False
# ``conform(executable, buffers)``: the buffers in the layouts the executable reads (installed with the first layout
# asked for): an executable reads its parameters' bytes as laid out as it was compiled for.
_conform_layouts: Callable[[LoadedExecutable, Sequence[DeviceBuffer]], Sequence[DeviceBuffer]] | None = None


# ``relayout(value, mode, sharding)``: an array copied into the layout XLA writes ``mode``, or a host value put on
# the device of ``sharding`` (one device's) in it (installed with ``conform``)
_relayout: Callable[[Any, str, Any], DeviceBuffer] | None = None


def uses_custom_layouts(conform: Callable[[LoadedExecutable, Sequence[DeviceBuffer]], Sequence[DeviceBuffer]],
                        relayout: Callable[[Any, str, Any], DeviceBuffer]) -> None:
    """Note that buffers in layouts other than row-major may exist from now on: ``execute`` passes its buffers
    through ``conform`` first, and C++ dispatch compares its arguments' layouts with the layouts its programs
    read (``expected_layouts``), copying one that differs (and putting a host value) with ``relayout``."""
    global custom_layouts_in_use, _conform_layouts, _relayout
    if not custom_layouts_in_use:  # the C++ dispatch entries made so far compare no layouts: forget them
        clear_dispatch_caches()
    custom_layouts_in_use, _conform_layouts, _relayout = True, conform, relayout


class ExpectedLayout:
    """The layout a program reads one parameter in, as jaxlib's C++ dispatch compares an argument's with
    (``_to_xla_layout``); ``mode`` is its ``mhlo.layout_mode`` text, which an argument is copied into."""

    __slots__ = ("_xla", "mode")

    def __init__(self, layout: Any):
        self._xla = layout._xla_layout()
        self.mode = str(layout)

    def _to_xla_layout(self, dtype: Any) -> Any:
        return self._xla




def _row_major(buffer: DeviceBuffer, ndim: int) -> bool:
    xla_layout = buffer._pjrt_layout._xla_layout()
    return not xla_layout.tiling() and list(xla_layout.minor_to_major()) == list(range(ndim))[::-1]


def to_host(buffer: DeviceBuffer, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """The buffer's contents as a read-only NumPy array.

    jaxlib's own host read (``_single_device_array_to_np_array_did_copy``) looks up
    ``jax.core.ShapedArray`` on the first read of every buffer: an import that fails
    quietly without jax but costs ~200 us, and would load jax where it is installed.
    CPU buffers live in host memory, in row-major order unless a layout was asked for,
    so those are copied straight from their address once ready (for buffers made by a host transfer, jaxlib still
    looks jax up once, when the address is first asked for); other platforms go
    through jaxlib.
    """
    if buffer.platform() != "cpu" or dtype in _PACKED or (custom_layouts_in_use and not _row_major(buffer, len(shape))):
        return buffer._single_device_array_to_np_array_did_copy()[0]
    wait(buffer)
    size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if size == 0:
        value = np.zeros(shape, dtype)
    else:
        memory = (ctypes.c_char * size).from_address(buffer.unsafe_buffer_pointer())
        value = np.frombuffer(memory, dtype=dtype).reshape(shape).copy()
    value.flags.writeable = False
    return value


def copy_to_host_async(buffer: DeviceBuffer) -> None:
    """Start copying a device buffer to the host (CPU buffers are there already)."""
    if buffer.platform() != "cpu":
        buffer._copy_single_device_array_to_host_async()


def dlpack_capsule(buffer: DeviceBuffer, stream: Any = None) -> Any:
    """A DLPack capsule viewing ``buffer``'s memory.

    It is taken from a second handle on the buffer: deleting the array while
    the capsule's consumer still holds it then aborts nothing (exporting the
    array's own handle does).
    """
    return _jax.buffer_to_dlpack_managed_tensor(buffer._fully_replicated_shard(), stream=stream)


# ---------------------------------------------------------------- arrays over several devices
# Laid out by the exact xc.GSPMDSharding: jaxlib's C++ calls no Python for it (a Python subclass would be called
# back). Shard positions index the sharding's device list, never device ids.


@functools.lru_cache(maxsize=1024)
def hlo_sharding(text: str) -> Any:
    return xc.HloSharding.from_string(text)


def gspmd_sharding(devices: Sequence[Device], hlo: Any, memory_kind: str | None = None) -> Any:
    return xc.GSPMDSharding(tuple(devices), hlo, memory_kind=memory_kind)


def same_gspmd_layout(first: Any, second: Any) -> bool:
    """Whether two jaxlib shardings over several devices lay arrays out alike (jaxlib compares them by identity)."""
    return first is second or (type(first) is type(second) is xc.GSPMDSharding and first._devices == second._devices
                               and first._hlo_sharding == second._hlo_sharding
                               and first._memory_kind == second._memory_kind)


def layout_key(sharding: Any) -> tuple:
    """What jaxlib's C++ dispatch tells a jaxlib sharding over several devices by: its devices, tiles and memory."""
    return sharding._devices, sharding._hlo_sharding, sharding._memory_kind


def clear_dispatch_caches() -> None:
    """Forget every entry of jaxlib's C++ dispatch (each function makes them again on its next calls)."""
    _jax.PjitFunctionCache.clear_all()


def put_shards(aval: Any, sharding: Any, shards: Sequence[Any], devices: Sequence[Device]) -> DeviceBuffer:
    """One array over ``devices`` made of ``shards`` (host arrays, or buffers on those devices), one each in order.
    The caller has checked their shapes: a wrong one crashes the process when a program reads it."""
    with _unnarrowed():
        return xc.batched_device_put(aval, sharding, list(shards), list(devices), True)


def sharded_view(buffer: DeviceBuffer, aval: Any) -> DeviceBuffer:
    """Another handle on a multi-device array's shards, typed ``aval``."""
    return xc.ArrayImpl(aval, buffer._sharding, shard_buffers(buffer), True, True)


def shard_buffers(buffer: DeviceBuffer) -> list[DeviceBuffer]:
    """The single-device buffers of an array, in the order of its sharding's device list."""
    with _without_jax_imports():  # jaxlib looks jax's sharding module up for each buffer it makes
        return buffer._arrays


def compile_spmd(client: Any, module_text: str, devices: Sequence[Device],
                 host_callbacks: Sequence[Any] = (), open_parameters: Sequence[bool] = ()) -> LoadedExecutable:
    """Compile a Shardy-annotated StableHLO module partitioned over ``devices`` (one partition each), letting
    the partitioner choose the layouts of results the module leaves open, and of the parameters
    ``open_parameters`` says (one flag each); ``host_callbacks`` as for ``compile``."""
    options = xc.CompileOptions()
    build = options.executable_build_options
    build.num_replicas = 1
    build.num_partitions = len(devices)
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    build.allow_spmd_sharding_propagation_to_output = [True]
    if any(open_parameters):
        build.allow_spmd_sharding_propagation_to_parameters = list(open_parameters)
    build.device_assignment = xc.DeviceAssignment.create(np.array([[d.id for d in devices]]))
    return _compile_with(client, module_text, xc.DeviceList(tuple(devices)), options, host_callbacks)


def inspect_sharding_key(callback: Any) -> bytes:
    """The backend config of an ``InspectSharding`` custom call: XLA's partitioner calls ``callback`` (kept alive
    by the caller until compiled) with the HloSharding it chose for the call's operand."""
    return _jax.encode_inspect_sharding_callback(callback)


def output_memory_kinds(executable: LoadedExecutable) -> list[str]:
    """The memory kind each output of a compiled program lives in."""
    return list(executable.get_output_memory_kinds()[0])


def output_hlo_shardings(executable: LoadedExecutable, count: int) -> list[Any]:
    """The HLO sharding of each of the ``count`` outputs XLA's partitioner settled on (a program over one device
    reports none: its outputs are whole, replicated)."""
    shardings = executable.get_output_shardings()
    if shardings is None:
        return [xc.HloSharding.replicate()] * count
    return [xc.HloSharding.from_proto(p) for p in shardings]


def parameter_hlo_shardings(executable: LoadedExecutable, count: int) -> list[Any]:
    """The HLO sharding of each of the ``count`` parameters of a partitioned program, as XLA's partitioner settled
    them (a program over one device reports none: its parameters are whole)."""
    shardings = executable.get_parameter_shardings()
    if shardings is None:
        return [xc.HloSharding.replicate()] * count
    return [xc.HloSharding.from_proto(p) for p in shardings]


def sharded_result_handler(aval: Any, sharding: Any) -> Any:
    return xc.array_result_handler(aval, sharding, committed=True, _skip_checks=True)


# ---------------------------------------------------------------- executables


def compile(client: Any, module_text: str, device: Device, host_callbacks: Sequence[Any] = (),
            propagating_to: tuple[int, int] | None = None) -> LoadedExecutable:
    """Compile a StableHLO module (text) to run on ``device``.

    ``host_callbacks`` are the Python functions the module's ``xla_ffi_python_*_callback`` custom calls name by
    index; jaxlib takes them only beside a parsed MLIR module, not beside text. With ``propagating_to`` (how many
    parameters and outputs the module has), with the options JAX compiles a jitted program with: shardings may
    propagate to each parameter and each output (the compiled module's header says so).
    """
    if "?x" in module_text:  # dynamic shapes, from a call of a function exported with symbolic ones
        module_text = refine_shapes(module_text)
    options = xc.CompileOptions()
    # Without an explicit assignment XLA runs the program on the client's first device.
    options.executable_build_options.device_assignment = xc.DeviceAssignment.create(np.array([[device.id]]))
    if propagating_to is not None:
        parameters, outputs = propagating_to
        options.executable_build_options.allow_spmd_sharding_propagation_to_parameters = [True] * parameters
        options.executable_build_options.allow_spmd_sharding_propagation_to_output = [True] * outputs
    return _compile_with(client, module_text, xc.DeviceList((device,)), options, host_callbacks)


# XLA's options overridden, by name, for the programs compiled now (``compiler_options``), in this thread
_option_overrides = threading.local()


@contextlib.contextmanager
def compiler_options(overrides: dict[str, Any]) -> Iterator[None]:
    """Programs compiled inside (by ``compile`` and ``compile_spmd``) with XLA's options ``overrides`` (by name,
    as jit's ``compiler_options`` give them; a name XLA does not know fails their compilation)."""
    previous = getattr(_option_overrides, "value", None)
    _option_overrides.value = overrides
    try:
        yield
    finally:
        _option_overrides.value = previous


# XLA's effort levels, by the names of jax_optimization_level and jax_memory_fitting_level.
_EFFORT_LEVELS = {"UNKNOWN": 0, "O0": 9, "O1": 19, "O2": 29, "O3": 39}
# Options that jit's compiler_options set on the build options rather than as overrides.
_BUILD_OPTION_NAMES = ("exec_time_optimization_effort", "memory_fitting_effort", "optimization_level",
                       "memory_fitting_level")


def _apply_compile_flags(options: Any, overrides: dict[str, Any] | None) -> None:
    """The compile options JAX's config sets (efforts, levels, optimizations, XLA profile version), then jit's
    ``compiler_options`` ``overrides`` on top."""
    build = options.executable_build_options
    build.exec_time_optimization_effort = config.jax_exec_time_optimization_effort
    build.memory_fitting_effort = config.jax_memory_fitting_effort
    build.optimization_level = _EFFORT_LEVELS[config.jax_optimization_level]
    build.memory_fitting_level = _EFFORT_LEVELS[config.jax_memory_fitting_level]
    debug = build.debug_options
    if config.read("jax_disable_most_optimizations"):
        debug.xla_backend_optimization_level = 0
        debug.xla_llvm_disable_expensive_passes = True
        debug.xla_test_all_input_layouts = False
    if not config.jax_compiler_enable_remat_pass:
        debug.xla_disable_hlo_passes = "rematerialization"
    if config.jax_xla_profile_version > 0:
        options.profile_version = config.jax_xla_profile_version
    remaining = dict(overrides or {})
    for name in _BUILD_OPTION_NAMES:
        if name in remaining:
            setattr(build, name, remaining.pop(name))
    if remaining:
        options.env_option_overrides = list(remaining.items())


def _compile_with(client: Any, module_text: str, devices: Any, options: Any,
                  host_callbacks: Sequence[Any]) -> LoadedExecutable:
    _apply_compile_flags(options, getattr(_option_overrides, "value", None))
    ir_dumps.dump_compiled(module_text)
    if not host_callbacks:  # a program calling back into this process's Python functions is never cached
        return _compile_cached(client, module_text, devices, options)
    from jaxlib.mlir import ir  # on first use, as for pretty printing below

    with _mlir_context():
        module = ir.Module.parse(module_text)
        return client.compile_and_load(module, devices, options, list(host_callbacks))


def _compile_cached(client: Any, module_text: str, devices: Any, options: Any) -> LoadedExecutable:
    """Compile through the persistent compilation cache (a plain compilation when no cache directory is set)."""
    from jaxle_xla import compilation_cache  # not a cycle: the cache needs only jaxle_core

    def compile_verified() -> LoadedExecutable:
        try:
            return client.compile_and_load(module_text, devices, options)
        except XlaRuntimeError as error:
            refused = verifier_error(str(error))
            if refused is None:
                raise
            raise refused from None

    return compilation_cache.compile_or_load(client, module_text, devices, options, compile_verified)


_DIAGNOSTIC = re.compile(r"^(?:UNKNOWN: )?-:\d+:\d+: (?:error|note): (.*)$")


def verifier_error(message: str) -> ValueError | None:
    """JAX's ValueError for a module MLIR's verifier refuses (``message``: jaxlib's, each diagnostic of the text
    on a line of its own), as JAX meets it when it lowers the program; None for another error. The operations are
    located nowhere (a program compiled is lowered without locations: see ``executable.located_refusal``)."""
    lines = message.splitlines()
    if not lines or _DIAGNOSTIC.match(lines[0]) is None:
        return None
    diagnostics = []
    for line in lines:
        match = _DIAGNOSTIC.match(line)
        if match is not None:
            diagnostics.append(f"\t{match.group(1)}\n\t\tat loc(unknown)")
        elif diagnostics and not line.startswith("<unknown>:"):
            diagnostics[-1] = diagnostics[-1].replace("\n\t\tat loc(unknown)", f"\n{line}\n\t\tat loc(unknown)")
    return _refusal(diagnostics)


VERIFIER_REFUSAL = "Cannot lower jaxpr with verifier errors:"


def _refusal(diagnostics: Sequence[str]) -> ValueError:
    return ValueError(f"{VERIFIER_REFUSAL}\n" + "\n".join(diagnostics) + "\nDefine JAX_DUMP_IR_TO to dump the module.")


def _parse_refusal(error: Any) -> ValueError:
    """JAX's ValueError for a module MLIR's parser refuses (``error``: its ``MLIRError``), each diagnostic and note
    followed by its location (unknown where the text gives none)."""
    def lines(diagnostic: Any) -> list[str]:
        location = str(diagnostic.location)
        location = "loc(unknown)" if location.startswith(_PARSER_POSITION) else location
        return [f"\t{diagnostic.message}\n\t\tat {location}"] + [
            line for note in diagnostic.notes for line in lines(note)]

    return _refusal([line for diagnostic in error.error_diagnostics for line in lines(diagnostic)])


def result_handler(aval: Any, device: Device, committed: bool, memory_kind: str | None = None) -> Any:
    return xc.array_result_handler(aval, sharding_for(device, memory_kind), committed=committed, _skip_checks=True)


def execute(executable: LoadedExecutable, buffers: Sequence[DeviceBuffer], handlers: Sequence[Any],
            wait: bool = False, keep_errors: bool = False) -> list:
    """Run ``executable`` on device buffers; the outputs come back as device buffers. With ``wait``, return once
    the execution has finished, side effects (host callbacks) included, raising the error of a failed one (with
    ``keep_errors``, returning its outputs, which raise it when read)."""
    if _conform_layouts is not None:
        buffers = _conform_layouts(executable, buffers)
    if wait:
        results = executable.execute_sharded(buffers, with_tokens=True)
        try:
            results.consume_token().block_until_ready()
        except XlaRuntimeError:
            if not keep_errors:
                raise
        outputs = results.consume_with_handlers(handlers)
    else:
        outputs = executable.execute_sharded(buffers).consume_with_handlers(handlers)
    # jaxlib drops its references to an execution's Python objects on its worker threads, where it cannot take
    # the GIL, and queues them; a loop of executions that allocates nothing else never triggers Python's
    # collector, so the queue is emptied here (about 60 ns when there is nothing to free).
    _jax.collect_garbage()
    return outputs


def _collect_dead_buffers(phase: str, info: dict) -> None:
    if phase == "start":
        _jax.collect_garbage()


# Python's collector frees cycles that hold device buffers; jaxlib releases them when its queue is emptied.
gc.callbacks.append(_collect_dead_buffers)


def hlo_text(executable: LoadedExecutable) -> str:
    """The optimised HLO of a compiled executable."""
    return executable.hlo_modules()[0].to_string()


def memory_stats(executable: LoadedExecutable) -> Any:
    return executable.get_compiled_memory_stats()


def cost_analysis(executable: LoadedExecutable) -> dict:
    return executable.cost_analysis()


# ---------------------------------------------------------------- MLIR (pretty printing only)
# Not a cycle: the MLIR bindings are imported on first use, since only `.as_text()` needs them and they would
# add several milliseconds to every `import jaxle_xla`.


@functools.cache
def _mlir_context():
    from jaxlib.mlir import ir
    from jaxlib.mlir._mlir_libs import _chlo, _jax_mlir_ext, _sdy, _stablehlo

    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    context = ir.Context()
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    _stablehlo.register_dialect(context)
    _chlo.register_dialect(context)
    _sdy.register_dialect(context)  # Shardy's meshes and shardings, in partitioned programs
    return context


def refuse_tensor_type(shape: tuple[int, ...]) -> None:
    """Raise the ``MLIRError`` MLIR gives for a tensor type of ``shape`` (sizes below zero), as JAX meets it when it
    lowers a program staged with such a shape."""
    from jaxlib.mlir import ir  # on first use, as above

    with _mlir_context(), ir.Location.unknown():
        ir.RankedTensorType.get(list(shape), ir.F32Type.get())
    raise AssertionError(f"MLIR accepted a tensor type of shape {shape}")


# how MLIR writes the location of an operation that a module's text gives none (its position in the text)
_PARSER_POSITION = 'loc("-":'


def pretty_module(module_text: str, arg_names: Sequence[str] | None = None, flags: dict[str, bool] | None = None,
                  generic: bool = False) -> str:
    """A StableHLO module re-printed by MLIR in its readable (custom) form; with ``arg_names`` (one per argument of
    ``main``, empty for none) its locations are printed too, ``main``'s arguments located by those names, and the
    module's boolean attributes ``flags`` set. With ``generic``, in MLIR's generic form, which keeps the locations
    the readable one leaves out (a reducer's arguments'), for XLA to read."""
    from jaxlib.mlir import ir  # on first use, as above

    with _mlir_context():
        try:
            module = ir.Module.parse(module_text)
        except ir.MLIRError as error:  # MLIR's verifier refuses it: JAX's error, as JAX's lowering meets it
            raise _parse_refusal(error) from None
        if arg_names is None:
            return str(module)
        unknown = ir.Location.unknown()
        _forget_locations(module.operation, unknown)  # the parser's positions in the text, which mean nothing here
        main = next(op for op in module.body.operations
                    if "sym_name" in op.attributes and ir.StringAttr(op.attributes["sym_name"]).value == "main")
        for argument, name in zip(main.regions[0].blocks[0].arguments, arg_names):
            argument.set_location(ir.Location.name(name) if name else unknown)
        for name, value in (flags or {}).items():
            module.operation.attributes[name] = ir.BoolAttr.get(value)
        return module.operation.get_asm(enable_debug_info=True, print_generic_op_form=generic)


def _forget_locations(operation: Any, unknown: Any) -> None:
    """Every operation nested in ``operation`` (itself included), and every block argument, that the text did not
    locate (the parser's position in the text, which means nothing here) located nowhere."""
    if str(operation.location).startswith(_PARSER_POSITION):
        operation.location = unknown
    for region in operation.regions:
        for block in region.blocks:
            for argument in block.arguments:
                if str(argument.location).startswith(_PARSER_POSITION):
                    argument.set_location(unknown)
            for inner in block.operations:
                _forget_locations(inner.operation, unknown)


def hlo_module_text(module_text: str, metadata: bool = False) -> str:
    """XLA's HLO text of a StableHLO module, as ``as_hlo_text()`` prints it; with ``metadata`` each instruction's
    metadata (the location names of the module) too."""
    from jaxlib import _hlo

    options = _hlo.HloPrintOptions.short_parsable()
    options.print_metadata = metadata
    return hlo_computation(module_text).get_hlo_module().to_string(options)


def module_cost_analysis(client: Any, module_text: str) -> dict:
    """XLA's cost estimates of a StableHLO module before it is optimised (as JAX's ``Lowered.cost_analysis``)."""
    return _jax.hlo_module_cost_analysis(client, hlo_computation(module_text).get_hlo_module())


def compiler_ir(module_text: str, dialect: str | None) -> Any:
    """A StableHLO module as an MLIR module (``dialect`` None or 'stablehlo') or as XLA's HLO computation
    ('hlo': ``as_hlo_text()`` prints it)."""
    if dialect in (None, "stablehlo"):
        from jaxlib.mlir import ir

        with _mlir_context():
            return ir.Module.parse(module_text)
    if dialect == "hlo":
        return hlo_computation(module_text)
    raise ValueError(f"unknown dialect: {dialect}")


def operation_count(module: Any) -> int:
    """How many operations an MLIR ``module`` holds, nested ones included (the module itself not)."""
    from jaxlib.mlir import ir

    count = 0

    def visit(operation: Any) -> Any:
        nonlocal count
        count += 1
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return count - 1


def hlo_computation(module_text: str, tuple_args: bool = False, return_tuple: bool = False) -> Any:
    """A StableHLO module converted by jaxlib to XLA's HLO computation (``as_hlo_text()`` prints it); with
    ``tuple_args`` its parameters are one tuple, with ``return_tuple`` its results are one tuple."""
    return _jax.mlir.mlir_module_to_xla_computation(module_text, use_tuple_args=tuple_args,
                                                    return_tuple=return_tuple)


def refine_shapes(module_text: str) -> str:
    """A module whose ``main`` has static argument types with every dynamic shape inside made static (jaxlib's
    shape refinement of modules calling functions exported with symbolic shapes)."""
    from jaxlib.mlir import ir

    try:
        refined = _jax.mlir.refine_polymorphic_shapes(module_text.encode(), enable_shape_assertions=True,
                                                      validate_static_shapes=True)
    except _jax.JaxRuntimeError as e:  # main itself takes dynamic shapes (a program lowered for symbolic ones)
        raise ValueError("Error refining shapes. Define JAX_DUMP_IR_TO to dump the module.") from e
    with _mlir_context():
        return str(ir.Module.parse(refined))


def serialize_portable(module_text: str) -> bytes:
    """A StableHLO module as a portable artifact (versioned VHLO bytecode, readable by later StableHLO releases).

    Serialized mixed, as JAX serializes for clients that partition with Shardy: Shardy's attributes (a LAPACK
    call's sharding rule) have no VHLO form and travel beside it."""
    from jaxlib.mlir._mlir_libs import _stablehlo

    return _jax.mlir.serialize_portable_artifact(module_text, _stablehlo.get_current_version(), True)


def deserialize_portable(artifact: bytes) -> Any:
    """The MLIR module (an object of jaxlib's MLIR bindings) of a portable artifact."""
    from jaxlib.mlir._mlir_libs import _stablehlo

    return _stablehlo.deserialize_portable_artifact(_mlir_context(), artifact)


def embeddable_functions(module: Any, rename: Any) -> tuple[list[str], str]:
    """The texts of ``module``'s functions, each renamed by ``rename(name) -> new name`` (references included) and
    made private, to be written into another module; returns them and the new name of ``main``."""
    from jaxlib.mlir import ir

    with _mlir_context():
        module = ir.Module.parse(str(module))  # a copy, renamed in place
        functions = list(module.body.operations)
        names = {}
        for function in functions:
            old = ir.StringAttr(function.attributes["sym_name"]).value
            names[old] = rename(old)
        for old, new in names.items():
            ir.SymbolTable.replace_all_symbol_uses(old, new, module.operation)
        for function in functions:
            ir.SymbolTable.set_symbol_name(function, names[ir.StringAttr(function.attributes["sym_name"]).value])
            function.attributes["sym_visibility"] = ir.StringAttr.get("private")
        return [str(function) for function in functions], names["main"]


def environment_num_cpu_devices() -> int | None:
    """The CPU device count requested through XLA_FLAGS, as jaxlib's own flag spells it."""
    for flag in os.environ.get("XLA_FLAGS", "").split():
        if flag.startswith("--xla_force_host_platform_device_count="):
            return int(flag.split("=", 1)[1])
    return None


# ---------------------------------------------------------------- profiling
# jaxlib's profiler needs nothing from jax: a session collects an XSpace, which it writes under a log directory as
# TensorBoard's profile plugin reads it; TraceMe marks a host-side region; clients dump their heap as pprof.

from jaxlib import _profile_data, _profiler  # noqa: E402

ProfilerSession = _profiler.ProfilerSession
ProfileOptions = _profiler.ProfileOptions
TraceMe = _profiler.TraceMe
ProfileData = _profile_data.ProfileData
ProfileEvent = _profile_data.ProfileEvent
ProfilePlane = _profile_data.ProfilePlane


def export_profile(session: Any, log_dir: str) -> None:
    """Stop ``session`` and write what it collected under ``log_dir/plugins/profile/<time>/``."""
    session.export(session.stop(), log_dir)


def start_profiler_server(port: int) -> Any:
    return _profiler.start_server(port)


def register_profiler_subprocess(pid: int, port: int) -> Any:
    return _profiler.register_subprocess(pid, port)


def heap_profile(client: Any) -> bytes:
    """The client's device memory in use, as a pprof profile (a serialized protocol buffer)."""
    return client.heap_profile()


# ---------------------------------------------------------------- the C++ jit dispatch
# jaxlib's PjitFunction runs a jitted function's cached calls in C++: it flattens the arguments with a pytree
# registry, keys them by tree structure, each leaf's (dtype, shape, weak type), static arguments and the Configs
# marked include_in_jit_key (each read with this thread's override), transfers NumPy and Python scalar leaves itself,
# executes and builds the outputs. Any call it cannot key or has not seen goes to ``cache_miss``, which returns
# (outputs, FastPathData or None, False); while its disable-jit Config is on it calls the function itself. Its
# Configs must exist before the first call.

PjitFunction = _jax.PjitFunction
UNSET = _jax.config.unset
"""A Config's value for "no override in this thread"."""
X64 = _X64
DISABLE_JIT = _jax.config.Config("jaxle_disable_jit", False)
_jax.jax_jit.set_disable_jit_state(DISABLE_JIT)
_jax.jax_jit.set_post_hook_state(_jax.config.Config("jaxle_post_hook", None))

builtin_pytree_registry = _jax.pytree.PyTreeRegistry()
"""A registry of jaxlib's built-in containers (tuples, lists, dicts, None, named tuples), which jaxle's trees treat
alike."""


class FastPathData(collections.namedtuple(
        "FastPathData", ["xla_executable", "out_pytree_def", "in_shardings", "out_shardings", "out_avals",
                         "out_committed", "kept_var_bitvec", "in_device_local_layouts", "const_args"])):
    """What C++ dispatch needs to run later calls of one signature (the fields and order jaxlib reads)."""


def jit_key_config(name: str, value: Any) -> Any:
    """A new jaxlib Config whose value (this thread's) keys every C++ dispatch of jitted calls."""
    return _jax.config.Config(name, value, include_in_jit_key=True)


def mirror(config: Any, global_value: Any, thread_value: Any) -> None:
    """Set ``config``'s global value and this thread's override (``UNSET``: none)."""
    config.set_global(global_value)
    config.set_local(thread_value)


def output_treedef(registry: Any, example: Any, leaves: Sequence[Any]) -> Any:
    """``registry``'s tree structure of ``example``, a tree built over ``leaves``; None unless the registry sees
    exactly those leaves (a node only jaxle's registry knows would be one leaf here)."""
    flat, treedef = registry.flatten(example)
    if len(flat) != len(leaves) or any(a is not b for a, b in zip(flat, leaves)):
        return None
    return treedef


def _fallback(arg: Any, sharding: Any, layout: Any = None, *rest: Any) -> Any:
    """What C++ dispatch calls for an argument it does not pass as it is, once it compares layouts: an array in
    another layout than the program reads is copied into that layout, a host value (NumPy's, a Python scalar) is
    put on ``sharding``'s device in it."""
    if isinstance(layout, ExpectedLayout) and _relayout is not None and (
            type(arg) is DeviceBuffer or isinstance(arg, (np.ndarray, np.generic, bool, int, float, complex))):
        return _relayout(arg, layout.mode, sharding)
    raise TypeError("jaxle's C++ dispatch transfers only arrays and scalars")


def pjit_function(name: str, fun: Any, cache_miss: Any, static_argnums: Sequence[int],
                  static_argnames: Sequence[str], registry: Any) -> PjitFunction:
    """A C++ ``PjitFunction`` for the jitted function ``fun`` (its own cache, released with it), flattening its
    arguments with the pytree ``registry``."""
    return _jax.pjit(name, fun, cache_miss, list(static_argnums), list(static_argnames), 0, registry,
                     _fallback, _jax.PjitFunctionCache(capacity=64))
