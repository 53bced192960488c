"""Source locations of equations: the stack and name stack that staged each one.

Every staged equation records where it was staged (``equation_source``): the Python stack at that moment, kept raw
(code objects and instruction offsets; lines are looked up only when a location is printed, so tracing pays
little for it), and the name stack (``named_scope`` names and the transformations, ``jvp``, ``vmap``,
``transpose``, it was staged under, from the start of its jaxpr's trace). An equation staged while jaxle
interprets one staged earlier (a jitted function's body under a transformation, a transposed equation) records
that equation's stack. The lowering writes them as MLIR locations (``user_frames``, ``name_stack_text``).

Inside ``recording_locations()`` (used by the tools that report locations, such as ``print_saved_residuals``)
every staging trace also notes, for each equation staged into it, the user's frame it came from, summarized as
``/path/file.py:12:8 (f)`` as JAX prints it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import sysconfig
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jaxle_core import core
from jaxle_core.core import JaxprEqn, NameTransform, Var

__all__ = ["Frame", "SourceInfo", "at_user_source", "current", "equation_source",
           "name_stack_text", "new_source_info", "record_unlocated", "recording_locations", "reevaluating_equation",
           "register_exclusion", "summarize", "user_frames", "user_traceback"]

# The packages whose frames are never the user's: jaxle's own (looked up when a frame is inspected, so
# packages imported later are excluded too), and the paths users register.
_JAXLE_PACKAGES = ("jaxle", "jaxle_core", "jaxle_numpy", "jaxle_random", "jaxle_tree", "jaxle_xla")
_registered_exclusions: list[str] = []


def register_exclusion(path: str) -> None:
    """Never report a frame whose file lies under ``path`` (a library wrapping jaxle registers its own)."""
    _registered_exclusions.append(path)
    _user_files.clear()


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
    entry = _staging_entry()
    while frame is not None:
        if not frame.f_code.co_filename.startswith(excluded):
            return _frame_info(frame)
        if frame.f_code is entry:
            break
        eqn = frame.f_locals.get("eqn") if known else None
        if isinstance(eqn, JaxprEqn):
            copied = next((known[v] for v in eqn.outvars if v in known), None)
            if copied is not None:
                return copied
        frame = frame.f_back
    return SourceInfo()


def _staging_entry() -> types.CodeType:
    """The code of the frame that calls a function being staged: the user's frames beyond it are outside it."""
    from jaxle_core import staging  # local: staging records equations' sources with this module

    return staging.trace_to_jaxpr.__code__


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
    from jaxle_core import staging  # local, as in ``_staging_entry``

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


# ---------------------------------------------------------------- every equation's stack and name stack


class _PythonTraceback:
    """The calling stack's code objects and instruction offsets, innermost first (where jaxlib can be imported, its
    C++ ``Traceback`` stands in for it, see ``capture_traceback``)."""

    __slots__ = ("_codes", "_offsets")

    def __init__(self, frame: types.FrameType | None):
        codes, offsets = [], []
        while frame is not None:
            codes.append(frame.f_code)
            offsets.append(frame.f_lasti)
            frame = frame.f_back
        self._codes, self._offsets = codes, offsets

    def raw_frames(self) -> tuple[list[types.CodeType], list[int]]:
        return self._codes, self._offsets


def _python_traceback() -> _PythonTraceback:
    return _PythonTraceback(sys._getframe(1))


def _stack_capture() -> Callable[[], Any]:
    """jaxlib's ``Traceback.get_traceback`` where jaxlib can be imported (it walks the stack in C++, several times
    faster than Python's loop, and keeps it as raw too), else ``_python_traceback``: tracing pays for it on every
    equation."""
    try:
        from jaxlib._jax import Traceback
    except ImportError:
        return _python_traceback
    return Traceback.get_traceback


# ``capture_traceback()``: the calling stack, for an equation staged now
capture_traceback: Callable[[], Any] = _stack_capture()


def equation_source() -> tuple[Any, tuple[Any, ...]]:
    """Where an equation staged now comes from, ``(stack, name stack)``: the calling stack (or, while jaxle
    interprets an equation staged earlier, that equation's; raw, ``raw_frames()`` gives its code objects and
    instruction offsets) and the current name stack (``named_scope`` names and ``NameTransform``s)."""
    source = core._context.source
    return (capture_traceback(), source[1]) if source[0] is None else source


def name_stack_text(name_stack: Sequence[Any]) -> str:
    """A name stack as JAX writes it: names joined by ``/``, a transformation wrapping the name after it
    (``jvp(f)``, ``transpose(jvp())``)."""
    names: list[str] = []
    for entry in reversed(name_stack):
        if type(entry) is NameTransform:
            if names:
                names[-1] = f"{entry.name}({names[-1]})"
            else:
                names.append(f"{entry.name}()")
        else:
            names.append(entry)
    return "/".join(reversed(names))


@dataclass(frozen=True)
class Frame:
    """One frame of the user's: its file, function (qualified name) and the span of source it was running."""

    file: str
    function: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int


# whether each file seen is the user's (cleared when an exclusion is registered)
_user_files: dict[str, bool] = {}
_STANDARD_LIBRARY = (sysconfig.get_path("stdlib"), os.path.dirname(contextlib.__file__))


def _is_user_file(file: str) -> bool:
    known = _user_files.get(file)
    if known is None:
        known = _user_files[file] = not file.startswith((*_excluded_paths(), *_STANDARD_LIBRARY))
    return known


def _frame(code: types.CodeType, offset: int) -> Frame:
    positions = list(code.co_positions())
    line, end_line, column, end_column = positions[offset // 2] if 0 <= offset // 2 < len(positions) else \
        (None,) * 4
    line = code.co_firstlineno if line is None else line
    return Frame(code.co_filename, code.co_qualname, line, column or 0,
                 line if end_line is None else end_line, (column or 0) if end_column is None else end_column)


def user_frames(traceback: Any) -> list[Frame]:
    """The frames of ``traceback`` (an equation's stack) that are the user's, outside jaxle, its registered
    exclusions and Python's standard library, innermost first."""
    if traceback is None:
        return []
    codes, offsets = traceback.raw_frames()
    return [_frame(code, offset) for code, offset in zip(codes, offsets) if _is_user_file(code.co_filename)]
