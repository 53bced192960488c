"""``jax.experimental.multihost_utils``: host values exchanged between the processes of a multi-process run."""

from jaxle_xla.multihost import (
    ProcessFailureError,
    assert_equal,
    broadcast_one_to_all,
    global_array_to_host_local_array,
    host_local_array_to_global_array,
    live_devices,
    process_allgather,
    reached_preemption_sync_point,
    sync_global_devices,
)

__all__ = ["ProcessFailureError", "assert_equal", "broadcast_one_to_all", "global_array_to_host_local_array",
           "host_local_array_to_global_array", "live_devices", "process_allgather", "reached_preemption_sync_point",
           "sync_global_devices"]
