"""``jax.profiler``: traces for TensorBoard and Perfetto, annotations, device memory profiles."""

from jaxle_xla.profiler import (
    ProfileData,
    ProfileEvent,
    ProfileOptions,
    ProfilePlane,
    StepTraceAnnotation,
    TraceAnnotation,
    annotate_function,
    device_memory_profile,
    register_subprocess,
    save_device_memory_profile,
    start_server,
    start_trace,
    stop_server,
    stop_trace,
    trace,
)

__all__ = ["ProfileData", "ProfileEvent", "ProfileOptions", "ProfilePlane", "StepTraceAnnotation", "TraceAnnotation",
           "annotate_function", "device_memory_profile", "register_subprocess", "save_device_memory_profile",
           "start_server", "start_trace", "stop_server", "stop_trace", "trace"]
