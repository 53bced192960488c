"""``jax.distributed``: joining and leaving a multi-process run (see docs/parallel.md, "Multi-process runs").

``global_state.client`` is the run's distributed runtime client, whose key-value store and barriers JAX programs
reach as ``jax._src.distributed.global_state.client``.
"""

from jaxle_xla.distributed import global_state, initialize, is_initialized, shutdown

__all__ = ["global_state", "initialize", "is_initialized", "shutdown"]
