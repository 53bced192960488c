"""scatter_apply lowers to a scatter whose region applies the function (as JAX's), and agrees with core's NumPy
reference, repeated and out-of-bounds indices included."""

import numpy as np
from conftest import check_against_reference

import jaxle_core as jc
from jaxle_core import lax

ROWS = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
WINDOWS = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                      scatter_dims_to_operand_dims=(0,))


def test_elements_and_windows():
    x = np.linspace(-1, 1, 6, dtype=np.float32)
    indices = np.array([[1], [4], [1], [9], [-2]], np.int32)
    check_against_reference(lambda x, i: lax.scatter_apply(x, i, lax.sin, ROWS, update_shape=(5,)), x, indices)
    windowed = lambda x, i: lax.scatter_apply(x, i, lambda v: v * 2 + 1, WINDOWS,  # noqa: E731
                                              update_shape=(2, 3), mode="clip")
    check_against_reference(windowed, x.reshape(2, 3), np.array([[1], [7]], np.int32))
    text = jc.jit(lambda x, i: lax.scatter_apply(x, i, lax.sin, ROWS, update_shape=(5,))).lower(x, indices).as_text()
    assert "stablehlo.sine" in text and "stablehlo.scatter" in text
