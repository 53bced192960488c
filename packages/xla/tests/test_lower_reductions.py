"""XLA lowerings of the reductions agree with core's NumPy reference."""

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


def _is_integral(dtype) -> bool:
    return np.dtype(dtype).kind in "biu"


def _inputs(dtype, shape=(3, 4, 5)) -> np.ndarray:
    """Random values; for floats, moderate ones near 1 so products over a dozen of them stay finite."""
    rng = np.random.default_rng(0)
    x = random_values(rng, shape, dtype)
    if not _is_integral(dtype):
        x = (x / 4 + np.sign(x.real)).astype(dtype)
    return x


def _same_zero_signs(fun, *args) -> None:
    """The reference and XLA agree on the sign of every zero ``fun`` returns (which value checks ignore)."""
    reference, compiled, _ = run_both(fun, *args)
    for r, c in zip(reference, compiled):
        np.testing.assert_array_equal(np.signbit(c.astype(np.float64)), np.signbit(r.astype(np.float64)))


@pytest.mark.parametrize("dtype", BOOL_INT_UINT + FLOATS + COMPLEX, ids=DTYPE_IDS)
def test_every_reduction_over_each_dtype(dtype):
    # Integer sums and products wrap around; several axis sets, the empty one included.
    def reductions(x):
        outs = [lax.reduce_max(x, (1,)), lax.reduce_min(x, (0, 2)), lax.reduce_max(x, (0, 1, 2)),
                lax.reduce_min(x, ())]
        if dtype != np.bool_:
            outs += [lax.reduce_sum(x, (1,)), lax.reduce_sum(x, (0, 2)), lax.reduce_prod(x, (2,)),
                     lax.reduce_prod(x, (0, 1, 2)), lax.reduce_sum(x, ())]
        if _is_integral(dtype):
            outs += [lax.reduce_and(x, (1,)), lax.reduce_or(x, (0, 2)), lax.reduce_xor(x, (2,)),
                     lax.reduce_xor(x, (0, 1, 2)), lax.reduce_and(x, ())]
        return outs

    # XLA's order of 16-bit partial sums and products is its own; the reference sums in float32 and multiplies
    # step by step, so 16-bit results (sums of values of size ~3, with cancellation) agree to a few ulps only.
    rtol, atol = {np.dtype(np.float16): (1e-2, 4e-3), np.dtype(ml_dtypes.bfloat16): (1e-2, 3e-2)}.get(
        np.dtype(dtype), (None, 0.0))
    with enable_x64():
        check_against_reference(reductions, _inputs(dtype), rtol=rtol, atol=atol, eager=False)


@pytest.mark.parametrize("dtype", [np.bool_, np.uint32, np.complex64], ids=DTYPE_IDS)
def test_reductions_eagerly(dtype):
    third = lax.reduce_or if _is_integral(dtype) else lax.reduce_sum
    check_against_reference(lambda v: [lax.reduce_max(v, (1,)), lax.reduce_min(v, (0, 1)), third(v, (0,))],
                            _inputs(dtype, (2, 3)))


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.float64], ids=DTYPE_IDS)
def test_float_reductions_of_special_values(dtype):
    # NaN propagates through max and min, infinities through sums (inf - inf is NaN) and products (0 * inf).
    with enable_x64(), np.errstate(over="ignore"):
        edges = FLOAT_EDGES.astype(dtype)
        x = np.stack([edges, np.roll(edges, 4), np.where(np.isnan(edges), 2.0, edges).astype(dtype),
                      np.where(np.isinf(edges), 1.5, edges).astype(dtype)])
        check_against_reference(lambda v: [lax.reduce_max(v, (1,)), lax.reduce_min(v, (1,)), lax.reduce_sum(v, (1,)),
                                           lax.reduce_prod(v, (1,)), lax.reduce_max(v, (0,)),
                                           lax.reduce_min(v, (0,))], x, eager=False)


@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=DTYPE_IDS)
def test_max_orders_negative_zero_below_positive_zero(dtype):
    x = np.array([[-0.0, 0.0], [0.0, -0.0], [-0.0, -0.0], [0.0, 0.0]], dtype)
    _same_zero_signs(lambda v: [lax.reduce_max(v, (1,)), lax.reduce_min(v, (1,))], x)
    reference, compiled, _ = run_both(lambda v: [lax.reduce_max(v, (1,)), lax.reduce_min(v, (1,))], x)
    np.testing.assert_array_equal(np.signbit(compiled[0]), [False, False, True, False])
    np.testing.assert_array_equal(np.signbit(compiled[1]), [True, True, True, False])


@pytest.mark.parametrize("dtype", BOOL_INT_UINT + FLOATS + COMPLEX, ids=DTYPE_IDS)
def test_reducing_an_empty_axis_gives_the_identity(dtype):
    # max of nothing is -inf (the integer minimum, False), min of nothing +inf; sum 0, product 1, and all ones.
    def reductions(x):
        outs = [lax.reduce_max(x, (0,)), lax.reduce_min(x, (0, 1)), lax.reduce_max(x, (1,))]
        if dtype != np.bool_:
            outs += [lax.reduce_sum(x, (0,)), lax.reduce_prod(x, (0,))]
        if _is_integral(dtype):
            outs += [lax.reduce_and(x, (0,)), lax.reduce_or(x, (0,)), lax.reduce_xor(x, (0, 1))]
        return outs

    with enable_x64():
        check_against_reference(reductions, np.zeros((0, 3), dtype), eager=False)


def test_reductions_of_scalars_and_of_arrays_with_a_zero_size_kept_axis():
    check_against_reference(lambda v: [lax.reduce_sum(v, ()), lax.reduce_max(v, ())], np.float32(2.5))
    check_against_reference(lambda v: [lax.reduce_sum(v, (1,)), lax.reduce_min(v, (0, 1))],
                            np.zeros((0, 4, 2), np.int32), eager=False)


@pytest.mark.parametrize("dtype", COMPLEX, ids=DTYPE_IDS)
def test_complex_extrema_are_lexicographic(dtype):
    # By real part, then imaginary part; NaN (in either part) counts as larger than any number.
    x = np.array([[1 + 2j, 1 + 3j, 0 + 5j, 1 - 1j], [-1 + 0j, -1 - 4j, -1 + 4j, -2 + 9j],
                  [2 + 1j, complex(np.nan, 0), 3 + 0j, -5 + 0j], [1 + 1j, complex(1, np.nan), 1 + 2j, 0 + 0j]], dtype)
    with enable_x64():
        check_against_reference(lambda v: [lax.reduce_max(v, (1,)), lax.reduce_min(v, (1,)), lax.reduce_max(v, (0,)),
                                           lax.reduce_min(v, (0,)), lax.reduce_sum(v, (1,)), lax.reduce_prod(v, (0,))],
                                x, eager=False)


@pytest.mark.parametrize("dtype,rtol", [(np.float16, 2e-3), (ml_dtypes.bfloat16, 1e-2)], ids=["float16", "bfloat16"])
def test_narrow_float_sums_accumulate_in_float32(dtype, rtol):
    # XLA (and so JAX) on CPU adds float16/bfloat16 elements in float32, rounding only partial sums: a naive
    # accumulation in the narrow type would stall (at 2048 for float16, 256 for bfloat16).
    x = np.ones((3, 3000), dtype)
    _, compiled, _ = run_both(lambda v: [lax.reduce_sum(v, (1,)), lax.reduce_sum(v, (0, 1))], x)
    np.testing.assert_allclose(compiled[0].astype(np.float32), [3000] * 3, rtol=rtol)
    np.testing.assert_allclose(compiled[1].astype(np.float32), 9000, rtol=rtol)


# ---------------------------------------------------------------- argmax / argmin


@pytest.mark.parametrize("dtype", BOOL_INT_UINT + FLOATS, ids=DTYPE_IDS)
def test_argmax_and_argmin_over_each_dtype(dtype):
    with enable_x64():
        x = _inputs(dtype, (4, 6))
        x[1] = x[1, 2]  # a row of ties: the first index wins
        check_against_reference(lambda v: [lax.argmax(v, 1, np.int32), lax.argmin(v, 1, np.int32),
                                           lax.argmax(v, 0, np.int64), lax.argmin(v, 0, np.uint8)], x, eager=False)


def test_argmax_and_argmin_pick_the_first_nan_then_the_first_extremum():
    nan, inf = np.nan, np.inf
    x = np.array([[1.0, nan, 3.0, nan], [-0.0, 0.0, -1.0, 0.0], [2.0, 2.0, -inf, -inf], [-inf, -inf, -inf, -inf],
                  [inf, inf, 1.0, nan], [5.0, -inf, inf, 5.0]], np.float32)
    check_against_reference(lambda v: [lax.argmax(v, 1, np.int32), lax.argmin(v, 1, np.int32),
                                       lax.argmax(v, 0, np.int8), lax.argmin(v, 0, np.int16)], x)
    # Every extreme of the index type: an integer operand at its minimum and maximum.
    info = np.iinfo(np.int32)
    check_against_reference(lambda v: [lax.argmax(v, 0, np.int32), lax.argmin(v, 0, np.int32)],
                            np.array([info.min, info.min, info.max, info.max, 0], np.int32))


def test_argmax_of_zero_size_arrays_and_of_scalar_rows():
    check_against_reference(lambda v: [lax.argmax(v, 1, np.int32), lax.argmin(v, 1, np.int32)],
                            np.zeros((0, 3), np.float32))
    check_against_reference(lambda v: lax.argmax(v, 0, np.int32), np.array([7], np.int16))


# ---------------------------------------------------------------- generic reduce


def test_reduce_with_a_non_monoid_computation_and_initial_value():
    # A running difference is not the monoid of any reduction primitive: it lowers as a generic reduce.
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    check_against_reference(lambda v: lax.reduce(v, np.float32(1.0), lambda a, b: a - b, (1,)), x)
    check_against_reference(lambda v: lax.reduce(v, np.float32(1.0), lambda a, b: a * b + 1.0, (0, 2)), x)
    check_against_reference(lambda v: lax.reduce(v, np.int32(3), lambda a, b: a + b, (0, 1, 2)),
                            x.astype(np.int32))


def test_reduce_over_several_operands_and_no_dimensions():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = np.arange(12, dtype=np.int32).reshape(3, 4) - 5

    def sum_and_product(v, w):
        return lax.reduce((v, w), (np.float32(0.5), np.int32(1)), lambda a, b: (a[0] + b[0], a[1] * b[1]), (1,))

    check_against_reference(sum_and_product, x, y)
    check_against_reference(lambda v: lax.reduce(v, np.float32(2.0), lambda a, b: a * b, (0,)),
                            np.zeros((0, 2), np.float32))


def test_reduce_with_a_comparing_computation():
    # A maximum carrying its position, over distinct values (so the order XLA combines in cannot matter).
    x = np.random.default_rng(2).permutation(24).astype(np.float32).reshape(4, 6)
    positions = np.arange(24, dtype=np.int32).reshape(4, 6)

    def larger(a, b):
        take_a = lax.gt(a[0], b[0])
        return lax.select(take_a, a[0], b[0]), lax.select(take_a, a[1], b[1])

    check_against_reference(lambda v, p: lax.reduce((v, p), (np.float32(-np.inf), np.int32(-1)), larger, (1,)),
                            x, positions)


def test_reduce_over_no_dimensions_returns_the_operands():
    # As in JAX, XLA leaves each element alone (the reference applies the computation to it and the initial
    # value once instead).
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    _, compiled, _ = run_both(lambda v: lax.reduce(v, np.float32(2.0), lambda a, b: a * b, ()), x)
    np.testing.assert_array_equal(compiled[0], x)


def test_reduce_with_a_monoid_becomes_the_reduction_primitive():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    check_against_reference(lambda v: [lax.reduce(v, 0, lax.add, (0,)), lax.reduce(v, np.int32(-2**31), lax.max, (1,))],
                            x)
