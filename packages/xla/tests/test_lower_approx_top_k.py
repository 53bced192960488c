"""approx_top_k lowers to XLA's ApproxTopK custom call in its CPU fallback form (as JAX), whose exact results
agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax


@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("is_max", [True, False])
def test_values_and_indices(dtype, is_max):
    fun = lax.approx_max_k if is_max else lax.approx_min_k
    # Distinct values: XLA's CPU fallback sort is not stable, so ties may come in any order.
    x = np.random.default_rng(0).permutation(60).reshape(3, 20).astype(dtype)
    check_against_reference(lambda x: fun(x, 5), x)
    check_against_reference(lambda x: fun(x, 2, reduction_dimension=0, aggregate_to_topk=False), x)


def test_long_input_keeps_xla_output_size():
    x = np.random.default_rng(1).permutation(3000).astype(np.float32)
    fun = lambda x: lax.approx_max_k(x, 5, aggregate_to_topk=False, recall_target=0.9)  # noqa: E731
    check_against_reference(fun, x)
    assert jc.jit(fun)(x)[0].shape == (2048,)


def test_lowered_text_and_jvp():
    x = np.arange(16, dtype=np.float32).reshape(2, 8)
    text = jc.jit(lambda x: lax.approx_max_k(x, 3)).lower(x).as_text()
    assert "stablehlo.custom_call @ApproxTopK" in text and "is_fallback = true" in text
    assert "reduction_dim = 1 : i64" in text and "top_k = 3 : i64" in text
    jvp = lambda x, t: jc.jvp(lambda y: lax.approx_min_k(y, 2)[0], (x,), (t,))  # noqa: E731
    check_against_reference(jvp, x[:, ::-1].copy(), np.ones_like(x))


def test_xla_refuses_out_of_range_recall():
    with pytest.raises(Exception, match="recall_target out of range"):
        jc.jit(lambda x: lax.approx_max_k(x, 1, recall_target=1.5))(np.ones(5, np.float32))
