"""``jax.experimental.multihost_utils``: host values exchanged between the processes of a multi-process run."""

from jaxle_xla.multihost import (
    ProcessFailureError,
    assert_equal,
    broadcast_one_to_all,
    live_devices,
    process_allgather,
    sync_global_devices,
)

__all__ = ["ProcessFailureError", "assert_equal", "broadcast_one_to_all", "live_devices", "process_allgather",
           "sync_global_devices"]
