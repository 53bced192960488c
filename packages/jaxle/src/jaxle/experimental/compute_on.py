"""``jax.experimental.compute_on``: run the operations traced inside a block on a given kind of compute.

On CPU every compute type is the host's, so the operations run as anywhere else; the block checks its compute type
as JAX does. (JAX marks the block's operations in the lowered program with ``_xla_compute_type``; jaxle's lowered
text does not.)
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

__all__ = ["compute_on"]

_NAMED_TYPES = ("device_host", "device", "tpu_sparsecore")


@contextlib.contextmanager
def compute_on(compute_type: str) -> Iterator[None]:
    """Within the block, compute on ``compute_type``: ``device_host``, ``device``, ``tpu_sparsecore`` or
    ``gpu_stream:N``."""
    if compute_type not in _NAMED_TYPES and not re.fullmatch(r"gpu_stream:\d+", str(compute_type)):
        raise ValueError(f"Invalid compute type {compute_type}. Current supported values are `device_host`, "
                         "`device`, `tpu_sparsecore`, and `gpu_stream:#`.")
    yield
