"""XLA lowerings of sort and top_k agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values, run_both

from jaxle_core import lax
from jaxle_core.config import enable_x64

BOOL_INT_UINT = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
DTYPE_IDS = lambda d: np.dtype(d).name  # noqa: E731


def _with_ties(dtype, shape) -> np.ndarray:
    """Random values of ``dtype`` with many repeats, and the type's extremes."""
    rng = np.random.default_rng(0)
    x = random_values(rng, shape, dtype)
    flat = x.reshape(-1)
    flat[::3] = flat[1]
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        flat[:2] = [info.min, info.max]
    return x


def _same_bits(fun, *args) -> None:
    """The reference and XLA agree exactly, the sign of every zero included."""
    reference, compiled, _ = run_both(fun, *args)
    for r, c in zip(reference, compiled):
        assert c.dtype == r.dtype
        if r.dtype.kind in "biu":
            np.testing.assert_array_equal(c, r)
            continue
        c, r = c.astype(np.complex128), r.astype(np.complex128)
        np.testing.assert_array_equal(c, r)
        for part in (np.real, np.imag):
            np.testing.assert_array_equal(np.signbit(part(c)), np.signbit(part(r)))


@pytest.mark.parametrize("dtype", BOOL_INT_UINT + FLOATS + COMPLEX, ids=DTYPE_IDS)
def test_sort_each_dtype_along_each_dimension_carrying_the_positions(dtype):
    # A stable sort of keys with ties: the positions carried along show the order of equal keys.
    with enable_x64():
        x = _with_ties(dtype, (4, 6))
        positions = np.arange(24, dtype=np.int32).reshape(4, 6)
        check_against_reference(lambda v, p: [lax.sort(v, 0), *lax.sort_key_val(v, p, 1), *lax.sort_key_val(v, p, 0)],
                                x, positions, eager=False)


def test_sort_eagerly_and_unstably_on_distinct_keys():
    x = np.array([[3, -1, 7, 0], [5, 2, -8, 1]], np.int32)
    check_against_reference(lambda v: [lax.sort(v), lax.sort(v, 0, is_stable=False)], x)
    check_against_reference(lambda v: lax.sort_key_val(v, -v, 1, is_stable=False), x.astype(np.float32))


@pytest.mark.parametrize("dtype", FLOATS, ids=DTYPE_IDS)
def test_sort_puts_nans_last_and_keeps_signed_zeros_in_order(dtype):
    # -0.0 and +0.0 tie (a stable sort keeps their order), every NaN, whatever its sign, sorts last.
    with enable_x64(), np.errstate(over="ignore"):
        keys = np.concatenate([FLOAT_EDGES, -FLOAT_EDGES, [0.0, -0.0]]).astype(dtype)
        positions = np.arange(keys.size, dtype=np.int32)
        _same_bits(lambda k, p: lax.sort_key_val(k, p), keys, positions)


@pytest.mark.parametrize("dtype", COMPLEX, ids=DTYPE_IDS)
def test_sort_complex_lexicographically(dtype):
    # By real part, then imaginary part, with NaN last in each.
    nan = np.nan
    keys = np.array([1 + 2j, 1 - 2j, complex(nan, 0), -1 + 5j, complex(1, nan), 1 + 2j, -0.0 + 3j, 0 - 1j,
                     complex(0, nan), 1 + 0j, np.inf + 0j, complex(-np.inf, 1)], dtype)
    with enable_x64():
        _same_bits(lambda k, p: lax.sort_key_val(k, p), keys, np.arange(keys.size, dtype=np.int32))


def test_sort_several_operands_by_several_keys():
    rng = np.random.default_rng(1)
    first = rng.integers(0, 3, (5, 8)).astype(np.float32)
    second = rng.integers(0, 2, (5, 8)).astype(np.uint8)
    third = rng.integers(-1, 1, (5, 8)).astype(np.bool_)
    values = rng.standard_normal((5, 8)).astype(np.float16)
    check_against_reference(lambda a, b, c, d: [out for num_keys in (1, 2, 3)
                                                for out in lax.sort((a, b, c, d), 1, num_keys=num_keys)],
                            first, second, third, values, eager=False)
    check_against_reference(lambda a, b, c, d: lax.sort((a, b, c, d), 0, num_keys=2), first, second, third, values)


def test_sort_of_zero_size_and_single_element_arrays():
    check_against_reference(lambda v: [lax.sort(v, 0), lax.sort(v, 1)], np.zeros((0, 3), np.float32), eager=False)
    check_against_reference(lambda v: lax.sort(v), np.array([np.nan], np.float32))


# ---------------------------------------------------------------- top_k


@pytest.mark.parametrize("dtype", BOOL_INT_UINT + FLOATS, ids=DTYPE_IDS)
def test_top_k_each_dtype_with_ties(dtype):
    # Largest first; equal values by increasing index. Also along a leading axis, and k = 0 and k = n.
    with enable_x64():
        x = _with_ties(dtype, (3, 7))
        check_against_reference(lambda v: [*lax.top_k(v, 3), *lax.top_k(v, 7), *lax.top_k(v, 2, axis=0),
                                           *lax.top_k(v, 0)], x, eager=False)


def test_top_k_orders_nans_and_zeros_by_sign():
    # XLA's total order: -NaN < -inf < ... < -0.0 < +0.0 < ... < inf < +NaN.
    nan = np.float32(np.nan)
    x = np.array([0.0, -0.0, -nan, 1.0, nan, -np.inf, np.inf, -0.0, 0.0, 1.0, -nan, nan], np.float32)
    _same_bits(lambda v: lax.top_k(v, 12), x)
    _same_bits(lambda v: lax.top_k(v.reshape(3, 4), 2, axis=0), x)
    check_against_reference(lambda v: lax.top_k(v, 5), x.astype(np.float16))


def test_top_k_of_rank_3_and_zero_size_arrays():
    x = _with_ties(np.int32, (2, 3, 4))
    check_against_reference(lambda v: [*lax.top_k(v, 2, axis=1), *lax.top_k(v, 1, axis=0), *lax.top_k(v, 4)], x)
    check_against_reference(lambda v: [*lax.top_k(v, 2), *lax.top_k(v, 0, axis=0)], np.zeros((0, 3), np.float32),
                            eager=False)
