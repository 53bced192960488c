"""Dot algorithm presets lower as JAX lowers them on CPU (operands converted to the preset's types, XLA's
``algorithm`` attribute, the result converted back) and agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax

PRESETS = ["DEFAULT", "F16_F16_F16", "BF16_BF16_F32", "BF16_BF16_F32_X3", "BF16_BF16_F32_X6", "F32_F32_F32",
           "F64_F64_F64"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.int32],
                         ids=lambda d: np.dtype(d).name)
def test_presets_agree_with_reference(preset, dtype):
    rng = np.random.default_rng(0)
    # Small integers: exact in every operand and accumulation type, so the paths agree exactly.
    lhs, rhs = (rng.integers(-4, 5, shape).astype(dtype) for shape in ((2, 3), (3, 4)))
    check_against_reference(lambda a, b: lax.dot(a, b, precision=preset), lhs, rhs, rtol=0)


def test_lowered_text():
    lhs, rhs = np.ones((2, 3), np.float32), np.ones((3, 2), np.float32)
    text = jc.jit(lambda a, b: lax.dot(a, b, precision="F16_F16_F16")).lower(lhs, rhs).as_text()
    assert "stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf16>" in text
    assert ("algorithm = <lhs_precision_type = f16, rhs_precision_type = f16, accumulation_type = f16, "
            "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
            "allow_imprecise_accumulation = false>") in text
    assert "(tensor<2x2xf16>) -> tensor<2x2xf32>" in text
    text = jc.jit(lambda a, b: lax.dot(a, b, precision="BF16_BF16_F32_X6")).lower(lhs, rhs).as_text()
    assert "num_primitive_operations = 6" in text and "convert" not in text
    assert "algorithm" not in jc.jit(lambda a, b: lax.dot(a, b, precision="DEFAULT")).lower(lhs, rhs).as_text()


def test_conv_ignores_the_algorithm_on_cpu():
    x, w = np.ones((1, 2, 5), np.float32), np.ones((3, 2, 2), np.float32)
    conv = lambda x, w: lax.conv_general_dilated(x, w, (1,), "VALID", precision="TF32_TF32_F32")  # noqa: E731
    check_against_reference(conv, x, w)
    assert "precision DEFAULT" in jc.jit(conv).lower(x, w).as_text()


def test_unsupported_preset_fails_to_lower():
    with pytest.raises(ValueError, match="The precision 'BF16_BF16_BF16' is not supported by dot_general on CPU"):
        jc.jit(lambda a, b: lax.dot(a, b, precision="BF16_BF16_BF16")).lower(np.ones((2, 2), np.float32),
                                                                           np.ones((2, 2), np.float32)).as_text()
