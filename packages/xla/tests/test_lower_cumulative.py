"""XLA lowerings of the cumulative reductions agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values, run_both

from jaxle_core import lax
from jaxle_core.config import enable_x64

INT_UINT = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
DTYPE_IDS = lambda d: np.dtype(d).name  # noqa: E731

SCANS = [lax.cumsum, lax.cumprod, lax.cummax, lax.cummin]


def _every_scan(scans, ndim):
    """Each of ``scans`` along every axis, forwards and in reverse."""
    return lambda x: [scan(x, axis, reverse) for scan in scans for axis in range(ndim) for reverse in (False, True)]


def _inputs(dtype, shape) -> np.ndarray:
    x = random_values(np.random.default_rng(0), shape, dtype)
    if np.dtype(dtype) in (np.float16, ml_dtypes.bfloat16):
        # XLA adds narrow floats in float32, the reference rounds each partial sum: keep them exact.
        return (np.round(x.astype(np.float32) * 2) / 2).astype(dtype)
    if np.dtype(dtype).kind in "fc":
        return (x / 4 + np.sign(x.real)).astype(dtype)  # products of a handful stay well inside the range
    return x


@pytest.mark.parametrize("dtype", INT_UINT + FLOATS + COMPLEX, ids=DTYPE_IDS)
def test_scans_over_each_dtype_and_axis(dtype):
    # Integer sums and products wrap around; complex max and min are lexicographic.
    with enable_x64():
        scans = SCANS + ([lax.cumlogsumexp] if np.dtype(dtype).kind not in "iuc" else [])
        check_against_reference(_every_scan(scans, 2), _inputs(dtype, (4, 5)), eager=False)


def test_scans_along_each_axis_of_a_rank_3_array():
    check_against_reference(_every_scan([lax.cumsum, lax.cummax], 3), _inputs(np.float32, (3, 4, 5)), eager=False)


def test_scans_eagerly():
    check_against_reference(lambda v: [lax.cumsum(v), lax.cumprod(v, reverse=True), lax.cummax(v, reverse=True),
                                       lax.cummin(v), lax.cumlogsumexp(v, reverse=True)],
                            np.linspace(-2, 3, 6, dtype=np.float32))


@pytest.mark.parametrize("dtype", FLOATS, ids=DTYPE_IDS)
def test_forward_scans_of_special_values(dtype):
    # NaN propagates; inf - inf and 0 * inf are NaN; logaddexp of equal infinities is that infinity.
    with enable_x64(), np.errstate(over="ignore"):
        edges = FLOAT_EDGES.astype(dtype)
        x = np.stack([edges, edges[::-1], np.roll(edges, 6), np.where(np.isnan(edges), -np.inf, edges).astype(dtype)])
        scans = SCANS + [lax.cumlogsumexp]
        check_against_reference(lambda v: [scan(v, axis) for scan in scans for axis in (0, 1)], x, eager=False)


@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=DTYPE_IDS)
def test_reverse_scans_of_special_values(dtype):
    # Without overflow or cancellation the order in which a scan folds cannot change its special values.
    edges = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.5, np.inf, -np.inf, np.nan, 2.0, -0.0], dtype)
    x = np.stack([edges, edges[::-1], np.roll(edges, 3), np.where(np.isnan(edges), np.inf, edges).astype(dtype)])
    scans = SCANS + [lax.cumlogsumexp]
    check_against_reference(lambda v: [scan(v, axis, True) for scan in scans for axis in (0, 1)], x, eager=False)


def test_running_max_and_min_order_the_zeros():
    x = np.array([0.0, -0.0, -0.0, 0.0, -1.0, -0.0], np.float32)
    fun = lambda v: [lax.cummax(v), lax.cummin(v), lax.cummax(v, reverse=True), lax.cummin(v, reverse=True)]  # noqa: E731
    reference, compiled, _ = run_both(fun, x)
    for r, c in zip(reference, compiled):
        np.testing.assert_array_equal(c, r)
        np.testing.assert_array_equal(np.signbit(c), np.signbit(r))


def test_complex_running_extrema():
    x = np.array([1 + 2j, 1 + 3j, 0 + 5j, 1 - 1j, 2 - 7j, 2 - 8j, -3 + 0j, 2 - 7j], np.complex64)
    check_against_reference(_every_scan([lax.cummax, lax.cummin], 1), x)


def test_scans_of_empty_and_single_element_axes():
    check_against_reference(_every_scan(SCANS, 2), np.zeros((3, 0), np.float32), eager=False)
    check_against_reference(_every_scan(SCANS + [lax.cumlogsumexp], 2), np.arange(4, dtype=np.float32).reshape(1, 4),
                            eager=False)


def test_long_narrow_float_sums_accumulate_in_float32():
    # As in JAX: XLA adds float16 in float32 and rounds partial sums, so a long running sum of ones keeps
    # counting past 2048 (the reference rounds each step to float16 and stalls there).
    x = np.ones(3000, np.float16)
    _, compiled, _ = run_both(lambda v: [lax.cumsum(v), lax.cumsum(v, reverse=True)], x)
    counts = np.arange(1, 3001, dtype=np.float32)
    np.testing.assert_allclose(compiled[0].astype(np.float32), counts, rtol=2e-3)
    np.testing.assert_allclose(compiled[1].astype(np.float32), counts[::-1], rtol=2e-3)


def test_reverse_scans_fold_in_index_order():
    # As in JAX, output i of a reverse scan folds x[i], x[i+1], ... in that order: -0.0 * -1e30 * -1e30 is -0.0
    # (the reference folds from the end, x[i] * (x[i+1] * x[i+2]), which overflows to -0.0 * inf = NaN).
    x = np.array([-0.0, -1e30, -1e30], np.float32)
    _, compiled, _ = run_both(lambda v: lax.cumprod(v, reverse=True), x)
    np.testing.assert_array_equal(compiled[0], np.array([-0.0, np.inf, -1e30], np.float32))
    assert np.signbit(compiled[0][0])
