"""``jax.monitoring``: listeners for events, durations, time spans and scalars that the program (and jaxle itself)
records.

jaxle records, for every ``jit`` trace and XLA compilation, the durations JAX records under the same names:
``/jax/core/compile/jaxpr_trace_duration`` (with ``fun_name`` the function's name),
``/jax/core/compile/jaxpr_to_mlir_module_duration`` and ``/jax/core/compile/backend_compile_duration`` (with
``fun_name`` ``jit(<name>)``), each as a duration, a time span and a scalar (the end time), as JAX does.
"""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["clear_event_listeners", "record_event", "record_event_duration_secs", "record_event_time_span",
           "record_scalar", "record_compile_step", "register_event_duration_secs_listener",
           "register_event_listener", "register_event_time_span_listener", "register_scalar_listener",
           "unregister_event_duration_listener", "unregister_event_listener", "unregister_event_time_span_listener",
           "unregister_scalar_listener"]

_event_listeners: list[Callable[..., None]] = []
_duration_listeners: list[Callable[..., None]] = []
_time_span_listeners: list[Callable[..., None]] = []
_scalar_listeners: list[Callable[..., None]] = []


def record_event(event: str, **kwargs: str | int) -> None:
    """Tell every event listener ``listener(event, **kwargs)``."""
    for listener in _event_listeners:
        listener(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: str | int) -> None:
    """Tell every duration listener ``listener(event, duration, **kwargs)``."""
    for listener in _duration_listeners:
        listener(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float, **kwargs: str | int) -> None:
    """Tell every time-span listener ``listener(event, start_time, end_time, **kwargs)``."""
    for listener in _time_span_listeners:
        listener(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float | int, **kwargs: str | int) -> None:
    """Tell every scalar listener ``listener(event, value, **kwargs)``."""
    for listener in _scalar_listeners:
        listener(event, value, **kwargs)


def record_compile_step(event: str, started: float, fun_name: str) -> None:
    """One step of compiling that began at ``time.perf_counter()`` ``started`` and ends now, to every listener of
    durations, time spans and scalars (nothing to do, and nothing done, without listeners)."""
    if not (_duration_listeners or _time_span_listeners or _scalar_listeners):
        return
    duration = time.perf_counter() - started
    end = time.time()
    record_event_duration_secs(event, duration, fun_name=fun_name)
    record_event_time_span(event, end - duration, end, fun_name=fun_name)
    record_scalar(event, end, fun_name=fun_name)


def register_event_listener(callback: Callable[..., None]) -> None:
    _event_listeners.append(callback)


def register_event_duration_secs_listener(callback: Callable[..., None]) -> None:
    _duration_listeners.append(callback)


def register_event_time_span_listener(callback: Callable[..., None]) -> None:
    _time_span_listeners.append(callback)


def register_scalar_listener(callback: Callable[..., None]) -> None:
    _scalar_listeners.append(callback)


def _unregister(listeners: list[Callable[..., None]], callback: Callable[..., None]) -> None:
    if callback not in listeners:
        raise AssertionError  # JAX asserts the callback was registered
    listeners.remove(callback)


def unregister_event_listener(callback: Callable[..., None]) -> None:
    _unregister(_event_listeners, callback)


def unregister_event_duration_listener(callback: Callable[..., None]) -> None:
    _unregister(_duration_listeners, callback)


def unregister_event_time_span_listener(callback: Callable[..., None]) -> None:
    _unregister(_time_span_listeners, callback)


def unregister_scalar_listener(callback: Callable[..., None]) -> None:
    _unregister(_scalar_listeners, callback)


def clear_event_listeners() -> None:
    """Forget every listener, of every kind."""
    for listeners in (_event_listeners, _duration_listeners, _time_span_listeners, _scalar_listeners):
        listeners.clear()
