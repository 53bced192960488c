"""``jax.monitoring``: listeners get what is recorded, and jit's tracing reports its duration under JAX's name."""

import numpy as np
import pytest

import jaxle_core as jax
from jaxle_core import monitoring


@pytest.fixture(autouse=True)
def no_listeners_left():
    yield
    monitoring.clear_event_listeners()


def test_listeners_of_each_kind():
    log = []
    monitoring.register_event_listener(lambda e, **kw: log.append(("event", e, kw)))
    monitoring.register_event_duration_secs_listener(lambda e, d, **kw: log.append(("duration", e, d, kw)))
    monitoring.register_event_time_span_listener(lambda e, s, t, **kw: log.append(("span", e, s, t, kw)))
    monitoring.register_scalar_listener(lambda e, v, **kw: log.append(("scalar", e, v, kw)))
    monitoring.record_event("/e", k=1)
    monitoring.record_event_duration_secs("/a", 2.0, k="x")
    monitoring.record_event_time_span("/b", 1.0, 3.0)
    monitoring.record_scalar("/c", 5)
    assert log == [("event", "/e", {"k": 1}), ("duration", "/a", 2.0, {"k": "x"}), ("span", "/b", 1.0, 3.0, {}),
                   ("scalar", "/c", 5, {})]
    monitoring.clear_event_listeners()
    monitoring.record_event("/e")
    assert len(log) == 4


def test_unregister():
    seen = []
    monitoring.register_event_listener(seen.append)
    monitoring.unregister_event_listener(seen.append)
    monitoring.record_event("/e")
    assert seen == []
    with pytest.raises(AssertionError):
        monitoring.unregister_scalar_listener(seen.append)


def test_jit_tracing_reports_its_duration():
    durations = []
    monitoring.register_event_duration_secs_listener(lambda e, d, **kw: durations.append((e, d, kw)))

    def add_one(x):
        return x + 1.0

    jax.jit(add_one)(np.float32(1.0))
    event, duration, kwargs = durations[0]
    assert (event, kwargs) == ("/jax/core/compile/jaxpr_trace_duration", {"fun_name": "add_one"}) and duration >= 0
