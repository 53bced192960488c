"""The reference backend's block-scaled matmul against a NumPy formula (JAX runs it only through cuDNN, so its
values cannot be golden), and its shape errors."""

import ml_dtypes
import numpy as np
import pytest

from jaxle_core import jit
from jaxle_core.backend import use_backend
from jaxle_core.lax.scaled_matmul import scaled_matmul


@pytest.fixture(autouse=True)
def _reference_backend():
    """The reference computes the product; XLA's CPU backend refuses it, as JAX's does (in a combined test run)."""
    with use_backend("reference"):
        yield


def _blocks_scaled(x: np.ndarray, scales: np.ndarray) -> np.ndarray:
    return x.astype(np.float64) * np.repeat(scales.astype(np.float64), x.shape[2] // scales.shape[2], axis=2)


@pytest.mark.parametrize("data_type,scale_type,block", [
    (ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e8m0fnu, 32),
    (ml_dtypes.float4_e2m1fn, ml_dtypes.float8_e4m3fn, 16),
    (np.float32, np.float32, 2),
])
def test_block_scaled_product(data_type, scale_type, block):
    rng = np.random.default_rng(0)
    lhs = rng.uniform(-4, 4, (2, 3, 2 * block)).astype(data_type)
    rhs = rng.uniform(-4, 4, (2, 5, 2 * block)).astype(data_type)
    lhs_scales = (2.0 ** rng.integers(-3, 4, (2, 3, 2))).astype(scale_type)
    rhs_scales = (2.0 ** rng.integers(-3, 4, (2, 5, 2))).astype(scale_type)
    out = jit(scaled_matmul)(lhs, rhs, lhs_scales, rhs_scales)
    expected = np.einsum("bmk,bnk->bmn", _blocks_scaled(lhs, lhs_scales), _blocks_scaled(rhs, rhs_scales))
    assert out.dtype == np.float32 and out.shape == (2, 3, 5)
    np.testing.assert_allclose(np.asarray(out), expected, rtol=1e-6)


def test_preferred_element_type_rounds_the_product():
    lhs, rhs = np.full((1, 1, 4), 1.5, np.float32), np.full((1, 2, 4), 1.25, np.float32)
    scales = np.ones((1, 1, 1), np.float32)
    out = scaled_matmul(lhs, rhs, scales, np.ones((1, 2, 1), np.float32), preferred_element_type=ml_dtypes.bfloat16)
    assert out.dtype == ml_dtypes.bfloat16
    np.testing.assert_array_equal(np.asarray(out, np.float32), np.full((1, 1, 2), 7.5, np.float32))


def test_shape_errors():
    f8, e8 = ml_dtypes.float8_e4m3fn, ml_dtypes.float8_e8m0fnu
    with pytest.raises(ValueError, match="requires all inputs to be 3-dimensional arrays"):
        scaled_matmul(np.ones((2, 64), f8), np.ones((3, 64), f8), np.ones((2, 2), e8), np.ones((3, 2), e8))
    with pytest.raises(ValueError, match=r"scales to match non-contract dimensions of inputs, but got shapes "
                                         r"a: \(1, 2, 64\), b: \(1, 3, 64\), a_scales: \(1, 3, 2\)"):
        scaled_matmul(np.ones((1, 2, 64), f8), np.ones((1, 3, 64), f8), np.ones((1, 3, 2), e8),
                      np.ones((1, 3, 2), e8))
