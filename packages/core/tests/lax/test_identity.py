"""stop_gradient, copy and mulhi: values against exact references."""

import itertools

import numpy as np
import pytest

from jaxle_core import lax
from jaxle_core.config import enable_x64


def test_stop_gradient_and_copy_return_their_operand():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = lax.stop_gradient({"a": x, "b": (np.int32(3),)})
    np.testing.assert_array_equal(np.asarray(out["a"]), x)
    assert np.asarray(out["b"][0]).dtype == np.int32 and int(out["b"][0]) == 3
    np.testing.assert_array_equal(np.asarray(lax.copy_p.bind(x)), x)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_mulhi_is_the_high_half_of_the_exact_product(dtype):
    info = np.iinfo(dtype)
    values = np.array([info.min, info.min + 1, -3, -1, 0, 1, 7, info.max // 3, info.max - 1, info.max], dtype=object)
    values = np.array([v for v in values if info.min <= v <= info.max], dtype=dtype)
    x, y = (np.array(p, dtype) for p in zip(*itertools.product(values, values)))
    bits = np.dtype(dtype).itemsize * 8
    # Python's floor shift of the exact product is the two's complement high word.
    expected = [(a * b) >> bits for a, b in zip(x.tolist(), y.tolist())]
    with enable_x64(True):  # 64-bit inputs stay 64-bit
        assert np.asarray(lax.mulhi(x, y)).tolist() == expected


def test_mulhi_matches_jax_values():
    # Values printed by JAX 0.10.2 on CPU.
    assert int(lax.mulhi(np.int32(-5), np.int32(7))) == -1
    assert int(lax.mulhi(np.uint8(200), np.uint8(200))) == 156
    assert int(lax.mulhi(np.int32(2**30), np.int32(-(2**30)))) == -268435456
    with pytest.raises(TypeError):
        lax.mulhi(np.float32(1), np.float32(2))
