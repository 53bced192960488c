"""``jax.profiler`` over jaxlib's profiler: traces written where TensorBoard reads them, annotations, errors and
device memory profiles."""

from __future__ import annotations

import gzip
import json

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_xla import profiler


def _trace_files(log_dir):
    (folder,) = (log_dir / "plugins" / "profile").iterdir()
    return folder, sorted(p.name for p in folder.iterdir())


def test_trace_writes_an_xspace_and_a_chrome_trace_with_the_annotations(tmp_path):
    with profiler.trace(tmp_path, create_perfetto_trace=True):
        with profiler.TraceAnnotation("outer_region", detail=1):
            with profiler.StepTraceAnnotation("train", step_num=3):
                jc.jit(lambda a: a * 2)(np.ones(3, np.float32)).block_until_ready()
        profiler.annotate_function(lambda: None, name="annotated_call")()
    folder, names = _trace_files(tmp_path)
    assert any(n.endswith(".xplane.pb") for n in names) and any(n.endswith(".trace.json.gz") for n in names)
    assert "perfetto_trace.json.gz" in names
    with gzip.open(folder / "perfetto_trace.json.gz") as f:
        perfetto = json.load(f)
    assert "metadata" not in perfetto
    event_names = {e.get("name") for e in perfetto["traceEvents"]}
    assert {"outer_region", "train", "annotated_call"} <= event_names


def test_start_and_stop_errors(tmp_path):
    with pytest.raises(RuntimeError, match="^No profile started$"):
        profiler.stop_trace()
    profiler.start_trace(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="^Profile has already been started. Only one profile may be run at a "
                                               "time.$"):
            profiler.start_trace(tmp_path)
    finally:
        profiler.stop_trace()
    assert _trace_files(tmp_path)[1]


def test_annotate_function_keeps_the_function():
    def add(a, b):
        """Adds."""
        return a + b

    wrapped = profiler.annotate_function(add)
    assert wrapped(2, 3) == 5 and wrapped.__name__ == "add" and wrapped.__doc__ == "Adds."


def test_device_memory_profile_is_a_gzipped_pprof(tmp_path):
    kept = jc.jit(lambda a: a + 1)(np.ones(1000, np.float32))
    profile = profiler.device_memory_profile()
    assert profile[:2] == b"\x1f\x8b" and len(gzip.decompress(profile)) > 0
    path = tmp_path / "memory.prof"
    profiler.save_device_memory_profile(path)
    assert path.read_bytes()[:2] == b"\x1f\x8b"
    del kept


def test_server_errors():
    with pytest.raises(ValueError, match="^No active profiler server.$"):
        profiler.stop_server()
