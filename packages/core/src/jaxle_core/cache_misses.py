"""``jax_explain_cache_misses``: why a jitted function is traced again, logged at WARNING level in JAX's format.

The explanation compares the new cache key with the most recent key the function was traced for: the tracing
context (configuration flags), the input pytree (structure and static arguments) or the input types.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence

from jaxle_core import config as config_module

__all__ = ["explain"]

_logger = logging.getLogger(__name__)


def _call_site() -> str:
    """``file:line (function)`` of the innermost frame outside jaxle's packages: the user's call."""
    frame = sys._getframe(1)
    while frame is not None and str(frame.f_globals.get("__name__", "")).startswith("jaxle"):
        frame = frame.f_back
    if frame is None:
        return "<unknown>"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"


def _defined_at(fun: Callable) -> str:
    code = getattr(fun, "__code__", None)
    return f"{code.co_filename}:{code.co_firstlineno}" if code is not None else "<unknown>"


def _differences(before: tuple, now: tuple, arg_names: Sequence[str]) -> list[str]:
    (tree_before, avals_before, static_before, context_before) = before
    (tree_now, avals_now, static_now, context_now) = now
    if context_before != context_now:
        flags = config_module._TRACE_CONTEXT_FLAGS
        return ["Tracing context doesn't match, e.g. due to config or context manager."] + [
            f"* {flag.name} differs: now {a} and before {b}"
            for flag, a, b in zip(flags, context_now, context_before) if a != b]
    if tree_before != tree_now:
        return ["different input pytree:", f"* now {tree_now} and before {tree_before}"]
    if static_before != static_now:
        # static arguments by position, then by keyword: (where, _StaticArgument) pairs
        pairs = [*zip(static_now[0], static_before[0]), *zip(static_now[1], static_before[1])]
        return ["different static arguments:"] + [
            f"* at {_where(where)}, now {a.value!r} and before {b.value!r}"
            for (where, a), (_, b) in pairs if type(a.value) is not type(b.value) or a.value != b.value]
    return ["different input types:"] + [
        f"* at {name}, now {a.str_short(short_dtypes=True)} and before {b.str_short(short_dtypes=True)}"
        for name, a, b in zip(arg_names, avals_now, avals_before) if a != b]


def _where(position: int | str) -> str:
    return f"args[{position}]" if isinstance(position, int) else position


def explain(fun: Callable, seen: Sequence[tuple], key: tuple, arg_names: Sequence[str]) -> None:
    """Log why ``fun``'s jit cache missed for ``key``, given the keys ``seen`` before (oldest first)."""
    name = getattr(fun, "__name__", repr(fun))
    lines = [f"TRACING CACHE MISS at {_call_site()}:"]
    if not seen:
        lines += ["  never seen function:", f"    {name} id={id(fun)} defined at {_defined_at(fun)}"]
    else:
        lines += [f"  for {name} defined at {_defined_at(fun)}",
                  "  all previously seen cache keys differ. For the closest previous key:"]
        lines += ["  " + line for line in _differences(seen[-1], key, arg_names)]
    _logger.warning("\n".join(lines))
