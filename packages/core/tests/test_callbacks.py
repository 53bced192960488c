"""Host callbacks on the reference backend: ``pure_callback``, ``io_callback``, ``debug.print``,
``debug.callback`` and ``debug.breakpoint`` — their jaxprs (JAX 0.10.2's text), values, call counts, batching,
differentiation and errors."""

from __future__ import annotations

import io

import numpy as np
import pytest
from jvp_checks import assert_jaxprs_match_golden
from make_callbacks_golden import render

import jaxle_core as jc
import jaxle_core.core  # noqa: F401
from jaxle_core import debugging, lax
from jaxle_core.array import Array
from jaxle_core.callbacks import io_callback

f32 = np.float32
x = np.arange(3, dtype=f32)
m = np.arange(6, dtype=f32).reshape(2, 3)


def like(a):
    aval = jc.core.get_aval(a)
    return jc.ShapeDtypeStruct(aval.shape, aval.dtype)


class Recorder:
    """A host function that records the shapes and values it is called with."""

    def __init__(self, fun=np.sin):
        self.fun = fun
        self.calls: list[tuple] = []

    def __call__(self, *args):
        self.calls.append(tuple(np.array(a) for a in args))
        return self.fun(*args)


def test_jaxprs_match_jax():
    assert_jaxprs_match_golden("callbacks_golden.json", render)


@pytest.mark.parametrize("wrap", [lambda f: f, jc.jit], ids=["eager", "jit"])
def test_pure_callback_values_and_arguments(wrap):
    record = Recorder()
    out = wrap(lambda a: jc.pure_callback(record, like(a), a))(x)
    np.testing.assert_allclose(np.asarray(out), np.sin(x), rtol=1e-6)
    assert isinstance(out, Array) and out.dtype == f32
    assert len(record.calls) == 1
    np.testing.assert_array_equal(record.calls[0][0], x)


def test_callback_receives_arrays_and_pytrees_with_keywords():
    seen = {}

    def host(pair, *, scale):
        seen["types"] = [type(pair[0]), type(pair[1]), type(scale)]
        return {"sum": np.asarray(pair[0]) + pair[1], "scaled": np.asarray(pair[0]) * scale}

    out = jc.jit(lambda a: jc.pure_callback(host, {"sum": like(a), "scaled": like(a)}, (a, a), scale=2.0))(x)
    np.testing.assert_allclose(np.asarray(out["sum"]), 2 * x)
    np.testing.assert_allclose(np.asarray(out["scaled"]), 2 * x)
    assert all(issubclass(t, Array) for t in seen["types"])


def test_results_are_converted_to_the_canonical_dtype():
    # A float64 result is a float32 one with 64-bit types off, as in JAX.
    out = jc.pure_callback(lambda a: np.asarray(a, np.float64) * 2, like(x), x)
    assert out.dtype == f32
    np.testing.assert_array_equal(np.asarray(out), 2 * x)


@pytest.mark.parametrize("host, message", [
    (lambda a: np.zeros(4, f32), "Incorrect output shape for return value #0: Expected: (3,), Actual: (4,)"),
    (lambda a: np.zeros(3, np.int32), "Incorrect output dtype for return value #0: Expected: float32, Actual: int32"),
    (lambda a: (a, a), "Mismatched number of outputs from callback. Expected: 1, Actual: 2"),
])
def test_wrong_results_raise_runtime_error(host, message):
    with pytest.raises(RuntimeError) as info:
        jc.pure_callback(host, like(x), x)
    assert str(info.value) == message


def test_callback_exception_propagates_and_is_logged(caplog):
    def host(a):
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        jc.pure_callback(host, like(x), x)
    assert "jax.pure_callback failed" in caplog.text
    assert {record.name for record in caplog.records} == {"jax._src.callback"}  # JAX's logger, which libraries filter


def test_invalid_vmap_method():
    with pytest.raises(ValueError, match="vmap_method must be on of the allowed methods .* but got: foo"):
        jc.pure_callback(np.sin, like(x), x, vmap_method="foo")


@pytest.mark.parametrize("method, seen", [
    ("sequential", [((2,), (2,))] * 3),
    ("sequential_unrolled", [((2,), (2,))] * 3),
    ("expand_dims", [((3, 2), (1, 2))]),
    ("broadcast_all", [((3, 2), (3, 2))]),
    ("legacy_vectorized", [((3, 2), (2,))]),
])
def test_vmap_methods(method, seen):
    record = Recorder(lambda a, b: np.asarray(a) * np.asarray(b))
    b = np.array([1.0, 10.0], f32)
    out = jc.vmap(lambda r, s: jc.pure_callback(record, like(r), r, s, vmap_method=method), (1, None))(m, b)
    np.testing.assert_array_equal(np.asarray(out), m.T * b)
    assert [tuple(a.shape for a in call) for call in record.calls] == seen


def test_nested_vmap_expand_dims_calls_once():
    record = Recorder(lambda a, b: np.asarray(a) * np.asarray(b))
    f = lambda r, s: jc.pure_callback(record, like(r), r, s, vmap_method="expand_dims")  # noqa: E731
    out = jc.vmap(jc.vmap(f, (0, None)), (0, None))(np.ones((4, 2, 3), f32), np.arange(3, dtype=f32))
    np.testing.assert_array_equal(np.asarray(out), np.broadcast_to(np.arange(3, dtype=f32), (4, 2, 3)))
    assert [tuple(a.shape for a in call) for call in record.calls] == [((4, 2, 3), (1, 1, 3))]


def test_vmap_without_method_is_refused():
    with pytest.raises(NotImplementedError, match="Got vmap_method=None"):
        jc.vmap(lambda r: jc.pure_callback(np.sin, like(r), r))(m)


def test_pure_callback_cannot_be_differentiated():
    message = "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while taking gradients."
    with pytest.raises(ValueError) as info:
        jc.grad(lambda a: lax.reduce_sum(jc.pure_callback(np.sin, like(a), a), (0,)))(x)
    assert str(info.value) == message


def test_pure_callback_inside_custom_jvp_is_differentiable():
    @jc.custom_jvp
    def host_sin(a):
        return jc.pure_callback(np.sin, like(a), a)

    host_sin.defjvp(lambda p, t: (host_sin(p[0]), jc.pure_callback(np.cos, like(p[0]), p[0]) * t[0]))
    g = jc.grad(lambda a: lax.reduce_sum(host_sin(a), (0,)))(x)
    np.testing.assert_allclose(np.asarray(g), np.cos(x), rtol=1e-6)


def test_io_callback_runs_once_per_call_in_order():
    log = []

    def host(a):
        log.append(float(np.asarray(a)))
        return np.asarray(a) * 2

    f = jc.jit(lambda a: io_callback(host, like(a), a, ordered=True) + io_callback(host, like(a), a + 1,
                                                                                  ordered=True))
    assert float(f(f32(1.0))) == 6.0
    assert float(f(f32(5.0))) == 22.0
    assert log == [1.0, 2.0, 5.0, 6.0]


def test_io_callback_in_scan_runs_each_iteration_in_order():
    log = []

    def host(row):
        log.append(np.array(row).tolist())
        return np.asarray(row)

    def body(carry, row):
        return carry + io_callback(host, like(row), row, ordered=True), None

    out = jc.jit(lambda a: lax.scan(body, np.zeros(3, f32), a)[0])(m)
    np.testing.assert_array_equal(np.asarray(out), m.sum(0))
    assert log == m.tolist()


def test_io_callback_vmap_and_jvp():
    record = Recorder()
    out = jc.vmap(lambda r: io_callback(record, like(r), r))(m)
    np.testing.assert_allclose(np.asarray(out), np.sin(m), rtol=1e-6)
    assert len(record.calls) == 2
    with pytest.raises(ValueError, match="^Cannot `vmap` ordered IO callback.$"):
        jc.vmap(lambda r: io_callback(np.sin, like(r), r, ordered=True))(m)
    with pytest.raises(ValueError, match="^IO callbacks do not support JVP.$"):
        jc.grad(lambda a: lax.reduce_sum(io_callback(np.sin, like(a), a), (0,)))(x)


def _prints(a):
    debugging.print("x={x}", x=a)
    debugging.print("y={} {}", a, "label", ordered=True)
    debugging.print("n={} f={:.2f}", 2, f32(1.5))
    return a


@pytest.mark.parametrize("wrap", [lambda f: f, jc.jit], ids=["eager", "jit"])
def test_debug_print(wrap, capsys):
    wrap(_prints)(x)
    assert capsys.readouterr().out == "x=[0. 1. 2.]\ny=[0. 1. 2.] label\nn=2 f=1.50\n"


def test_debug_print_under_vmap_and_grad(capsys):
    jc.vmap(lambda r: debugging.print("v {}", r))(m)
    assert capsys.readouterr().out == "v [0. 1. 2.]\nv [3. 4. 5.]\n"
    g = jc.grad(lambda a: (debugging.print("g {}", a), lax.reduce_sum(a * a, (0,)))[1])(x)
    np.testing.assert_array_equal(np.asarray(g), 2 * x)
    assert capsys.readouterr().out == "g [0. 1. 2.]\n"


def test_debug_print_uses_print_options_of_staging_time(capsys):
    with np.printoptions(precision=2):
        f = jc.jit(lambda a: debugging.print("p {}", a / 3))
        f(x)
    f(x)
    assert capsys.readouterr().out == "p [0.   0.33 0.67]\np [0.   0.33 0.67]\n"


def test_debug_print_inside_unused_jit_is_kept(capsys):
    inner = jc.jit(lambda a: (debugging.print("inner {}", a), a)[1])
    jc.jit(lambda a: (inner(a), 1.0)[1])(x)
    assert capsys.readouterr().out == "inner [0. 1. 2.]\n"


@pytest.mark.parametrize("call, error, message", [
    (lambda: debugging.print("{} {}", 1), IndexError, None),
    (lambda: debugging.print("{z}", 1), KeyError, None),
    (lambda: debugging.print(3), TypeError, "^expected str, got int$"),
    (lambda: debugging.print("{}", x, b=x), ValueError, r"^Unused keyword arguments to `jax.debug.print`: \['b'\]"),
    (lambda: debugging.print("no placeholders", x), ValueError, "^Unused positional arguments to `jax.debug.print`"),
    (lambda: debugging.callback(3), TypeError,
     "^first argument to jax.debug.callback must be callable, but got an object of type <class 'int'>$"),
])
def test_debug_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("wrap", [lambda f: f, jc.jit], ids=["eager", "jit"])
def test_debug_callback_static_and_keyword_arguments(wrap):
    seen = []
    wrap(lambda a: debugging.callback(lambda *args, **kw: seen.append((args, kw)), a, "s", 3, sep="|"))(x)
    ((args, kwargs),) = seen
    np.testing.assert_array_equal(np.asarray(args[0]), x)
    assert args[1] == "s" and isinstance(args[2], Array) and int(args[2]) == 3
    assert kwargs == {"sep": "|"}


def test_debug_callback_as_decorator_and_under_vmap():
    seen = []

    @debugging.callback(ordered=True)
    def record(a):
        seen.append(np.array(a).tolist())

    jc.vmap(record)(m)
    assert seen == m.tolist()


def test_breakpoint_opens_the_debugger_with_the_arrays(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO("p value * 2\nc\n"))

    def f(value):
        debugging.breakpoint()
        return value

    jc.jit(f)(x)
    assert "(jdb) Array([0., 2., 4.], dtype=float32)" in capsys.readouterr().out


def test_debug_log_records_the_text_at_the_calling_line(caplog):
    caplog.set_level("INFO", logger="jaxle_core.debugging")
    jc.jit(lambda a: debugging.log("logged {}", a))(x)
    (record,) = caplog.records
    assert record.getMessage() == "logged [0. 1. 2.]" and record.levelname == "INFO"
    assert record.pathname == __file__
