"""Dot algorithm presets and DotAlgorithm as a contraction's precision: jaxprs, values and errors against JAX 0.10.2
goldens, and the presets' type tables."""

import importlib

import ml_dtypes
import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("dot_algorithm")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


def test_presets_print_and_describe_their_types():
    preset = lax.DotAlgorithmPreset.BF16_BF16_F32
    assert (repr(preset), str(preset)) == ("DotAlgorithmPreset.BF16_BF16_F32", "BF16_BF16_F32")
    assert preset.supported_lhs_types == (ml_dtypes.bfloat16, np.float32)
    assert preset.supported_output_types(np.dtype(ml_dtypes.bfloat16), np.dtype(ml_dtypes.bfloat16)) == (
        np.float32, ml_dtypes.bfloat16)
    assert lax.DotAlgorithmPreset.DEFAULT.accumulation_type is None
    algorithm = lax.DotAlgorithm(np.float16, np.float16, np.float32)
    assert algorithm.num_primitive_operations == 1 and not algorithm.allow_imprecise_accumulation


def test_f16_preset_rounds_operands_to_float16():
    # 2x2 operands: XLA's CPU backend runs the f16 algorithm only on matrix products, not on vector ones.
    lhs = np.array([[1 + 2.0 ** -15, 2.0], [1.0, 1.0]], np.float32)
    rhs = np.ones((2, 2), np.float32)
    assert float(np.asarray(lax.dot(lhs, rhs, precision="F16_F16_F16"))[0, 0]) == 3.0
    assert float(np.asarray(lax.dot(lhs, rhs, precision="F32_F32_F32"))[0, 0]) == np.float32(3 + 2.0 ** -15)


def test_unsupported_preset_message():
    with pytest.raises(ValueError, match="The precision 'TF32_TF32_F32' is not supported by dot_general on CPU"):
        lax.dot(np.ones((2, 2), np.float32), np.ones((2, 2), np.float32), precision="TF32_TF32_F32")
