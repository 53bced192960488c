"""``jax.monitoring``: listeners for the events, durations, time spans and scalars recorded (jaxle-core's)."""

from jaxle_core.monitoring import (
    clear_event_listeners,
    record_event,
    record_event_duration_secs,
    record_event_time_span,
    record_scalar,
    register_event_duration_secs_listener,
    register_event_listener,
    register_event_time_span_listener,
    register_scalar_listener,
    unregister_event_duration_listener,
    unregister_event_listener,
    unregister_event_time_span_listener,
    unregister_scalar_listener,
)

__all__ = ["clear_event_listeners", "record_event", "record_event_duration_secs", "record_event_time_span",
           "record_scalar", "register_event_duration_secs_listener", "register_event_listener",
           "register_event_time_span_listener", "register_scalar_listener", "unregister_event_duration_listener",
           "unregister_event_listener", "unregister_event_time_span_listener", "unregister_scalar_listener"]
