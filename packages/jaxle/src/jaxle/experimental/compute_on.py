"""``jax.experimental.compute_on``: run the operations traced inside a block, or a function, on a given kind of
compute.

The operations staged inside ``compute_on(compute_type)`` are marked for XLA in the lowered program as JAX marks them
(``_xla_compute_type``, or a GPU stream's annotation); ``compute_on2`` makes a function one ``compute_on`` equation,
its results put in the memory spaces asked for. On CPU every compute type is the host's, so they run as anywhere
else.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from jaxle_core.compute_on import call_on
from jaxle_core.compute_types import check_compute_type, computing_on

__all__ = ["compute_on", "compute_on2"]


@contextlib.contextmanager
def compute_on(compute_type: str):  # JAX's signature: no return annotation
    """Within the block, compute on ``compute_type``: ``device_host``, ``device``, ``tpu_sparsecore`` or
    ``gpu_stream:N``."""
    check_compute_type(compute_type)
    with computing_on(compute_type):
        yield


def compute_on2(f=None, *, compute_type, out_memory_spaces, compiler_options=None):  # JAX's signature
    """``f`` computed on ``compute_type`` as one ``compute_on`` equation, its results put in ``out_memory_spaces``
    (a ``jax.memory.Space``, or a tree prefix of its results of them); ``compiler_options`` (a dict) reach XLA as
    the call's backend configuration. Without ``f``, a decorator."""
    if f is None:
        return lambda fun: compute_on2(fun, compute_type=compute_type, out_memory_spaces=out_memory_spaces,
                                       compiler_options=compiler_options)
    return _compute_on2(f, compute_type, out_memory_spaces, compiler_options)


def _compute_on2(f: Callable, compute_type: str, out_memory_spaces: Any, compiler_options: dict | None) -> Callable:
    def wrapped(*args):  # positional arguments only, as JAX's
        return call_on(f, args, compute_type, out_memory_spaces, compiler_options)

    return wrapped
