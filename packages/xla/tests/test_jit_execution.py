"""jit and eager execution on XLA: caching (counted), asynchrony, donation, unused arguments, lowering and
compiled-program introspection, as JAX 0.10.2 does them."""

import re
import warnings

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_xla
from jaxle_core import config, lax
from jaxle_xla import XlaArray, xla_backend
from jaxle_xla.executable import Executable

DELETED = r"Array has been deleted with shape=float32\[3\]\."


class Counts:
    """XLA compilations (and, given a jitted function, traces) since creation."""

    def __init__(self, jitted=None):
        self.jitted = jitted
        self.compiles0 = Executable.compile_count
        self.traces0 = jitted.trace_count if jitted is not None else 0

    @property
    def compiles(self) -> int:
        return Executable.compile_count - self.compiles0

    @property
    def traces(self) -> int:
        return self.jitted.trace_count - self.traces0


def f32(*values):
    return np.array(values, np.float32)


def test_jit_returns_xla_arrays():
    f = jc.jit(lambda a, b: (a * b + a, {"neg": -b}))
    out, extra = f(f32(1, 2, 3), jaxle_xla.device_put(f32(2, 2, 2)))
    assert type(out) is XlaArray and type(extra["neg"]) is XlaArray
    np.testing.assert_array_equal(np.asarray(out), [3, 6, 9])
    np.testing.assert_array_equal(np.asarray(extra["neg"]), [-2, -2, -2])


def test_a_cache_hit_neither_retraces_nor_recompiles():
    f = jc.jit(lambda a, b: a * b)
    counts = Counts(f)
    f(f32(1, 2, 3), f32(1, 2, 3))
    assert (counts.traces, counts.compiles) == (1, 1)
    f(f32(4, 5, 6), jaxle_xla.device_put(f32(1, 1, 1)))  # same signature: NumPy or device arrays alike
    assert (counts.traces, counts.compiles) == (1, 1)
    signatures = [(f32(1, 2), f32(1, 2)),  # shape
                  (np.array([1, 2, 3], np.int32), np.array([1, 2, 3], np.int32)),  # dtype
                  (np.float32(2), np.float32(3)),  # rank 0, strongly typed
                  (2.0, 3.0)]  # weakly typed
    for i, args in enumerate(signatures, start=2):
        f(*args)
        assert (counts.traces, counts.compiles) == (i, i)
        f(*args)
        assert (counts.traces, counts.compiles) == (i, i)
    assert f(2.0, 3.0).weak_type and not f(np.float32(2), np.float32(3)).weak_type


def test_static_arguments_are_part_of_the_signature():
    f = jc.jit(lambda x, n: x * n, static_argnums=1)
    counts = Counts(f)
    assert float(f(np.float32(2), 3)) == 6.0
    assert float(f(np.float32(5), 3)) == 15.0
    assert (counts.traces, counts.compiles) == (1, 1)
    assert float(f(np.float32(2), 4)) == 8.0
    assert (counts.traces, counts.compiles) == (2, 2)


def test_the_x64_flag_is_part_of_the_signature():
    f = jc.jit(lambda x: x + 1)
    counts = Counts(f)
    assert f(3).dtype == np.int32
    with config.enable_x64(True):
        assert f(3).dtype == np.int64
        assert f(3).dtype == np.int64
    assert f(3).dtype == np.int32
    assert (counts.traces, counts.compiles) == (2, 2)


def test_eager_primitives_compile_once_per_signature():
    # Shapes no other test uses, so that the cache starts cold whatever ran before in this process.
    value = np.linspace(0, 1, 18, dtype=np.float32).reshape(2, 9, 1)
    x = jaxle_xla.device_put(value)
    counts = Counts()
    lax.sin(x)
    assert counts.compiles == 1
    np.testing.assert_allclose(np.asarray(lax.sin(x)), np.sin(value), rtol=1e-6)
    lax.sin(jaxle_xla.device_put(value + 1))
    assert counts.compiles == 1
    lax.sin(value.reshape(2, 1, 9))  # a new shape
    assert counts.compiles == 2
    lax.cos(x)  # a new primitive
    assert counts.compiles == 3
    lax.cos(value)  # a host array of the same signature
    assert counts.compiles == 3


def test_eager_python_scalars_are_weak_arguments_not_constants():
    x = jaxle_xla.device_put(np.array([1, 2, 3], np.int8))
    y = x * 3
    assert y.dtype == np.int8 and not y.weak_type
    counts = Counts()
    z = x * 5  # another scalar value: the same executable
    np.testing.assert_array_equal(np.asarray(z), [5, 10, 15])
    assert counts.compiles == 0
    w = jaxle_xla.device_put(2.0) * 2.0
    assert w.weak_type and w.dtype == np.float32


def _heavy(a):
    for _ in range(15):
        a = lax.sin(a) * 1.0001 + lax.cos(a)
    return a


def test_dispatch_is_asynchronous():
    heavy = jc.jit(_heavy)
    x = jaxle_xla.device_put(np.linspace(0, 1, 1 << 20, dtype=np.float32))
    first = heavy(x)
    lax.sin(first).block_until_ready()  # compile both programs before timing anything
    y = heavy(x)
    z = lax.sin(y)  # eager work queued behind the running program, without waiting for it
    pending = (y.is_ready(), z.is_ready())
    z.block_until_ready()
    assert pending == (False, False)
    assert y.is_ready()
    np.testing.assert_array_equal(np.asarray(z), np.asarray(lax.sin(first)))


def test_donated_arguments_are_deleted():
    f = jc.jit(lambda a, b: a * 2.0 + b, donate_argnums=0)
    x, y = jaxle_xla.device_put(f32(0, 1, 2)), jaxle_xla.device_put(f32(1, 1, 1))
    out = f(x, y)
    np.testing.assert_array_equal(np.asarray(out), [1, 3, 5])
    assert x.is_deleted() and not y.is_deleted()
    for use in [np.asarray, repr, lambda a: a + 1, jc.jit(lambda a: a * 3.0)]:
        with pytest.raises(RuntimeError, match=DELETED):
            use(x)
    for _ in range(2):  # the donating function's cached call runs in jaxlib's C++ dispatch, whose error JAX gives
        with pytest.raises(ValueError, match="Buffer has been deleted or donated"):
            f(x, y)
    f(f32(0, 1, 2), y)  # a host value can be donated too: its fresh device copy is
    assert not y.is_deleted()


def test_donate_argnames():
    f = jc.jit(lambda a, b: a - b, donate_argnames="b")
    x, y = jaxle_xla.device_put(f32(3, 3, 3)), jaxle_xla.device_put(f32(1, 2, 3))
    np.testing.assert_array_equal(np.asarray(f(x, y)), [2, 1, 0])
    assert y.is_deleted() and not x.is_deleted()


def test_a_donation_no_output_can_use_warns_and_keeps_the_array():
    f = jc.jit(lambda a: (a * 2.0)[0], donate_argnums=0)
    x = jaxle_xla.device_put(np.ones((2, 2), np.float32))
    with pytest.warns(UserWarning, match=r"Some donated buffers were not usable: float32\[2,2\]"):
        out = f(x)
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])
    assert not x.is_deleted()


def test_unused_arguments_are_not_donated():
    x, y = jaxle_xla.device_put(f32(1, 2, 3)), jaxle_xla.device_put(f32(1, 2, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jc.jit(lambda a, b: b * 2.0, donate_argnums=(0, 1))(x, y)
    assert not x.is_deleted() and y.is_deleted()


def test_an_array_whose_value_was_read_is_not_donated():
    # As JAX on CPU: jaxlib skips donating an array whose host value was read (kept on the array), and the
    # array stays usable; one never read is donated.
    x = jaxle_xla.device_put(f32(1, 2, 3)) * 1.0
    host = np.asarray(x)
    out = jc.jit(lambda a: a * 2.0, donate_argnums=0)(x)
    assert not x.is_deleted()
    np.testing.assert_array_equal(np.asarray(x), [1, 2, 3])
    y = jaxle_xla.device_put(f32(1, 2, 3)) * 1.0
    jc.jit(lambda a: a * 2.0, donate_argnums=0)(y)
    assert y.is_deleted()
    np.testing.assert_array_equal(np.asarray(out), 2 * host)


def test_an_array_cannot_be_donated_and_used_in_one_call():
    f = jc.jit(lambda a, b: a + b, donate_argnums=0)
    x = jaxle_xla.device_put(f32(1, 2, 3))
    with pytest.raises(RuntimeError, match="previously donated in the same call"):
        f(x, x)


def _parameters(hlo: str) -> int:
    entry = hlo[hlo.index("ENTRY"):]
    return len(re.findall(r"parameter\(\d+\)", entry))


def test_unused_arguments_are_pruned_unless_kept():
    def f(a, unused, b):
        return a + b

    args = (f32(1, 2), f32(7, 7, 7), f32(3, 4))
    pruned, kept = jc.jit(f), jc.jit(f, keep_unused=True)
    np.testing.assert_array_equal(np.asarray(pruned(*args)), [4, 6])
    np.testing.assert_array_equal(np.asarray(kept(*args)), [4, 6])
    assert _parameters(pruned.lower(*args).compile().as_text()) == 2
    assert _parameters(kept.lower(*args).compile().as_text()) == 3
    assert "%arg2" not in pruned.lower(*args).as_text()


def test_equations_no_output_needs_are_dropped_with_the_inputs_only_they_read_unless_kept():
    def f(a, read_by_dead_code, b):
        lax.sin(read_by_dead_code)
        lax.cos(a)
        return a * b

    args = (f32(1, 2), f32(7, 7, 7), f32(3, 4))
    pruned, kept = jc.jit(f), jc.jit(f, keep_unused=True)
    np.testing.assert_array_equal(np.asarray(pruned(*args)), [3, 8])
    np.testing.assert_array_equal(np.asarray(kept(*args)), [3, 8])
    text = pruned.lower(*args).as_text()  # as JAX's: only the multiply, over the two arguments it reads
    assert "sine" not in text and "cosine" not in text and "%arg2" not in text
    assert [info.donated for info in pruned.lower(*args).compile().args_info[0]] == [False] * 3
    assert "sine" in kept.lower(*args).as_text() and "cosine" in kept.lower(*args).as_text()


def test_jit_on_a_device_commits_its_outputs():
    device = jaxle_xla.devices()[0]
    f = jc.jit(lambda a: a + 1.0, device=device)
    out = f(f32(1, 2))
    assert out.device == device and out.committed
    follow = jc.jit(lambda a: a + 1.0)
    assert not follow(f32(1, 2)).committed
    assert follow(jaxle_xla.device_put(f32(1, 2), device)).committed


def test_compiling_for_a_backend_by_platform_name():
    closed = jc.make_jaxpr(lambda a: lax.exp(a))(f32(0, 1))
    executable = xla_backend.compile(closed, "exp", (False,), False, "cpu")
    (out,) = executable(f32(0, 1))
    assert out.device == jaxle_xla.devices("cpu")[0] and out.committed
    np.testing.assert_allclose(np.asarray(out), np.exp([0, 1]), rtol=1e-6)
    with pytest.raises(RuntimeError, match="Unknown backend"):
        xla_backend.compile(closed, "exp", (False,), False, "tpu")


def test_lowered_text_is_stablehlo():
    def f(a, b):
        return lax.sin(a) * b

    text = jc.jit(f).lower(f32(1, 2, 3), f32(1, 1, 1)).as_text()
    assert text.startswith("module @jit_f")
    assert ('func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32>) -> (tensor<3xf32> '
            '{jax.result_info = "result"})') in text
    assert "stablehlo.sine %arg0" in text and "stablehlo.multiply" in text


def test_lowered_text_shows_donation_and_pruning():
    closed = jc.make_jaxpr(lambda a, unused, b: a * b)(f32(1, 2), f32(3), f32(1, 2))
    text = xla_backend.lower_text(closed, "f", (True, False, False), False)
    assert "@main(%arg0: tensor<2xf32> {tf.aliasing_output = 0 : i32}, %arg1: tensor<2xf32>)" in text
    kept = xla_backend.lower_text(closed, "f", (), True)
    assert "%arg2: tensor<2xf32>" in kept and "aliasing" not in kept


def test_compiled_program_text_and_analyses():
    f = jc.jit(lambda a, b: a * 2.0 + b)
    compiled = f.lower(f32(1, 2, 3), f32(1, 1, 1)).compile()
    hlo = compiled.as_text()
    assert hlo.startswith("HloModule jit__lambda")
    assert "ENTRY" in hlo and "f32[3]" in hlo
    np.testing.assert_array_equal(np.asarray(compiled(f32(1, 2, 3), f32(1, 1, 1))), [3, 5, 7])

    closed = jc.make_jaxpr(lambda a, b: a * 2.0 + b)(f32(1, 2, 3), f32(1, 1, 1))
    executable = xla_backend.compile(closed, "f", (False, False), False, None)
    costs = executable.cost_analysis()
    assert costs["flops"] == 6.0 and costs["bytes accessed"] == 36.0
    memory = executable.memory_analysis()
    assert (memory.argument_size_in_bytes, memory.output_size_in_bytes) == (24, 12)


def test_large_constants():
    table = np.arange(1000, dtype=np.float32)
    f = jc.jit(lambda a: a + table)
    np.testing.assert_array_equal(np.asarray(f(np.float32(1))), table + 1)
    text = f.lower(np.float32(1)).as_text()  # as JAX prints it: the constant inline
    assert "@main(%arg0: tensor<f32>)" in text and "stablehlo.constant dense<" in text


def test_jit_of_a_deleted_array_raises():
    x = jaxle_xla.device_put(f32(1, 2, 3))
    x.delete()
    with pytest.raises(RuntimeError, match=DELETED):
        jc.jit(lambda a: a * 2.0)(x)


def test_a_usable_donation_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jc.jit(lambda a: a * 3.0, donate_argnums=0)(f32(1, 2))
