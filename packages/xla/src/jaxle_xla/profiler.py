"""``jax.profiler`` over jaxlib's profiler: traces for TensorBoard (and Perfetto), host-side annotations, and
device memory profiles.

A trace collects what XLA and the annotated Python regions do between ``start_trace`` and ``stop_trace`` and
writes it under ``log_dir/plugins/profile/<time>/`` (``<host>.xplane.pb`` and ``<host>.trace.json.gz``), where
TensorBoard's profile plugin finds it. Annotations cost next to nothing while no trace is running.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import json
import logging
import os
import pathlib
import threading
from collections.abc import Callable, Iterator
from typing import Any

from jaxle_xla import _jaxlib, clients

__all__ = ["ProfileData", "ProfileEvent", "ProfileOptions", "ProfilePlane", "StepTraceAnnotation",
           "TraceAnnotation", "annotate_function", "device_memory_profile", "register_subprocess",
           "save_device_memory_profile", "start_server", "start_trace", "stop_server", "stop_trace", "trace"]

logger = logging.getLogger(__name__)

ProfileData = _jaxlib.ProfileData
ProfileEvent = _jaxlib.ProfileEvent
ProfileOptions = _jaxlib.ProfileOptions
ProfilePlane = _jaxlib.ProfilePlane


class _TraceState:
    """The one trace that may run at a time, and the one profiler server."""

    def __init__(self):
        self.lock = threading.Lock()
        self.session: Any = None
        self.log_dir: str | None = None
        self.perfetto = False
        self.server: Any = None


_state = _TraceState()


def start_trace(log_dir: os.PathLike | str, create_perfetto_link: bool = False, create_perfetto_trace: bool = False,
                profiler_options: ProfileOptions | None = None) -> None:
    """Start collecting a trace, to be written under ``log_dir`` by ``stop_trace``.

    ``create_perfetto_trace`` (or ``create_perfetto_link``) also writes ``perfetto_trace.json.gz`` for
    https://ui.perfetto.dev; no link or local server is made. Only one trace may run at a time.
    """
    with _state.lock:
        if _state.session is not None:
            raise RuntimeError("Profile has already been started. Only one profile may be run at a time.")
        clients.default_device()  # the backend's devices must exist to be traced
        options = profiler_options if profiler_options is not None else ProfileOptions()
        _state.session = _jaxlib.ProfilerSession(options)
        _state.log_dir = str(log_dir)
        _state.perfetto = create_perfetto_trace or create_perfetto_link


def stop_trace() -> None:
    """Stop the running trace and write it under its ``log_dir``."""
    with _state.lock:
        if _state.session is None:
            raise RuntimeError("No profile started")
        session, log_dir, perfetto = _state.session, _state.log_dir, _state.perfetto
        _state.session = _state.log_dir = None
        _state.perfetto = False
        _jaxlib.export_profile(session, log_dir)
        if perfetto:
            path = _write_perfetto_trace(log_dir)
            logger.info("Perfetto trace written to %s", path)


def _write_perfetto_trace(log_dir: str) -> pathlib.Path:
    """``perfetto_trace.json.gz`` beside the newest trace: its Chrome trace without the ``metadata`` entry, which
    Perfetto refuses."""
    folders = (pathlib.Path(log_dir).absolute() / "plugins" / "profile").iterdir()
    newest = max(folders, key=os.path.getmtime)
    traces = list(newest.glob("*.trace.json.gz"))
    if len(traces) != 1:
        raise ValueError(f"Invalid trace folder: {newest}")
    with gzip.open(traces[0], "rb") as f:
        events = json.load(f)
    events.pop("metadata", None)
    path = newest / "perfetto_trace.json.gz"
    with gzip.open(path, "w") as f:
        f.write(json.dumps(events).encode("utf-8"))
    return path


@contextlib.contextmanager
def trace(log_dir: os.PathLike | str, create_perfetto_link: bool = False, create_perfetto_trace: bool = False,
          profiler_options: ProfileOptions | None = None) -> Iterator[None]:
    """Trace the block: ``start_trace`` on entry, ``stop_trace`` on exit (also when it raises)."""
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    try:
        yield
    finally:
        stop_trace()


class TraceAnnotation(_jaxlib.TraceMe):
    """A context manager marking a named region of host activity in a trace; keyword arguments become the
    event's metadata."""


class StepTraceAnnotation(TraceAnnotation):
    """A ``TraceAnnotation`` marking one training step (``step_num=...``), which the profile's step view groups."""

    def __init__(self, name: str, **kwargs: Any):
        super().__init__(name, _r=1, **kwargs)  # ``_r=1``: the profiler's marker of a step's root event


def annotate_function(func: Callable, name: str | None = None, **decorator_kwargs: Any) -> Callable:
    """``func`` with every call inside a ``TraceAnnotation`` named ``name`` (default: its qualified name)."""
    name = name or getattr(func, "__qualname__", None) or getattr(func, "__name__", repr(func))

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with TraceAnnotation(name, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper


def start_server(port: int, requires_backend: bool = True) -> Any:
    """Start a profiler server on ``port`` that TensorBoard's profiler can capture traces from."""
    with _state.lock:
        if _state.server is not None:
            raise ValueError("Only one profiler server can be active at a time.")
        if requires_backend:
            clients.default_device()  # as in JAX: the backend is started first, so that its devices are traced
        _state.server = _jaxlib.start_profiler_server(port)
        return _state.server


def stop_server() -> None:
    """Stop the profiler server ``start_server`` started."""
    with _state.lock:
        if _state.server is None:
            raise ValueError("No active profiler server.")
        _state.server = None  # the server stops when its last reference goes


def register_subprocess(pid: int, port: int) -> Callable[[], None]:
    """Include the profiler server of process ``pid`` (listening on ``port``) in traces; returns the function
    that unregisters it."""
    return _jaxlib.register_profiler_subprocess(pid, port)


def device_memory_profile(backend: str | None = None) -> bytes:
    """The memory the backend's devices hold, as a gzipped pprof profile (read with ``pprof``)."""
    return gzip.compress(_jaxlib.heap_profile(clients.get_client(backend)))


def save_device_memory_profile(filename: os.PathLike | str, backend: str | None = None) -> None:
    """Write ``device_memory_profile(backend)`` to ``filename``."""
    profile = device_memory_profile(backend)
    with open(filename, "wb") as f:
        f.write(profile)
