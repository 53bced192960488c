"""lax's array-making and shape helpers (full, full_like, empty, shape_as_value, broadcast_like, broadcast_shapes,
collapse, index_take, square, dtype): jaxprs, values and errors against JAX 0.10.2 goldens, values against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("creation")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_text_matches(SHARED.run_text_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("name", sorted(GEN.VALUE_CASES))
def test_python_values_match_jax(name):
    assert GEN.run_value_case(jaxle_core, GEN.VALUE_CASES[name]) == GOLDEN[f"value-{name}"]


@pytest.mark.parametrize("shapes", [[(3, 1, 4), (2, 1)], [(0, 1), (1,)], [(1,), (5, 1, 1), ()]])
def test_broadcast_shapes_and_broadcast_like_match_numpy(shapes):
    assert lax.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
    target = np.broadcast_shapes(*shapes)
    x = SHARED.rand(shapes[-1], "int32")
    np.testing.assert_array_equal(np.asarray(lax.broadcast_like(x, np.zeros(target))), np.broadcast_to(x, target))


def test_index_take_matches_numpy_fancy_indexing():
    src = SHARED.rand((4, 3, 5), "float32")
    rows, cols = np.array([3, -1, 0, 6], np.int32), np.array([4, 0, 9, -2], np.int32)
    got = lax.index_take(src, (rows, cols), (0, 2))
    np.testing.assert_array_equal(np.asarray(got), src[rows % 4, :, cols % 5])


@pytest.mark.parametrize("start,stop", [(0, None), (1, 3), (-2, None), (3, 3)])
def test_collapse_matches_numpy_reshape(start, stop):
    x = SHARED.rand((2, 3, 4), "int8")
    shape = x.shape
    lo, hi, _ = slice(start, stop).indices(3)
    expected = x.reshape(shape[:lo] + (int(np.prod(shape[lo:hi])),) + shape[hi:])
    np.testing.assert_array_equal(np.asarray(lax.collapse(x, start, stop)), expected)


def test_full_and_empty_dtypes():
    assert np.asarray(lax.full((2,), 7, np.uint8)).tolist() == [7, 7]
    out = lax.empty((2, 2), np.complex64)
    assert out.shape == (2, 2) and out.dtype == np.complex64
    with pytest.warns(UserWarning, match="requested in full is not available"):
        assert lax.full((1,), 1, np.float64).dtype == np.float32
