"""``jax.experimental.compute_on``: run the operations traced inside a block on a given kind of compute.

The operations staged inside ``compute_on(compute_type)`` are marked for XLA in the lowered program as JAX marks them
(``_xla_compute_type``, or a GPU stream's annotation). On CPU every compute type is the host's, so they run as
anywhere else.
"""

from __future__ import annotations

import contextlib

from jaxle_core.compute_types import check_compute_type, computing_on

__all__ = ["compute_on"]


@contextlib.contextmanager
def compute_on(compute_type: str):  # JAX's signature: no return annotation
    """Within the block, compute on ``compute_type``: ``device_host``, ``device``, ``tpu_sparsecore`` or
    ``gpu_stream:N``."""
    check_compute_type(compute_type)
    with computing_on(compute_type):
        yield
