"""Test helpers for jaxlib's C++ dispatch of jitted calls (``fast_jit``): switch it on as in a fresh process, and
count the calls that miss it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from jaxle_core import execution_checks
from jaxle_xla import fast_jit, transfer_guard

__all__ = ["counting_misses", "cpp_dispatch"]


@contextlib.contextmanager
def cpp_dispatch() -> Iterator[None]:
    """C++ dispatch on, as in a fresh process: an armed transfer guard or execution check (a flag turned on earlier
    in the process, even in a block) keeps every call on core's path from then on; restored on exit."""
    saved = (transfer_guard.armed, execution_checks.armed)
    transfer_guard.armed = execution_checks.armed = False
    fast_jit._mirror_armed()
    try:
        yield
    finally:
        transfer_guard.armed, execution_checks.armed = saved
        fast_jit._mirror_armed()


def counting_misses(jitted: Any) -> list[int]:
    """Count in ``misses[0]`` (the list returned) the calls of the jitted function that reach core's path."""
    misses = [0]
    wrapped = jitted._jaxle_jit
    call_entry = wrapped.call_entry

    def counted(args: Any, kwargs: Any) -> Any:
        misses[0] += 1
        return call_entry(args, kwargs)

    wrapped.call_entry = counted
    return misses
