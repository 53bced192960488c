"""The persistent compilation cache: a second process loads the executable the first one saved, and the options
that decide what is saved."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import jaxle as jax
import jaxle.numpy as jnp
from jaxle import monitoring
from jaxle.experimental.compilation_cache import compilation_cache as cc
from jaxle_xla import compilation_cache as cache_impl

_PROGRAM = textwrap.dedent("""
    import sys
    import jaxle as jax
    import jaxle.numpy as jnp
    from jaxle import monitoring
    from jaxle.experimental.compilation_cache import compilation_cache as cc

    events = []
    monitoring.register_event_listener(lambda event, **kwargs: events.append(event))
    cc.set_cache_dir(sys.argv[1])
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    result = jax.jit(lambda x: jnp.tanh(x) @ x.T + 1)(jnp.arange(6.0).reshape(2, 3))
    print(" ".join(e.rsplit("/", 1)[1] for e in events if "compilation_cache" in e))
    print(result.tolist())
""")


def _run(directory) -> tuple[list[str], list]:
    out = subprocess.run([sys.executable, "-c", _PROGRAM, str(directory)], capture_output=True, text=True,
                         check=True, env=os.environ | {"JAX_PLATFORMS": "cpu"}).stdout.splitlines()
    return out[0].split(), eval(out[1])  # noqa: S307  (our own subprocess's printed list)


def test_second_process_loads_the_saved_executable(tmp_path):
    first_events, first = _run(tmp_path)
    assert "cache_misses" in first_events and "cache_hits" not in first_events
    entries = sorted(p.name for p in tmp_path.iterdir())
    assert any(name.startswith("jit__lambda-") and name.endswith("-cache") for name in entries)
    second_events, second = _run(tmp_path)
    assert second_events.count("cache_hits") == len([e for e in first_events if e == "cache_misses"])
    assert "cache_misses" not in second_events
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(second, np.tanh(x) @ x.T + 1, rtol=1e-6)
    assert second == first


@pytest.fixture
def cache_dir(tmp_path):
    names = ["jax_compilation_cache_dir", "jax_persistent_cache_min_compile_time_secs",
             "jax_persistent_cache_min_entry_size_bytes", "jax_compilation_cache_max_size",
             "jax_enable_compilation_cache"]
    saved = {name: jax.config.values[name] for name in names}
    events = []

    def listen(event, **kwargs):
        if event.startswith("/jax/compilation_cache/"):
            events.append(event.rsplit("/", 1)[1])

    monitoring.register_event_listener(listen)
    cc.set_cache_dir(str(tmp_path))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    yield tmp_path, events
    monitoring.unregister_event_listener(listen)
    for name, value in saved.items():
        jax.config.update(name, value)
    cc.reset_cache()


def _entries(directory) -> list[str]:
    return [p.name for p in directory.iterdir() if p.name.endswith("-cache")]


def test_set_cache_dir_sets_the_flag_and_initializes_on_first_compile(cache_dir):
    directory, events = cache_dir
    assert jax.config.values["jax_compilation_cache_dir"] == str(directory)
    cc.reset_cache()
    assert not cache_impl.is_initialized()
    np.testing.assert_allclose(jax.jit(lambda x: x * 3.0 - 1)(jnp.ones(4)), np.full(4, 2.0))
    assert cache_impl.is_initialized()
    assert events[:2] == ["tasks_using_cache", "compile_requests_use_cache"]
    assert "cache_misses" in events
    assert any(name.startswith("jit__lambda-") for name in _entries(directory))


def test_programs_compiled_faster_than_the_minimum_time_are_not_saved(cache_dir):
    directory, events = cache_dir
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 1e9)
    jax.jit(lambda x: x / 7.0)(jnp.ones(3))
    assert "cache_misses" in events
    assert _entries(directory) == []


def test_entries_smaller_than_the_minimum_size_are_not_saved(cache_dir):
    directory, _ = cache_dir
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 1 << 40)
    jax.jit(lambda x: x - 7.0)(jnp.ones(3))
    assert _entries(directory) == []


def test_the_cache_is_off_when_disabled(cache_dir):
    directory, events = cache_dir
    jax.config.update("jax_enable_compilation_cache", False)
    jax.jit(lambda x: x * 11.0)(jnp.ones(3))
    assert events == [] and _entries(directory) == []


def test_max_size_evicts_the_least_recently_used_entries(cache_dir):
    directory, _ = cache_dir
    jax.config.update("jax_compilation_cache_max_size", 1)  # keeps only the entry just written
    jax.jit(lambda x: x + 13.0)(jnp.ones(3))
    first = _entries(directory)
    jax.jit(lambda x: x * 17.0)(jnp.ones(5))
    second = _entries(directory)
    assert len(first) == len(second) == 1 and first != second


def test_bad_flag_values_raise_as_in_jax():
    with pytest.raises(ValueError, match="new float config value must be None or of type float, got a of type"):
        jax.config.update("jax_persistent_cache_min_compile_time_secs", "a")
    with pytest.raises(ValueError, match="new int config value must be None or of type int, got 1.5"):
        jax.config.update("jax_compilation_cache_max_size", 1.5)
    with pytest.raises(ValueError, match="new string config value must be None or of type str, got 3"):
        jax.config.update("jax_compilation_cache_dir", 3)
