"""Host callbacks compiled by XLA: the custom call jaxlib routes to Python, the Arrays callbacks receive,
ordering through tokens, errors surfacing as jaxlib's JaxRuntimeError, and debug printing."""

from __future__ import annotations

import numpy as np
import pytest

import jaxle_core as jc
from jaxle_core import debugging, lax
from jaxle_core.avals import get_aval
from jaxle_core.callbacks import io_callback
from jaxle_xla import XlaArray, _jaxlib

f32 = np.float32
x = np.arange(3, dtype=f32)
m = np.arange(6, dtype=f32).reshape(2, 3)


def like(a):
    aval = get_aval(a)
    return jc.ShapeDtypeStruct(aval.shape, aval.dtype)


def tag_logger(log, tag):
    """A host function that appends ``tag`` to ``log`` and returns its argument."""
    def record(a):
        log.append(tag)
        return np.asarray(a)
    return record


@pytest.mark.parametrize("wrap", [lambda f: f, jc.jit], ids=["eager", "jit"])
def test_pure_callback_runs_on_the_host_with_device_arrays(wrap):
    seen = []

    def host(a):
        seen.append(a)
        return np.sin(a)

    out = wrap(lambda a: jc.pure_callback(host, like(a), a) * 2)(x)
    assert isinstance(out, XlaArray)
    np.testing.assert_allclose(np.asarray(out), 2 * np.sin(x), rtol=1e-6)
    assert len(seen) == 1 and isinstance(seen[0], XlaArray)
    np.testing.assert_array_equal(np.asarray(seen[0]), x)


def test_weak_types_reach_the_callback():
    seen = []
    jc.jit(lambda: debugging.callback(seen.append, 2))()
    assert seen[0].aval.weak_type and seen[0].dtype == np.int32


def test_lowering_names_the_callback_by_index():
    def f(a):
        debugging.print("a={}", a)
        return io_callback(np.sin, like(a), a, ordered=True) + jc.pure_callback(np.cos, like(a), a)

    text = jc.jit(f).lower(x).as_text()
    calls = [line for line in text.splitlines() if "xla_ffi_python_cpu_callback" in line]
    assert len(calls) == 3
    assert "index = 0 : ui64" in calls[0] and "has_side_effect = true" in calls[0]
    assert "(!stablehlo.token, tensor<3xf32>) -> (!stablehlo.token, tensor<3xf32>)" in calls[1]
    assert "index = 2 : ui64" in calls[2] and "has_side_effect" not in calls[2]
    np.testing.assert_allclose(np.asarray(jc.jit(f)(x)), np.sin(x) + np.cos(x), rtol=1e-6)


def test_pytrees_keywords_and_several_results():
    def host(pair, *, scale):
        return {"sum": np.asarray(pair[0]) + pair[1], "scaled": np.asarray(pair[0]) * scale}

    out = jc.jit(lambda a: jc.pure_callback(host, {"sum": like(a), "scaled": like(a)}, (a, a), scale=3.0))(x)
    np.testing.assert_allclose(np.asarray(out["sum"]), 2 * x)
    np.testing.assert_allclose(np.asarray(out["scaled"]), 3 * x)


@pytest.mark.parametrize("host, message", [
    (lambda a: np.zeros(4, f32), "Incorrect output shape for return value #0: Expected: (3,), Actual: (4,)"),
    (lambda a: np.zeros(3, np.int32), "Incorrect output dtype for return value #0: Expected: float32, Actual: int32"),
])
def test_wrong_results_fail_the_execution(host, message):
    with pytest.raises(_jaxlib.XlaRuntimeError) as info:
        jc.jit(lambda a: jc.pure_callback(host, like(a), a))(x)
    assert str(info.value).startswith("INTERNAL: CpuCallback error calling callback: Traceback")
    assert message in str(info.value)


@pytest.mark.parametrize("stage", [
    lambda host, a: jc.pure_callback(host, like(a), a),
    lambda host, a: io_callback(host, like(a), a),
    lambda host, a: debugging.callback(host, a),
], ids=["pure", "io", "debug"])
def test_callback_exceptions_surface_at_the_call(stage, caplog):
    def host(a):
        raise ValueError("boom")

    with pytest.raises(_jaxlib.XlaRuntimeError, match="ValueError: boom"):
        jc.jit(lambda a: stage(host, a))(x)
    assert " failed" in caplog.text


def test_ordered_io_callbacks_run_in_program_order():
    log = []

    def f(a):
        for tag in range(6):
            a = a + io_callback(tag_logger(log, tag), like(x), x, ordered=True)
        return a

    for _ in range(3):
        log.clear()
        jc.jit(f)(x)
        assert log == list(range(6))


def test_io_callback_in_loops_runs_every_iteration_in_order():
    log = []

    def host(row):
        log.append(np.asarray(row).tolist())
        return np.asarray(row)

    def body(carry, row):
        return carry + io_callback(host, like(row), row, ordered=True), None

    out = jc.jit(lambda a: lax.scan(body, np.zeros(3, f32), a)[0])(m)
    np.testing.assert_array_equal(np.asarray(out), m.sum(0))
    assert log == m.tolist()
    log.clear()
    count = jc.jit(lambda n: lax.fori_loop(0, n, lambda i, c: c + io_callback(host, like(c), c), f32(1)))(3)
    assert float(count) == 8.0 and log == [1.0, 2.0, 4.0]


@pytest.mark.parametrize("method, shapes", [
    ("sequential", [((2,), (2,))] * 3),
    ("expand_dims", [((3, 2), (1, 2))]),
    ("broadcast_all", [((3, 2), (3, 2))]),
    ("legacy_vectorized", [((3, 2), (2,))]),
])
def test_vmap_methods_on_xla(method, shapes):
    seen = []

    def host(a, b):
        seen.append((a.shape, b.shape))
        return np.asarray(a) * np.asarray(b)

    b = np.array([1.0, 10.0], f32)
    out = jc.jit(jc.vmap(lambda r, s: jc.pure_callback(host, like(r), r, s, vmap_method=method), (1, None)))(m, b)
    np.testing.assert_array_equal(np.asarray(out), m.T * b)
    assert seen == shapes


def test_debug_print_on_xla(capsys):
    def f(a):
        debugging.print("x={x}", x=a)
        debugging.print("y={} {}", a, "label", ordered=True)
        return a * 2

    def printed() -> list[str]:  # unordered prints of one program may come in any order, as in JAX
        return sorted(capsys.readouterr().out.splitlines())

    jc.jit(f)(x)
    assert printed() == ["x=[0. 1. 2.]", "y=[0. 1. 2.] label"]
    jc.vmap(lambda r: debugging.print("v {}", r))(m)
    assert printed() == ["v [0. 1. 2.]", "v [3. 4. 5.]"]
    g = jc.jit(jc.grad(lambda a: (debugging.print("g {}", a), lax.reduce_sum(a * a, (0,)))[1]))(x)
    np.testing.assert_array_equal(np.asarray(g), 2 * x)
    assert printed() == ["g [0. 1. 2.]"]


def test_debug_print_in_an_unused_inner_jit_still_prints(capsys):
    inner = jc.jit(lambda a: (debugging.print("inner {}", a), a)[1])
    out = jc.jit(lambda a: (inner(a), a + 1)[1])(x)
    np.testing.assert_array_equal(np.asarray(out), x + 1)
    assert capsys.readouterr().out == "inner [0. 1. 2.]\n"


def test_ordered_effects_keep_program_order_across_loops_branches_and_inner_jits():
    log = []

    scalar = jc.ShapeDtypeStruct((), f32)

    def emit(tag, a):
        return io_callback(tag_logger(log, tag), scalar, a, ordered=True)

    def f(a, flag):
        total = emit("first", a)
        total = total + lax.scan(lambda c, r: (c + emit("scan", r), None), f32(0), lax.broadcast_in_dim(a, (2,), ()))[0]
        total = total + jc.jit(lambda b: emit("inner jit", b))(a)
        total = total + lax.cond(flag, lambda b: emit("true branch", b), lambda b: b, a)
        total = total + lax.fori_loop(0, flag.astype(np.int32) + 1, lambda i, c: c + emit("while", a), f32(0))
        debugging.print("print", ordered=True)
        return total + emit("last", a)

    for flag in (True, False):
        log.clear()
        jc.jit(f)(f32(1), np.bool_(flag))
        assert log == ["first", "scan", "scan", "inner jit"] + ["true branch"] * flag + ["while"] * (1 + flag) + [
            "last"]
