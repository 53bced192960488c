"""Multi-process runs: ``jax.distributed``'s ``initialize``, ``shutdown`` and ``is_initialized`` over jaxlib's
distributed runtime.

Process 0 starts the coordination service at the coordinator's address; every process (0 included) connects a
client to it, which returns once all have connected. The CPU client started afterwards is built over that client:
its devices are every process's devices (``devices()`` is global, ``local_devices()`` this process's), and programs
spanning processes exchange data through gloo's collectives over TCP. The client's key-value store and barriers are
``global_state.client``'s methods (``key_value_set``, ``blocking_key_value_get``, ``wait_at_barrier``, ...), as in
JAX. A preemption sync manager lets every process agree on the step at which to stop once one of them receives
SIGTERM (``multihost_utils.reached_preemption_sync_point``). ``shutdown`` runs at interpreter exit, clients before
the service.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Sequence
from typing import Any

from jaxle_core.config import config
from jaxle_xla import _jaxlib

__all__ = ["State", "global_state", "initialize", "is_initialized", "shutdown"]


class State:
    """This process's place in a multi-process run; ``client`` is None outside one."""

    def __init__(self) -> None:
        self.service: _jaxlib.DistributedRuntimeService | None = None
        self.client: _jaxlib.DistributedRuntimeClient | None = None
        self.preemption_sync_manager: Any = None
        self.coordinator_address: str | None = None
        self.process_id = 0
        self.num_processes = 1

    def cpu_client_options(self) -> dict[str, Any]:
        """The options that make a CPU client span every process of the run (none outside a run)."""
        if self.client is None:
            return {}
        options = {"distributed_client": self.client, "node_id": self.process_id, "num_nodes": self.num_processes}
        # jax_cpu_collectives_implementation: gloo (the default), MPI, or None for none.
        implementation = config.jax_cpu_collectives_implementation
        if implementation == "gloo":
            options["collectives"] = _jaxlib.cpu_collectives(self.client)
        elif implementation == "mpi":
            options["collectives"] = _jaxlib.mpi_collectives()
        elif implementation is not None:
            raise RuntimeError(f"jax_cpu_collectives_implementation={implementation!r} has no CPU collectives: "
                               "use 'gloo', 'mpi' or None.")
        return options


global_state = State()


def _port(address: str) -> str:
    return address.rsplit(":", 1)[1]


def _check_arguments(coordinator_address: str | None, num_processes: int | None, process_id: int | None) -> None:
    if coordinator_address is None:
        raise ValueError("coordinator_address should be defined.")
    if num_processes is None:
        raise ValueError("Number of processes must be defined.")
    if process_id is None:
        raise ValueError("The process id of the current process must be defined.")
    if not (0 <= process_id < num_processes):
        raise ValueError("process_id and num_processes must be nonnegative, with process_id < num_processes. Got "
                         f"process_id={process_id}, num_processes={num_processes}.")


def initialize(coordinator_address: str | None = None, num_processes: int | None = None,
               process_id: int | None = None, local_device_ids: int | Sequence[int] | None = None,
               cluster_detection_method: str | None = None, initialization_timeout: int = 300,
               heartbeat_timeout_seconds: int = 100, shutdown_timeout_seconds: int = 300,
               coordinator_bind_address: str | None = None, slice_index: int | None = None,
               partition_index: int | None = None) -> None:
    """Join a multi-process run: call it in every process, before any computation or device query.

    ``coordinator_address`` (``host:port``) is where process 0 serves the run's coordination, reachable from every
    process; ``num_processes`` and ``process_id`` place this process in the run. Process 0 binds
    ``coordinator_bind_address`` (default ``[::]:port``). Returns once every process has connected, or raises a
    RuntimeError when they have not all connected within ``initialization_timeout`` seconds. The cluster
    auto-detection of JAX (Slurm, Cloud TPU, MPI...) is not available: the three arguments are required.
    ``local_device_ids`` selects GPUs in JAX and has no effect on CPU; ``slice_index`` and ``partition_index``
    (TPU slices) are accepted and unused.
    """
    from jaxle_xla import clients  # the clients read this module's state when they start

    if clients._clients:
        raise RuntimeError("jax.distributed.initialize() must be called before any JAX calls that might initialise "
                           "the XLA backend. This includes any computation, but also calls to jax.devices, "
                           "jax.device_put, and others.")
    if global_state.client is not None:
        raise RuntimeError("distributed.initialize should only be called once.")
    if cluster_detection_method is not None and cluster_detection_method != "deactivate":
        raise ValueError(f"Automatic Distributed initialization can not proceed: {cluster_detection_method} is not "
                         "supported.")
    _check_arguments(coordinator_address, num_processes, process_id)
    if process_id == 0:
        bind_address = coordinator_bind_address or f"[::]:{_port(coordinator_address)}"
        global_state.service = _jaxlib.start_distributed_service(
            bind_address, num_processes, heartbeat_timeout_seconds, shutdown_timeout_seconds)
    try:
        global_state.client = _jaxlib.connect_distributed_client(
            coordinator_address, process_id, initialization_timeout, heartbeat_timeout_seconds,
            shutdown_timeout_seconds)
    except RuntimeError as err:
        _stop_service()
        raise RuntimeError(
            f"jax.distributed.initialize: process {process_id} of {num_processes} could not join the run "
            f"coordinated at {coordinator_address}: not every process connected within {initialization_timeout} "
            "seconds (check that each process was started with the same coordinator address and number of "
            "processes, and a distinct process_id)") from err
    global_state.preemption_sync_manager = _jaxlib.start_preemption_sync_manager(global_state.client)
    global_state.coordinator_address = coordinator_address
    global_state.process_id = process_id
    global_state.num_processes = num_processes


def is_initialized() -> bool:
    """Whether this process has joined a multi-process run (``initialize`` was called and not shut down)."""
    return global_state.client is not None


def _stop_service() -> None:
    if global_state.service is not None:
        global_state.service.shutdown()
        global_state.service = None


def shutdown() -> None:
    """Leave the run: this process's client disconnects, then process 0 stops the service (waiting for every
    process's client). Does nothing outside a run; called at exit."""
    if global_state.preemption_sync_manager is not None:
        global_state.preemption_sync_manager.shutdown()
        global_state.preemption_sync_manager = None
    if global_state.client is not None:
        gc.collect()  # arrays and executables in reference cycles go before the client they use
        global_state.client.shutdown()
        global_state.client = None
    _stop_service()
    global_state.coordinator_address = None
    global_state.process_id, global_state.num_processes = 0, 1


atexit.register(shutdown)
