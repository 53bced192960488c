"""Source locations of equations: the user's line that staged each one, recorded only on request.

Ordinary tracing records no locations, so it pays nothing for them. Inside ``recording_locations()`` (used by
the tools that report locations, such as ``print_saved_residuals``) every staging trace notes, for each
equation staged into it, where it came from: the innermost frame outside jaxle's own packages (and any path
given to ``register_exclusion``), summarized as ``/path/file.py:12:8 (f)`` as JAX prints it. An equation that
jaxle re-stages from a jaxpr traced earlier (a checkpointed or jitted body being split by differentiation)
keeps the location of the equation it copies.
"""

from __future__ import annotations

import contextlib
import os
import sys
import types
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jaxle_core import staging
from jaxle_core.core import JaxprEqn, Var

__all__ = ["SourceInfo", "at_user_source", "current", "new_source_info", "record_unlocated", "recording_locations",
           "reevaluating_equation", "register_exclusion", "summarize", "user_traceback"]

# The packages whose frames are never the user's: jaxle's own (looked up when a frame is inspected, so
# packages imported later are excluded too), and the paths users register.
_JAXLE_PACKAGES = ("jaxle", "jaxle_core", "jaxle_numpy", "jaxle_random", "jaxle_tree", "jaxle_xla")
_registered_exclusions: list[str] = []


def register_exclusion(path: str) -> None:
    """Never report a frame whose file lies under ``path`` (a library wrapping jaxle registers its own)."""
    _registered_exclusions.append(path)


def _excluded_paths() -> tuple[str, ...]:
    packages = [os.path.dirname(module.__file__) for name in _JAXLE_PACKAGES
                if (module := sys.modules.get(name)) is not None and getattr(module, "__file__", None)]
    return (*packages, *_registered_exclusions)


@dataclass(frozen=True)
class SourceInfo:
    """Where an equation was staged: the user's frame (file, line, column, function), or None when none is."""

    file: str | None = None
    line: int | None = None
    column: int | None = None
    function: str | None = None


def _frame_info(frame: types.FrameType) -> SourceInfo:
    code = frame.f_code
    line, _, column, _ = list(code.co_positions())[frame.f_lasti // 2]
    return SourceInfo(code.co_filename, line if line is not None else frame.f_lineno, column or 0, code.co_qualname)


def _locate(frame: types.FrameType | None, known: dict[Var, SourceInfo]) -> SourceInfo:
    """The first frame outward from ``frame`` that is the user's, or that is jaxle re-staging an equation (a
    local ``eqn``) whose location ``known`` holds; none past the start of the staging trace it is in (a function
    of jaxle's own staged by ``jit``, ``make_jaxpr`` or a control-flow body is located nowhere, as JAX locates it)."""
    excluded = _excluded_paths()
    while frame is not None:
        if not frame.f_code.co_filename.startswith(excluded):
            return _frame_info(frame)
        if frame.f_code is _STAGING_ENTRY:
            break
        eqn = frame.f_locals.get("eqn") if known else None
        if isinstance(eqn, JaxprEqn):
            copied = next((known[v] for v in eqn.outvars if v in known), None)
            if copied is not None:
                return copied
        frame = frame.f_back
    return SourceInfo()


# the frame that calls a function being staged: the user's frames beyond it are outside that function
_STAGING_ENTRY = staging.trace_to_jaxpr.__code__


def reevaluating_equation() -> bool:
    """Whether the caller runs for an equation of a jaxpr traced earlier, which jaxle interprets again (a jitted
    function's body under a transformation): a frame of jaxle's holding that equation (a local ``eqn``) comes
    before the user's innermost frame."""
    excluded = _excluded_paths()
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(excluded):
        if isinstance(frame.f_locals.get("eqn"), JaxprEqn):
            return True
        frame = frame.f_back
    return False


def current() -> SourceInfo:
    """The innermost frame of the calling stack outside jaxle (and the registered exclusions)."""
    return _locate(sys._getframe(1), {})


def user_traceback() -> types.TracebackType | None:
    """The calling stack's frames outside jaxle (and the registered exclusions) as a traceback, outermost first:
    what an error raised later shows as the place something happened (None when no frame is the user's)."""
    excluded = _excluded_paths()
    traceback = None
    frame = sys._getframe(1)
    while frame is not None:
        if not frame.f_code.co_filename.startswith(excluded):
            traceback = types.TracebackType(traceback, frame, frame.f_lasti, frame.f_lineno)
        frame = frame.f_back
    return traceback


def new_source_info() -> SourceInfo:
    """A source location that names no frame."""
    return SourceInfo()


def summarize(source_info: SourceInfo) -> str:
    """``/path/file.py:12:8 (f)`` (``/path/file.py:12 (f)`` at the line's first column), or an empty string for a
    location without a frame, as JAX's."""
    if source_info.file is None:
        return ""
    column = f":{source_info.column}" if source_info.column else ""
    return f"{source_info.file}:{source_info.line}{column} ({source_info.function})"


def at_user_source(message: str) -> str:
    """``message`` ending with the user's line that called into jaxle, as JAX ends its refusals of the shardings
    an operation is asked for (``... This error occurs at source:  /path/file.py:12:8 (f)``)."""
    return f"{message} This error occurs at source:  {summarize(current())}"


class _RecordingEquations(list):
    """A staging trace's equation list while locations are recorded: each appended equation's outputs get
    their location in ``locations``."""

    def __init__(self, locations: dict[Var, SourceInfo]):
        super().__init__()
        self.locations = locations

    def append(self, eqn: Any) -> None:
        where = _locate(sys._getframe(1), self.locations)
        for var in eqn.outvars:
            self.locations[var] = where
        super().append(eqn)


# the location dicts of the recordings in progress, innermost last
_recordings: list[dict[Var, SourceInfo]] = []


@contextlib.contextmanager
def recording_locations() -> Iterator[dict[Var, SourceInfo]]:
    """Within it, every staged equation's output vars map to where it was staged (in the dict it yields)."""
    locations: dict[Var, SourceInfo] = {}
    previous = staging.new_equation_list
    staging.new_equation_list = lambda: _RecordingEquations(locations)
    _recordings.append(locations)
    try:
        yield locations
    finally:
        _recordings.pop()
        staging.new_equation_list = previous


def record_unlocated(outvars: Sequence[Var]) -> None:
    """While locations are recorded, note that an equation of ``outvars`` that jaxle makes itself (a checkpoint's
    copy of an offloaded value) names no frame: re-staged, it is located nowhere, as JAX locates such equations."""
    if _recordings:
        _recordings[-1].update((v, SourceInfo()) for v in outvars)
