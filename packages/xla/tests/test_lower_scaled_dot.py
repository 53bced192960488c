"""scaled_dot lowers to JAX's ``xla.scaled_dot`` composite, whose decomposition XLA runs on CPU, and agrees with
core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax


def _f8(rng, shape):
    return rng.standard_normal(shape).astype(ml_dtypes.float8_e4m3fn)


def _scales(rng, shape):
    return (2.0 ** rng.integers(-2, 3, shape)).astype(ml_dtypes.float8_e8m0fnu)


@pytest.mark.parametrize("preferred", [ml_dtypes.bfloat16, np.float32], ids=lambda d: np.dtype(d).name)
def test_block_scaled_product(preferred):
    rng = np.random.default_rng(0)
    args = (_f8(rng, (2, 4, 64)), _f8(rng, (2, 64, 3)), _scales(rng, (2, 4, 2)), _scales(rng, (2, 2, 3)))
    fun = lambda a, b, c, d: lax.scaled_dot(a, b, lhs_scale=c, rhs_scale=d,  # noqa: E731
                                            preferred_element_type=preferred)
    check_against_reference(fun, *args, rtol=1e-2, atol=1e-2)
    text = jc.jit(fun).lower(*args).as_text()
    assert 'stablehlo.composite "xla.scaled_dot"' in text and "composite_attributes = {dimension_numbers = " \
        "[[[2], [1]], [[0], [0]]]" in text and "decomposition = @xla.scaled_dot" in text


def test_default_scales_and_vmap():
    rng = np.random.default_rng(1)
    lhs, rhs = rng.integers(-3, 4, (3, 8)).astype(np.float32), rng.integers(-3, 4, (8, 2)).astype(np.float32)
    check_against_reference(lambda a, b: lax.scaled_dot(a, b), lhs, rhs)
    check_against_reference(jc.vmap(lambda a, b: lax.scaled_dot(a, b), (0, None)), lhs[None], rhs)
