"""The kind of compute a block of operations runs on (``jax.experimental.compute_on``).

Inside ``computing_on(compute_type)`` every staged equation records the compute type (``JaxprEqn.compute_type``);
interpreting a jaxpr again (inlining, differentiation, batching) stages each equation under its own compute type, so
derived equations keep it; the backend marks the operations lowered from those equations. The compute type is part
of the trace context: a function traced inside the block is traced again outside it.
"""

from __future__ import annotations

import contextlib
import re
import threading
from collections.abc import Iterator

from jaxle_core import config

__all__ = ["check_compute_type", "computing_on", "current_compute_type"]

_NAMED_TYPES = ("device_host", "device", "tpu_sparsecore")
_current = config.make_user_context(None)
# How many ``computing_on`` blocks are open, in all threads: staging asks for the compute type of every equation,
# and while no block is open anywhere the answer is None without reading the thread's context.
_open_blocks = [0]
_open_blocks_lock = threading.Lock()


def check_compute_type(compute_type: str) -> None:
    """JAX's error for a compute type it does not know."""
    if compute_type not in _NAMED_TYPES and not re.fullmatch(r"gpu_stream:\d+", str(compute_type)):
        raise ValueError(f"Invalid compute type {compute_type}. Current supported values are `device_host`, "
                         "`device`, `tpu_sparsecore`, and `gpu_stream:#`.")


def current_compute_type() -> str | None:
    """The compute type of the innermost ``computing_on`` block, None outside every block."""
    return _current.value if _open_blocks[0] else None


@contextlib.contextmanager
def computing_on(compute_type: str) -> Iterator[None]:
    """Within the block, staged equations record ``compute_type`` (an inner block's replaces an outer one's)."""
    with _open_blocks_lock:
        _open_blocks[0] += 1
    try:
        with _current(compute_type):
            yield
    finally:
        with _open_blocks_lock:
            _open_blocks[0] -= 1

