"""Jitted calls run by jaxlib's C++ dispatch (fast_jit): which calls it serves, and that they behave as core's
path does (dtypes, weak types, x64, static arguments, committedness, deleted arrays, custom pytrees, threads,
transfer guards)."""

import importlib
import threading

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_tree as tree
import jaxle_xla
from jaxle_core import config, execution_checks, lax
from jaxle_tree.accelerator import jaxlib_registry
from jaxle_xla import XlaArray, fast_jit, transfer_guard


@pytest.fixture(autouse=True)
def cpp_dispatch():
    """C++ dispatch on, as in a fresh process: an earlier test in this one may have armed the transfer guard or the
    execution checks, which keep every call on core's path from then on (no such flag is set between tests)."""
    jit_module = importlib.import_module("jaxle_core.jit")
    saved = (jit_module.fast_dispatch, jit_module.fast_dispatch_errors, transfer_guard.armed,
             execution_checks.armed)
    transfer_guard.armed = execution_checks.armed = False
    jit_module.set_fast_dispatch(fast_jit.dispatcher, (jaxle_xla.JaxRuntimeError,))
    yield
    jit_module.set_fast_dispatch(*saved[:2])
    transfer_guard.armed, execution_checks.armed = saved[2:]


def counting_misses(jitted):
    """``jitted``, with the calls that reach core's path (C++ dispatch misses) counted in ``misses[0]``."""
    misses = [0]
    call_entry = jitted.call_entry

    def counted(args, kwargs):
        misses[0] += 1
        return call_entry(args, kwargs)

    jitted.call_entry = counted
    return misses


def test_repeated_calls_run_in_cpp():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f = jc.jit(lambda t, s: {"sum": t["a"] + t["b"][0] * s, "pair": (t["b"][1], s * 2.0)})
    misses = counting_misses(f)
    args = ({"a": x, "b": (x, np.ones(3, np.float32))}, 1.5)
    first = f(*args)
    for _ in range(3):
        out = f(*args)
    assert misses[0] == 1  # only the first call went through Python
    assert type(out["sum"]) is XlaArray and out["pair"][1].weak_type and not out["sum"].weak_type
    np.testing.assert_array_equal(out["sum"], [0, 2.5, 5])
    np.testing.assert_array_equal(first["pair"][0], out["pair"][0])
    assert float(out["pair"][1]) == 3.0


def test_python_scalars_follow_x64():
    f = jc.jit(lambda s: s * 2)
    assert f(1.5).dtype == np.float32 and f(1.5).weak_type
    with config.enable_x64(True):
        assert f(1.5).dtype == np.float64 and f(1.5).weak_type and float(f(1.5)) == 3.0
        assert f(np.float64(1.5)).dtype == np.float64 and not f(np.float64(1.5)).weak_type
    assert f(1.5).dtype == np.float32 and f(np.float64(1.5)).dtype == np.float32 and f(2).dtype == np.int32


def test_static_arguments_and_their_types():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f = jc.jit(lambda a, n: a * n, static_argnums=1)
    misses = counting_misses(f)
    for _ in range(2):
        np.testing.assert_array_equal(f(x, 2), [0, 2, 4])
        np.testing.assert_array_equal(f(x, 2.0), [0, 2, 4])
    assert f.trace_count == 2 and misses[0] == 2  # 2 and 2.0 trace apart, as in JAX
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        f(x, [1])


def test_committed_arguments_commit_the_outputs_on_every_call():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    committed = jaxle_xla.device_put(x, jaxle_xla.devices()[0])
    f = jc.jit(lambda a: a + 1.0)
    for _ in range(2):
        assert f(committed).committed and not f(x).committed


def test_a_deleted_argument_raises_jaxles_error():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32)) * 1.0
    f = jc.jit(lambda a: a + 1.0)
    f(x)
    x.delete()
    with pytest.raises(RuntimeError, match=r"Array has been deleted with shape=float32\[3\]\."):
        f(x)


class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y


tree.register_pytree_node(Point, lambda p: ((p.x, p.y), None), lambda _, children: Point(*children))


def test_custom_pytree_nodes():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f = jc.jit(lambda p: Point(p.y, p.x + 1.0))
    misses = counting_misses(f)
    for _ in range(3):
        out = f(Point(x, 2.0))
    assert type(out) is Point
    np.testing.assert_array_equal(out.y, [1, 2, 3])
    assert float(out.x) == 2.0 and f.trace_count == 1
    # C++ flattens with jaxle_tree's mirror in jaxlib's registry; without it (pure Python) core's path serves
    assert misses[0] == (1 if jaxlib_registry() is not None else 3)


def test_calls_from_several_threads():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f = jc.jit(lambda a: lax.sin(a) + a)
    expected = np.sin(np.arange(3, dtype=np.float32)) + np.arange(3, dtype=np.float32)
    results = []

    def run():
        with config.enable_x64(True):  # a thread's own x64 setting keys its calls
            results.append(f(1.0).dtype)
        for _ in range(50):
            results.append(np.asarray(f(x)))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r for r in results if isinstance(r, np.dtype)] == [np.float64] * 4
    for r in results:
        if not isinstance(r, np.dtype):
            np.testing.assert_allclose(r, expected, rtol=1e-6)
    assert f(1.0).dtype == np.float32


def test_an_armed_transfer_guard_sees_every_call():
    f = jc.jit(lambda a: a + 1.0)
    host = np.ones(3, np.float32)
    f(host)
    with config.transfer_guard("disallow"):
        with pytest.raises(jaxle_xla.JaxRuntimeError, match="Disallowed host-to-device transfer"):
            f(host)
