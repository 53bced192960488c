"""take, take_along_axis, put, place, compress, extract, choose, select, piecewise, nonzero and friends, against
NumPy (concrete and under jit), with JAX's immutability errors."""

import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp

A = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
MASK = np.array([[0, 1, 0, 2], [0, 0, 3, 0], [4, 0, 0, 5]])


def _eq(got, expected):
    if isinstance(expected, tuple):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(np.asarray(g), e)
    else:
        np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_take_against_numpy(axis, mode):
    indices = np.array([[0, 5], [-1, 2]])
    _eq(jnp.take(A, indices, axis=axis, mode=mode), np.take(A, indices, axis=axis, mode=mode))
    _eq(jaxle_core.jit(lambda a, i: jnp.take(a, i, axis=axis, mode=mode))(A, indices),
        np.take(A, indices, axis=axis, mode=mode))


def test_take_fills_out_of_bounds_by_default():
    _eq(jnp.take(np.arange(5.0), np.array([0, 7, -1])), [0.0, np.nan, 4.0])
    with pytest.raises(NotImplementedError, match="The 'raise' mode to jnp.take is not supported."):
        jnp.take(A, np.array([0]), mode="raise")


@pytest.mark.parametrize("axis", [0, 1, None])
def test_take_along_axis_against_numpy(axis):
    indices = np.argsort(A, axis=axis)
    _eq(jnp.take_along_axis(A, indices, axis=axis), np.take_along_axis(A, indices, axis=axis))


def test_put_along_axis_and_put_and_place():
    indices = np.array([[0], [2], [3]])
    expected = A.copy()
    np.put_along_axis(expected, indices, 9.0, axis=1)
    _eq(jnp.put_along_axis(A, indices, 9.0, axis=1, inplace=False), expected)
    for mode in ("clip", "wrap"):
        expected = np.arange(5)
        np.put(expected, [0, 2, 7], [9, 8], mode=mode)
        _eq(jnp.put(np.arange(5), np.array([0, 2, 7]), np.array([9, 8]), mode=mode, inplace=False), expected)
    expected = np.arange(5)
    np.place(expected, np.array([1, 0, 1, 0, 1], bool), [9, 8])
    _eq(jnp.place(np.arange(5), np.array([1, 0, 1, 0, 1], bool), np.array([9, 8]), inplace=False), expected)
    for fn in (lambda: jnp.put(np.arange(5), np.array([0]), 1), lambda: jnp.place(A, A > 0, 1.0),
               lambda: jnp.put_along_axis(A, indices, 1.0, axis=1)):
        with pytest.raises(ValueError, match="cannot modify arrays in-place"):
            fn()


def test_nonzero_family_against_numpy():
    _eq(jnp.nonzero(MASK), np.nonzero(MASK))
    _eq(jnp.flatnonzero(MASK), np.flatnonzero(MASK))
    _eq(jnp.argwhere(MASK), np.argwhere(MASK))
    rows, cols = np.nonzero(MASK)
    _eq(jaxle_core.jit(lambda m: jnp.nonzero(m, size=7, fill_value=-1))(MASK),
        (np.concatenate([rows, [-1, -1]]), np.concatenate([cols, [-1, -1]])))
    _eq(jnp.nonzero(MASK, size=2), (rows[:2], cols[:2]))
    with pytest.raises(jaxle_core.errors.ConcretizationTypeError):
        jaxle_core.jit(jnp.nonzero)(MASK)


def test_compress_extract_choose_select_piecewise_against_numpy():
    condition = np.array([True, False, True, True])
    _eq(jnp.compress(condition, A, axis=1), np.compress(condition, A, axis=1))
    _eq(jnp.compress(condition[:3], A), np.compress(condition[:3], A))
    _eq(jnp.compress(condition, A, axis=1, size=2), np.compress(condition, A, axis=1)[:, :2])
    _eq(jnp.compress(np.array([True, False, False, False]), A, axis=1, size=3, fill_value=7.0),
        np.concatenate([A[:, :1], np.full((3, 2), 7.0)], axis=1))
    with pytest.raises(ValueError, match="size must be positive and not greater than the size of the array axis"):
        jnp.compress(condition, A, axis=1, size=5)
    with pytest.raises(ValueError, match="condition contains entries that are out of bounds"):
        jnp.compress(np.array([True, False, False, True]), A, axis=0)
    _eq(jnp.extract(A > 0, A), np.extract(A > 0, A))
    choices = [np.arange(3), np.arange(3) * 10, -np.arange(3)]
    for mode in ("raise", "wrap", "clip"):
        index = np.array([0, 2, 1]) if mode == "raise" else np.array([0, 5, -1])
        _eq(jnp.choose(index, choices, mode=mode), np.choose(index, choices, mode=mode))
    with pytest.raises(ValueError, match="invalid entry in choice array"):
        jnp.choose(np.array([3]), choices)
    conditions = [A < -2, A > 3]
    _eq(jnp.select(conditions, [A * 2, A * 3], -1.0), np.select(conditions, [A * 2, A * 3], -1.0))
    x = np.linspace(-2, 2, 7).astype(np.float32)
    funcs = [lambda v: -v, lambda v: v * 2, 5.0]
    _eq(jnp.piecewise(x, [x < 0, x > 1], funcs), np.piecewise(x, [x < 0, x > 1], funcs))


def test_fill_diagonal_and_multi_indices_and_bits():
    expected = np.zeros((3, 4), np.float32)
    np.fill_diagonal(expected, [1.0, 2.0])
    _eq(jnp.fill_diagonal(np.zeros((3, 4), np.float32), np.array([1.0, 2.0], np.float32), inplace=False), expected)
    with pytest.raises(NotImplementedError, match="must use inplace=False"):
        jnp.fill_diagonal(np.zeros((3, 3)), 1.0)
    coordinates = (np.array([0, 1, 1]), np.array([2, 5, -1]))
    for mode in ("clip", "wrap"):
        for order in ("C", "F"):
            _eq(jnp.ravel_multi_index(coordinates, (2, 3), mode=mode, order=order),
                np.ravel_multi_index(coordinates, (2, 3), mode=mode, order=order))
    with pytest.raises(ValueError, match="invalid entry in coordinates array"):
        jnp.ravel_multi_index(coordinates, (2, 3))
    _eq(jnp.unravel_index(np.array([1, 5, 3]), (2, 3)), np.unravel_index([1, 5, 3], (2, 3)))
    _eq(jnp.unravel_index(np.array([-1, 7]), (2, 3)), ([1, 1], [2, 2]))  # wrapped, then clipped (as JAX)
    bits = np.array([[1, 0, 1, 1, 0, 0, 0, 0, 1], [0, 1, 1, 1, 1, 1, 1, 0, 0]], np.uint8)
    for bitorder in ("big", "little"):
        for axis in (None, 1):
            packed = np.packbits(bits, axis=axis, bitorder=bitorder)
            _eq(jnp.packbits(bits, axis=axis, bitorder=bitorder), packed)
            for count in (None, 5, 20):
                _eq(jnp.unpackbits(packed, axis=axis, count=count, bitorder=bitorder),
                    np.unpackbits(packed, axis=axis, count=count, bitorder=bitorder))
