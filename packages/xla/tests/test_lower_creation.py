"""XLA lowering of ``empty`` and the lax helpers built on other primitives (full, full_like, index_take,
broadcast_like, collapse), checked against core's reference and NumPy."""

import numpy as np
import pytest
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint32, np.float16, np.float32, np.complex64],
                         ids=lambda d: np.dtype(d).name)
def test_empty_is_zeros_of_its_type(dtype):
    check_against_reference(lambda: (lax.empty((2, 3), dtype), lax.empty((), dtype), lax.empty((0, 2), dtype)))
    out = jc.jit(lambda: lax.empty((2, 3), dtype))()
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(out), np.zeros((2, 3), dtype))


def test_helpers_on_xla_match_numpy():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    rows, cols = np.array([1, -1, 4], np.int32), np.array([3, 0, -5], np.int32)

    def f(x):
        return (lax.full((2, 3), 7, np.int16), lax.full_like(x, 0.5), lax.index_take(x, (rows, cols), (0, 2)),
                lax.broadcast_like(x[:, :1], np.zeros((5, 2, 3, 4))), lax.collapse(x, 1), lax.collapse(x, 0, 2))

    check_against_reference(f, x)
    expected = (np.full((2, 3), 7, np.int16), np.full_like(x, 0.5), x[rows % 2, :, cols % 4],
                np.broadcast_to(x[:, :1], (5, 2, 3, 4)), x.reshape(2, 12), x.reshape(6, 4))
    for got, want in zip(jc.jit(f)(x), expected, strict=True):
        assert np.asarray(got).dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
