"""jit: staging, caching per signature, static arguments, stages and errors."""

import inspect
import re

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import config as config_flags
from jaxle_core import lax
from jaxle_core.config import config, log_compiles, no_tracing


def test_jit_computes_and_caches_per_signature():
    calls = []

    def fun(x):
        calls.append(1)
        return lax.sin(x) + x

    f = jc.jit(fun)
    x = np.linspace(0, 1, 5, dtype=np.float32)
    np.testing.assert_allclose(np.asarray(f(x)), np.sin(x) + x, rtol=1e-6)
    f(x + 1)
    assert len(calls) == 1 and f.trace_count == 1
    f(np.ones(4, np.float32))  # a new shape retraces
    f(np.ones(4, np.int32).astype(np.float32))
    assert f.trace_count == 2
    f(1.0)  # weak scalar is a different signature
    f(np.float32(1.0))
    assert f.trace_count == 4


def test_outputs_passed_through_or_constant_are_arrays_of_their_avals():
    scalar, ones, passed = jc.jit(lambda x: (np.array(0, np.int32), np.ones(2), x))(1.0)
    assert all(isinstance(o, jc.Array) for o in (scalar, ones, passed))
    assert scalar.dtype == np.int32 and ones.dtype == np.float32 and not ones.weak_type
    assert passed.dtype == np.float32 and passed.weak_type and float(passed) == 1.0


def test_static_keywords_share_the_array_call_cache():
    def scaled(x, *, n, offset=0):
        return x * n + offset

    f = jc.jit(scaled, static_argnames=("n", "offset"))
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(f(x, n=2, offset=1)), x * 2 + 1)
    np.testing.assert_array_equal(np.asarray(f(x, offset=1, n=2)), x * 2 + 1)  # keyword order does not matter
    assert f.trace_count == 1
    np.testing.assert_array_equal(np.asarray(f(x, n=3)), x * 3)
    assert f.trace_count == 2
    # Equal static values of different types trace apart, as in JAX (a function may branch on the type).
    np.testing.assert_array_equal(np.asarray(f(x, n=3.0)), x * 3)
    np.testing.assert_array_equal(np.asarray(f(x, n=True)), x)
    assert f.trace_count == 4
    f(x, n=3.0)
    assert f.trace_count == 4
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        f(x, n=[2])


def test_static_arguments_are_part_of_the_key():
    def power(x, n):
        out = x
        for _ in range(n - 1):
            out = out * x
        return out

    f = jc.jit(power, static_argnums=1)
    assert float(f(np.float32(2), 3)) == 8.0
    assert float(f(np.float32(2), 4)) == 16.0
    assert float(f(np.float32(3), 3)) == 27.0
    assert f.trace_count == 2
    assert float(f(np.float32(2), np.int64(3))) == 8.0  # a NumPy integer is not a Python int
    assert f.trace_count == 3
    g = jc.jit(power, static_argnames="n")
    assert float(g(np.float32(2), n=5)) == 32.0
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        jc.jit(lambda x, s: x, static_argnums=1)(1.0, [1, 2])


def test_pytrees_in_and_out():
    f = jc.jit(lambda d: {"sum": d["a"] + d["b"][0], "pair": (d["b"][1], 2.0)})
    out = f({"a": np.float32(1), "b": [np.float32(2), np.float32(3)]})
    assert float(out["sum"]) == 3.0 and float(out["pair"][0]) == 3.0 and float(out["pair"][1]) == 2.0


def test_disable_jit_runs_python():
    seen = []

    def fun(x):
        seen.append(type(x).__name__)
        return x

    with jc.disable_jit():
        jc.jit(fun)(np.float32(1))
    assert seen == ["float32"]
    assert config.jax_disable_jit is False


def test_trace_lower_compile_stages():
    f = jc.jit(lambda x: lax.cos(x) * 2.0)
    traced = f.trace(np.float32(1))
    assert [e.primitive.name for e in traced.jaxpr.eqns] == ["cos", "mul"]
    compiled = f.lower(np.float32(1)).compile()
    assert float(compiled(np.float32(0))) == 2.0
    assert isinstance(f.lower(np.float32(1)).as_text(), str)


def test_stages_report_structures_and_donation():
    # JAX 0.10.2 reports these for the same function and arguments.
    f = jc.jit(lambda x, pair, *, y: (x + pair[0] * pair[1], y), donate_argnums=1)
    one = np.float32(1)
    lowered = f.lower(one, (one, one), y=np.ones(2, np.float32))
    assert str(lowered.in_tree) == "PyTreeDef(((*, (*, *)), {'y': *}))"
    assert str(lowered.out_tree) == "PyTreeDef((*, *))"
    assert lowered.donate_argnums == (1, 2)  # the flat arguments donated
    assert lowered.in_avals[1]["y"].shape == (2,)
    assert [s.shape for s in lowered.out_info] == [(), (2,)]
    assert lowered.cost_analysis() is None  # the reference backend estimates no costs
    compiled = lowered.compile()
    assert (compiled.in_tree, compiled.out_tree, compiled.donate_argnums) == \
        (lowered.in_tree, lowered.out_tree, lowered.donate_argnums)


def test_jit_of_jit_nests_a_jit_equation():
    inner = jc.jit(lambda y: y * 2.0)
    closed = jc.make_jaxpr(lambda x: inner(x) + 1.0)(1.0)
    assert [e.primitive.name for e in closed.eqns] == ["jit", "add"]
    assert closed.eqns[0].params["name"] == "<lambda>"
    assert float(jc.jit(lambda x: inner(x) + 1.0)(2.0)) == 5.0


def test_eval_shape_and_make_jaxpr_return_shape():
    out = jc.eval_shape(lambda x, y: (x * y, x[0]), jc.ShapeDtypeStruct((2, 3), np.float32),
                        jc.ShapeDtypeStruct((1, 3), np.int32))
    assert out[0] == jc.ShapeDtypeStruct((2, 3), np.float32)
    assert out[1] == jc.ShapeDtypeStruct((3,), np.float32)
    closed, shape = jc.make_jaxpr(lambda x: x * 2, return_shape=True)(np.ones(3, np.int32))
    assert shape == jc.ShapeDtypeStruct((3,), np.int32)
    assert closed.out_avals[0].shape == (3,)


def test_named_call_and_scope_do_not_change_results():
    f = jc.named_call(lambda x: lax.sin(x), name="my_sin")
    with jc.named_scope("outer"):
        assert float(jc.jit(f)(np.float32(0))) == 0.0
    with pytest.raises(TypeError):
        with jc.named_scope(3):
            pass


def test_donate_argnames_reaches_keyword_arguments():
    inner = jc.jit(lambda a, b: a + b, donate_argnames="b")
    closed = jc.make_jaxpr(lambda x, y: inner(x, b=y))(np.ones(2, np.float32), np.ones(2, np.float32))
    assert closed.eqns[0].params["donated_invars"] == (False, True)
    by_position = jc.jit(lambda a, b: a + b, donate_argnums=1)
    closed = jc.make_jaxpr(lambda x, y: by_position(x, b=y))(np.ones(2, np.float32), np.ones(2, np.float32))
    assert closed.eqns[0].params["donated_invars"] == (False, True)


def test_compiled_stage_checks_argument_types():
    compiled = jc.jit(lambda a, b: a + b).lower(np.ones(3, np.float32), np.ones(3, np.float32)).compile()
    np.testing.assert_array_equal(np.asarray(compiled(np.ones(3, np.float32), np.ones(3, np.float32))), [2, 2, 2])
    with pytest.raises(TypeError, match=r"Argument 'a' compiled with float32\[3\] and called with int32\[3\]"):
        compiled(np.ones(3, np.int32), np.ones(3, np.float32))


@pytest.mark.parametrize("call, path", [
    (lambda: jc.jit(lambda x: x)(2 ** 40), "x"),
    (lambda: jc.jit(lambda x, y: x)(1, y=-2 ** 40), "y"),
    (lambda: jc.jit(lambda t: t)((1, 2 ** 40)), "t[1]"),
    (lambda: jc.make_jaxpr(lambda x: x)(2 ** 40), "x"),
    (lambda: jc.eval_shape(lambda x: x, 2 ** 40), "x"),
])
def test_python_int_argument_beyond_the_default_integer_overflows_as_jax(call, path):
    small = jc.jit(lambda x: x)
    assert int(small(3)) == 3  # a cached signature for a small int must not let a large one through
    with pytest.raises(OverflowError, match=re.escape(
            f"An overflow was encountered while parsing an argument to a jitted computation, whose argument path "
            f"is {path}. Got <class 'int'> with value")):
        call()
    with pytest.raises(OverflowError):
        small(2 ** 40)
    with jc.config.enable_x64(True):
        assert int(jc.jit(lambda x: x)(2 ** 40)) == 2 ** 40


def test_no_tracing_refuses_a_cache_miss():
    double = jc.jit(lambda x: x * 2.0)
    double(np.float32(1.0))
    with no_tracing(True):
        assert float(double(np.float32(2.0))) == 4.0  # traced before: runs
        with pytest.raises(RuntimeError, match=r"^re-tracing function <lambda> at .*test_jit.py:\d+ for `jit`, but "
                                               r"'no_tracing' is set$"):
            double(np.ones(2, np.float32))
    assert double.trace_count == 1


def test_log_compiles_reports_tracing(caplog):
    with log_compiles(True):
        jc.jit(lambda x: x + 1.0)(np.float32(1.0))
    assert re.fullmatch(r"Finished tracing <lambda> for jit in \d+\.\d{9} sec", caplog.records[0].getMessage())
    assert caplog.records[0].levelname == "WARNING"


def test_explain_cache_misses_logs_why(caplog):
    def scale(x, n):
        return x * n

    scaled = jc.jit(scale, static_argnums=1)
    with config_flags.explain_cache_misses(True):
        scaled(np.ones(3, np.float32), 2)
        scaled(np.ones(4, np.float32), 2)
        scaled(np.ones(4, np.float32), 3)
        scaled(np.ones(4, np.float32), 3)  # a hit: nothing logged
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 3 and all(m.startswith("TRACING CACHE MISS at ") and "test_jit.py" in m for m in messages)
    assert messages[0].splitlines()[1:] == ["  never seen function:",
                                            f"    scale id={id(scale)} defined at {__file__}:"
                                            f"{scale.__code__.co_firstlineno}"]
    assert messages[1].splitlines()[3:] == ["  different input types:", "  * at x, now f32[4] and before f32[3]"]
    assert messages[2].splitlines()[3:] == ["  different static arguments:", "  * at args[1], now 3 and before 2"]


def test_check_tracer_leaks_finds_a_stored_tracer():
    leaked = []

    def keeps_a_tracer(x):
        leaked.append(x * 3.0)
        return x

    with config_flags.checking_leaks():
        assert float(jc.jit(lambda x: lax.sin(x))(np.float32(0.0))) == 0.0  # nothing kept: no error
        with pytest.raises(Exception, match=r"^Leaked trace DynamicJaxprTrace\. Leaked tracer\(s\):\n\n"
                                            r"JitTracer\(~float32\[\]\)\nThe error occurred while tracing the "
                                            r"function keeps_a_tracer") as info:
            jc.jit(keeps_a_tracer)(np.float32(1.0))
    assert "is referred to by <list " in str(info.value)
    leaked.clear()
    assert float(jc.jit(keeps_a_tracer)(np.float32(1.0))) == 1.0  # flag off: no check


def test_device_and_backend_arguments_are_deprecated_as_in_jax():
    message = re.escape('backend and device argument on jit is deprecated. You can use `jax.device_put(..., '
                        'jax.local_devices(backend="cpu")[0])` on the inputs to the jitted function to get the same '
                        'behavior.')
    with pytest.warns(DeprecationWarning, match=message):
        jc.jit(lambda x: x, backend="cpu")
    with pytest.warns(DeprecationWarning, match=message), pytest.raises(
            ValueError, match="can't specify both a device and a backend for jit, got device=dev0 and backend='cpu'"):
        jc.jit(lambda x: x, device="dev0", backend="cpu")


def test_jitted_function_has_the_wrapped_signature():
    def f(x, y=1, *, z):
        return x

    assert inspect.signature(jc.jit(f), follow_wrapped=False) == inspect.signature(f)
    assert inspect.signature(jc.jit(f, static_argnums=1)) == inspect.signature(f)


def test_compiled_program_queries_on_the_reference_backend_say_they_need_xla():
    compiled = jc.jit(lambda x: x + 1).lower(np.ones(3, np.float32)).compile()
    np.testing.assert_array_equal(compiled(np.ones(3, np.float32)), np.full(3, 2, np.float32))
    for query in (lambda: compiled.input_shardings, lambda: compiled.output_shardings, compiled.runtime_executable,
                  compiled.cost_analysis, compiled.memory_analysis):
        with pytest.raises(RuntimeError, match="needs a program compiled by XLA"):
            query()
