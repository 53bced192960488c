"""jit's trace/lower/compile stages on XLA, backend= and donation by keyword."""

import numpy as np
import pytest

import jaxle_core as jc
import jaxle_xla
from jaxle_core import lax


def test_lowered_text_names_module_and_aliases_donated_keyword_argument():
    g = jc.jit(lambda a, b: a * 2.0 + b, donate_argnames="b")
    x = np.ones(3, np.float32)
    text = g.lower(x, b=x).as_text()
    assert text.startswith("module @jit__lambda ")
    assert "func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<3xf32> {tf.aliasing_output = 0 : i32})" in text


def test_donating_a_keyword_argument_deletes_it():
    g = jc.jit(lambda a, b: a * 2.0 + b, donate_argnames="b")
    y = jaxle_xla.device_put(np.arange(3, dtype=np.float32))
    out = g(np.ones(3, np.float32), b=y)
    np.testing.assert_array_equal(np.asarray(out), [2.0, 3.0, 4.0])
    assert y.is_deleted()
    with pytest.raises(RuntimeError, match="Array has been deleted with shape=float32"):
        np.asarray(y)


def test_compiled_stage_runs_and_reports_costs():
    f = jc.jit(lambda a, b: lax.add(a, b))
    x = np.arange(4, dtype=np.float32)
    compiled = f.lower(x, x).compile()
    np.testing.assert_array_equal(np.asarray(compiled(x, x)), 2 * x)
    assert compiled.cost_analysis()["flops"] == 4.0
    assert compiled.memory_analysis().argument_size_in_bytes == 32
    assert "HloModule" in compiled.as_text()


def test_compiled_stage_rejects_other_argument_types():
    f = jc.jit(lambda a, b: lax.add(a, b))
    x = np.ones(3, np.float32)
    compiled = f.lower(x, x).compile()
    with pytest.raises(TypeError, match=r"Argument 'b' compiled with float32\[3\] and called with float32\[4\]"):
        compiled(x, np.ones(4, np.float32))


def test_backend_names_a_platform():
    h = jc.jit(lambda a: a + 1.0, backend="cpu")
    out = h(np.ones(2, np.float32))
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])
    assert out.device.platform == "cpu"


def test_compiler_ir_in_both_dialects():
    lowered = jc.jit(lambda a: lax.mul(a, a)).lower(np.ones(3, np.float32))
    hlo = lowered.compiler_ir(dialect="hlo").as_hlo_text()
    assert hlo.startswith("HloModule jit__lambda, entry_computation_layout={(f32[3]{0})->f32[3]{0}}")
    assert "f32[3]{0} multiply(" in hlo
    module = lowered.compiler_ir()
    assert str(module) == str(lowered.compiler_ir("stablehlo")) == lowered.as_text()
    with pytest.raises(ValueError, match="unknown dialect: foo"):
        lowered.compiler_ir(dialect="foo")
