"""Jitted calls run by jaxlib's C++ dispatch (fast_jit): which calls it serves, and that they behave as core's
path does (dtypes, weak types, x64, static arguments, committedness, deleted arrays, custom pytrees, threads,
transfer guards, arrays of other memory layouts)."""

import functools
import inspect
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_tree as tree
import jaxle_xla
from jaxle_core import config, lax
from jaxle_tree.accelerator import jaxlib_registry
from jaxle_xla import XlaArray, dispatch_testing
from jaxle_xla.dispatch_testing import counting_misses
from jaxle_xla.sharding import SingleDeviceSharding


@pytest.fixture(autouse=True)
def cpp_dispatch():
    """C++ dispatch on, as in a fresh process (see ``dispatch_testing.cpp_dispatch``)."""
    with dispatch_testing.cpp_dispatch():
        yield


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


def test_negative_static_arguments_are_resolved_per_call_in_cpp():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f = jc.jit(lambda *a: a[0] * a[-1], static_argnums=-1)
    misses = counting_misses(f)
    for _ in range(2):  # the last positional argument is static, whichever it is (as in JAX 0.10.2)
        np.testing.assert_array_equal(f(x, 2), [0, 2, 4])
        np.testing.assert_array_equal(f(x, x, 3), [0, 3, 6])
    assert f.trace_count == 2 and misses[0] == 2
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        f(x)  # the array itself is static here
    with pytest.raises(ValueError, match="must have value greater than or equal to -len"):
        jc.jit(lambda *a: a[0], static_argnums=-3)(x, x)


def test_donating_calls_run_in_cpp():
    f = jc.jit(lambda state, step: {"w": state["w"] - step, "n": state["n"] + 1}, donate_argnums=0)
    misses = counting_misses(f)
    state = {"w": jaxle_xla.device_put(np.arange(3, dtype=np.float32)), "n": jaxle_xla.device_put(np.int32(0))}
    for _ in range(4):  # a training loop: each step donates the state the previous one returned
        old, state = state, f(state, 0.5)
        assert old["w"].is_deleted() and old["n"].is_deleted()
    assert misses[0] == 1
    np.testing.assert_array_equal(state["w"], [-2, -1, 0])
    assert int(state["n"]) == 4


def test_calls_of_a_jit_given_a_device_run_in_cpp():
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    with pytest.warns(DeprecationWarning, match="backend and device argument on jit is deprecated"):
        f = jc.jit(lambda t: {"a": t["a"] + 1.0}, device=jaxle_xla.devices()[0])
    misses = counting_misses(f)
    for _ in range(3):
        out = f({"a": x})
        assert out["a"].committed
        np.testing.assert_array_equal(out["a"], [1, 2, 3])
    assert misses[0] == 1


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


def test_eval_shape_of_a_jitted_function_carries_its_out_shardings():
    # as JAX's, eval_shape of a jitted function is its trace's out_info: the out_sharding it was given, which the
    # computed result lies by; an unplaced result has none
    sharding = SingleDeviceSharding(jaxle_xla.devices()[0])
    f = jc.jit(lambda a: a * 2, out_shardings=sharding)
    x = np.arange(3, dtype=np.float32)
    out = jc.eval_shape(f, x)
    assert (out.shape, out.dtype, out.sharding) == ((3,), np.float32, f(x).sharding)
    assert out.sharding == sharding and jc.eval_shape(jc.jit(lambda a: a * 2), x).sharding is None


def test_eval_shape_of_a_bound_jitted_method_traces_the_method_as_jax_does():
    # JAX traces only a jitted function itself; a bound method of one is jitted as any callable, its instance an
    # argument that is no array (JAX 0.10.2's TypeError); a partial of one is traced as a function too
    class Scaler:
        @jc.jit
        def apply(self, a):
            return a * 3

    x = np.ones(3, np.float32)
    with pytest.raises(TypeError, match="Error interpreting argument to .* as an abstract array. The problematic "
                                        "value is of type <class .*Scaler'> and was passed to the function at path "
                                        "self"):
        jc.eval_shape(Scaler().apply, x)
    out = jc.eval_shape(functools.partial(jc.jit(lambda a, b: a * b), x), 2.0)
    assert (out.shape, out.dtype) == (x.shape, x.dtype)


def test_jit_returns_jaxlibs_pjit_function_as_jax_does():
    def scale(a, factor=2.0):
        """Scales."""
        return a * factor

    f = jc.jit(scale)
    assert type(f).__name__ == "PjitFunction"  # what chex's is_traceable looks for
    assert f.__wrapped__ is scale and f.__name__ == "scale" and f.__doc__ == "Scales."
    assert repr(f).startswith("<PjitFunction of <function ") and str(inspect.signature(f)) == "(a, factor=2.0)"
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    assert f.eval_shape(x).shape == (3,) and "stablehlo.multiply" in f.lower(x).as_text()
    assert f.trace(x).jaxpr.in_avals[0].shape == (3,)
    np.testing.assert_array_equal(f(x), [0, 2, 4])
    assert f.trace_count == 1
    f.clear_cache()
    f(x)
    assert f.trace_count == 2

    class Scaler:
        @jc.jit
        def apply(self, a):
            return a * 3.0

    assert str(Scaler.apply).startswith("<PjitFunction") and "bound method" in repr(Scaler().apply)
    # with donation too (whose calls all take core's path), and with negative static argument numbers
    assert type(jc.jit(scale, donate_argnums=0)).__name__ == "PjitFunction"
    assert type(jc.jit(scale, static_argnums=-1)).__name__ == "PjitFunction"


def test_calls_under_a_transformation_never_run_cached_entries():
    f = jc.jit(lambda a: a * 2.0)
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f(x)
    f(x)
    # A call on a concrete array inside a transformation is staged as a jit equation, as in JAX.
    jaxpr = jc.make_jaxpr(lambda: f(x))()
    assert [eqn.primitive.name for eqn in jaxpr.jaxpr.eqns] == ["jit"]
    # A function closing over a tracer is traced again under each transformation.
    seen = []

    def outer(t):
        g = jc.jit(lambda a: a * t)
        seen.append(g(x))
        return lax.reduce_sum(g(x), (0,))

    assert float(jc.grad(outer)(1.5)) == 3.0 and isinstance(seen[0], jc.core.Tracer)
    np.testing.assert_array_equal(f(x), [0, 2, 4])


def test_flags_of_the_trace_context_key_the_cpp_cache_per_thread():
    f = jc.jit(lambda a, b: a + b)
    misses = counting_misses(f)
    x, y = jaxle_xla.device_put(np.ones((2, 3), np.float32)), jaxle_xla.device_put(np.ones(3, np.float32))
    context = config.make_user_context(0)  # made after f: keys it too
    for _ in range(2):
        f(x, y)
    with context(1):
        f(x, y)
        f(x, y)
    assert f.trace_count == 2 and misses[0] == 2
    with config.enable_x64(True):
        assert f(x, 1.0).dtype == np.float32 and f(x, np.float64(1.0)).dtype == np.float64

    def run():  # another thread's override keys its own calls only
        with context(2):
            f(x, y)
        with config.enable_x64(True):
            f(x, np.float64(1.0))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert f.trace_count == 5 and misses[0] == 5  # the thread's x64 call ran the main thread's entry
    np.testing.assert_array_equal(f(x, y), np.full((2, 3), 2.0))
    assert f.trace_count == 5


def test_disable_jit_calls_the_function():
    calls = []
    f = jc.jit(lambda a: calls.append(type(a)) or a + 1.0)
    x = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    f(x)
    with config.disable_jit(True):
        f(x)
    assert calls[1] is XlaArray and len(calls) == 2


_LAYOUTS_PROGRAM = """
    import numpy as np
    import jaxle_core as jc
    from jaxle_core import lax
    from jaxle_core.layout import Format, Layout
    from jaxle_xla import api
    from jaxle_xla.sharding import make_single_device_sharding

    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    row_major = api.device_put(x, api.devices()[0])
    f = jc.jit(lambda a: lax.mul(a, np.float32(2)))
    for _ in range(3):
        f(row_major)  # cached in C++ before any array of another layout exists
    column_major = api.device_put(x, Format(Layout((1, 0)), make_single_device_sharding(api.devices()[0])))
    g = jc.jit(lambda a: lax.mul(a, np.float32(2)))
    values = [f(column_major) for _ in range(3)] + [g(column_major) for _ in range(3)] + [g(row_major)]
    values += [g(column_major) for _ in range(3)]
    h = jc.jit(lambda a, b, c: lax.add(lax.mul(a, b), c))
    hosts = [h(x, np.float32(3), np.ones((2, 3), np.float32)) for _ in range(3)]  # C++ transfers host values
    print(all(np.array_equal(np.asarray(v), x * 2) for v in values)
          and all(np.array_equal(np.asarray(v), x * 3 + 1) for v in hosts))
"""


def test_calls_with_arrays_of_another_memory_layout_read_their_values():
    # a fresh process: C++ entries made before the first array of another layout, and after (host values among
    # the arguments of cached calls too)
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(_LAYOUTS_PROGRAM)], capture_output=True, text=True,
                            check=True, timeout=120)
    assert result.stdout.strip() == "True", result.stderr[-2000:]
