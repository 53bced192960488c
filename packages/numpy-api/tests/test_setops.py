"""jnp's set operations: JAX 0.10.2 goldens (jaxprs of the sized forms, values, weak types, errors), NumPy over
dtypes and edge values, jit/vmap with size, x64."""

import jnp_golden
import ml_dtypes
import numpy as np
import pytest
from make_setops_golden import CASES

import jaxle_core as jc
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

GOLDEN = jnp_golden.load("setops_golden.json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_jax(name):
    jnp_golden.assert_case_matches(jnp_golden.run_case(jnp_golden.jaxle_namespace(), CASES[name]), GOLDEN[name])


DTYPES = ["bool", "int8", "int32", "uint8", "float16", "bfloat16", "float32", "complex64"]
EDGES = np.array([np.nan, 1.0, -0.0, 0.0, np.inf, -np.nan, 1.0, -np.inf, 2.5, np.nan], np.float32)


def _data(shape, dtype, seed=0):
    """Test data with repeated values: rounded floats, complex numbers with few distinct parts."""
    x = jnp_golden.rand(shape, dtype, seed)
    if x.dtype == np.complex64:
        return (x.real.round() + 1j * (x.imag > 0)).astype(x.dtype)
    if x.dtype.kind in "fV":
        return x.astype(np.float32).round().astype(x.dtype)
    return x


def _numpy(x):
    """NumPy sorts bfloat16 through float32."""
    return x.astype(np.float32) if x.dtype == ml_dtypes.bfloat16 else x


def _assert_equal(got, expected):
    got = np.asarray(got)
    np.testing.assert_array_equal(got.astype(expected.dtype) if got.dtype != expected.dtype else got, expected)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unique_matches_numpy(dtype):
    x = _data((3, 5), dtype, 1)
    got = jnp.unique(x, return_index=True, return_inverse=True, return_counts=True)
    expected = np.unique(_numpy(x), return_index=True, return_inverse=True, return_counts=True)
    for g, e in zip(got, expected):
        _assert_equal(g, e)
    assert got[0].dtype == x.dtype and got[1].dtype == np.int32
    rows = _data((6, 2), dtype, 2)
    for g, e in zip(jnp.unique(rows, True, True, True, axis=0),
                    np.unique(_numpy(rows), True, True, True, axis=0)):
        _assert_equal(g, e)


def test_unique_nans_zeros_and_equal_nan():
    _assert_equal(jnp.unique(EDGES), np.unique(EDGES))
    _assert_equal(jnp.unique(EDGES, equal_nan=False), np.unique(EDGES, equal_nan=False))
    values, counts = jnp.unique_counts(EDGES)
    expected = np.unique(EDGES, return_counts=True, equal_nan=False)
    _assert_equal(values, expected[0])
    _assert_equal(counts, expected[1])
    result = jnp.unique_all(EDGES)
    assert type(result).__name__ == "_UniqueAllResult"
    assert result._fields == ("values", "indices", "inverse_indices", "counts")
    np.testing.assert_array_equal(np.asarray(result.values)[np.asarray(result.inverse_indices)], EDGES)


def test_unique_inverse_keeps_the_input_shape_and_values_forms():
    x = _data((2, 3, 2), "int32", 3)
    values, inverse = jnp.unique_inverse(x)
    assert inverse.shape == x.shape
    np.testing.assert_array_equal(np.asarray(values)[np.asarray(inverse)], x)
    _assert_equal(jnp.unique_values(x), np.unique(x))
    for axis in (0, 1, 2, -1):
        for g, e in zip(jnp.unique(x, True, True, True, axis=axis), np.unique(x, True, True, True, axis=axis)):
            _assert_equal(g, e)


def test_unique_with_size_under_jit_and_vmap():
    x = _data((4, 6), "int32", 4)
    size = 8
    fun = jc.jit(lambda a: jnp.unique(a, return_index=True, return_counts=True, size=size, fill_value=-1))
    for row in x:
        values, index, counts = fun(row)
        expected = np.unique(row, return_index=True, return_counts=True)
        k = len(expected[0])
        _assert_equal(values[:k], expected[0])
        _assert_equal(index[:k], expected[1])
        _assert_equal(counts[:k], expected[2])
        assert np.all(np.asarray(values)[k:] == -1) and np.all(np.asarray(counts)[k:] == 0)
        assert np.all(np.asarray(index)[k:] == expected[1][0])
    batched = jc.vmap(lambda a: jnp.unique(a, size=size))(x)
    for row, got in zip(x, np.asarray(batched)):
        expected = np.unique(row)
        np.testing.assert_array_equal(got[:len(expected)], expected)
        assert np.all(got[len(expected):] == expected[0])  # padded with the smallest value


def test_unique_needs_a_size_under_jit():
    with pytest.raises(jc.errors.ConcretizationTypeError, match="size argument"):
        jc.jit(jnp.unique)(np.arange(3))
    with pytest.raises(jc.errors.ConcretizationTypeError, match="union1d"):
        jc.jit(jnp.union1d)(np.arange(3), np.arange(2))


@pytest.mark.parametrize("method", ["auto", "compare_all", "binary_search", "sort"])
@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "bool"])
def test_isin_matches_numpy(method, dtype):
    element = _data((3, 4), dtype, 5)
    tests = _data((5,), dtype, 6)
    for invert in (False, True):
        got = jnp.isin(element, tests, invert=invert, method=method)
        assert got.shape == element.shape and got.dtype == np.bool_
        np.testing.assert_array_equal(np.asarray(got), np.isin(element, tests, invert=invert))
    unique_tests = np.unique(tests)
    got = jnp.isin(np.unique(element), unique_tests, assume_unique=True, method=method)
    np.testing.assert_array_equal(np.asarray(got), np.isin(np.unique(element), unique_tests))
    assert bool(jnp.isin(element[0, 0], tests, method=method)) == bool(np.isin(element[0, 0], tests))


def test_isin_edge_values_and_empty_tests():
    np.testing.assert_array_equal(np.asarray(jnp.isin(EDGES, np.array([np.nan, 0.0, np.inf]))),
                                  np.isin(EDGES, [np.nan, 0.0, np.inf]))
    np.testing.assert_array_equal(np.asarray(jnp.isin(np.arange(3), np.zeros(0, np.int32))), [False] * 3)


@pytest.mark.parametrize("dtype", ["int32", "float32", "uint8", "bool"])
def test_set_operations_match_numpy(dtype):
    a, b = _data((7,), dtype, 7), _data((2, 3), dtype, 8)
    _assert_equal(jnp.union1d(a, b), np.union1d(a, b))
    _assert_equal(jnp.intersect1d(a, b), np.intersect1d(a, b))
    _assert_equal(jnp.setdiff1d(a, b), np.setdiff1d(a, b))
    _assert_equal(jnp.setxor1d(a, b), np.setxor1d(a, b))
    got = jnp.intersect1d(a, b, return_indices=True)
    for g, e in zip(got, np.intersect1d(a, b, return_indices=True)):
        _assert_equal(g, e)
    ua, ub = np.unique(a), np.unique(b)
    _assert_equal(jnp.intersect1d(ua, ub, assume_unique=True), np.intersect1d(ua, ub, assume_unique=True))
    _assert_equal(jnp.setdiff1d(ua, ub, assume_unique=True), np.setdiff1d(ua, ub, assume_unique=True))
    _assert_equal(jnp.setxor1d(ua, ub, assume_unique=True), np.setxor1d(ua, ub, assume_unique=True))


def test_set_operations_with_size_under_jit_and_vmap():
    a = np.array([[5, 3, 4, 3, 9], [1, 1, 2, 8, 0]], np.int32)
    b = np.array([3, 9, 2, 1], np.int32)
    size = 6
    for name, fill in [("union1d", None), ("intersect1d", None), ("setdiff1d", 0), ("setxor1d", None)]:
        fun = getattr(jnp, name)
        for row in a:
            expected = getattr(np, name)(row, b)
            got = np.asarray(jc.jit(lambda x, f=fun: f(x, b, size=size, fill_value=-7))(row))
            np.testing.assert_array_equal(got[:len(expected)], expected)
            assert np.all(got[len(expected):] == -7)
            default = np.asarray(fun(row, b, size=size))[len(expected):]
            assert np.all(default == (fill if fill is not None else expected.min())), name
        batched = jc.vmap(lambda x, f=fun: f(x, b, size=size))(a)
        for row, got in zip(a, np.asarray(batched)):
            expected = getattr(np, name)(row, b)
            np.testing.assert_array_equal(got[:len(expected)], expected)


def test_intersect1d_indices_with_size_pad_with_the_input_lengths():
    a, b = np.array([5, 3, 4, 3, 9], np.int32), np.array([3, 9, 2, 1], np.int32)
    values, ia, ib = jnp.intersect1d(a, b, return_indices=True, size=4)
    np.testing.assert_array_equal(np.asarray(values), [3, 9, 3, 3])
    np.testing.assert_array_equal(np.asarray(ia), [1, 4, 5, 5])
    np.testing.assert_array_equal(np.asarray(ib), [0, 1, 4, 4])


def test_x64_index_dtypes():
    x = np.array([3, 1, 3, 2], np.int64)
    with jc.config.enable_x64(True):
        values, index, inverse, counts = jnp.unique(x, True, True, True)
        assert values.dtype == np.int64 and index.dtype == np.int64 and counts.dtype == np.int64
        np.testing.assert_array_equal(np.asarray(inverse), np.unique(x, return_inverse=True)[1])
        _assert_equal(jnp.setxor1d(x, np.array([1, 5])), np.setxor1d(x, [1, 5]))


def test_unique_complex_nans_count_once():
    x = np.array([1 + 1j, complex(np.nan, 1), 1 - 1j, complex(0, np.nan), 1 + 1j], np.complex64)
    values = np.asarray(jnp.unique(x))
    assert len(values) == 3 and np.isnan(values[-1])
    np.testing.assert_array_equal(values[:2], [1 - 1j, 1 + 1j])
    assert len(np.asarray(jnp.unique(x, equal_nan=False))) == 4


def test_gradients_flow_to_the_chosen_entries():
    x = np.array([0.3, -1.2, 2.0, 0.7], np.float32)
    check_grads(lambda a: jnp.unique(a, size=5, fill_value=0.0), (x,), order=1)
    check_grads(lambda a: jnp.union1d(a, np.array([5.0], np.float32), size=6), (x,), order=1)
    g = jc.grad(lambda a: jnp.unique(a, size=2).sum())(np.array([1.0, 3.0, 1.0], np.float32))
    np.testing.assert_array_equal(np.asarray(g), [1.0, 1.0, 0.0])  # the first of the repeated entries
