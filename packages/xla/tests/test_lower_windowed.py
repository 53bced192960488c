"""XLA lowerings of the windowed reductions and pooling gradients agree with core's NumPy reference."""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values, run_both

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.lax import elementwise, windowed

BOOL_INT_UINT = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
DTYPE_IDS = lambda d: np.dtype(d).name  # noqa: E731

# (window_dimensions, window_strides, padding, base_dilation, window_dilation) over a rank-2 operand.
WINDOWS = [
    ((2, 3), (1, 1), "VALID", None, None),
    ((3, 2), (2, 1), "SAME", None, None),
    ((2, 2), (1, 2), ((1, 2), (0, 1)), (2, 1), (1, 2)),
    ((1, 3), (3, 1), ((0, 0), (2, 2)), (1, 3), (1, 1)),
]


def _lowest(dtype):
    return np.asarray(windowed.extremum_identity(dtype, False), dtype)


def _highest(dtype):
    return np.asarray(windowed.extremum_identity(dtype, True), dtype)


def _windowed_reductions(dtype, windows=WINDOWS):
    """max, min (and sum unless boolean) over every window configuration, from each monoid's identity."""
    def fun(x):
        outs = []
        for window in windows:
            outs += [lax.reduce_window(x, _lowest(dtype), lax.max, *window),
                     lax.reduce_window(x, _highest(dtype), lax.min, *window)]
            if dtype != np.bool_:
                outs.append(lax.reduce_window(x, np.zeros((), dtype), lax.add, *window))
        return outs

    return fun


@pytest.mark.parametrize("dtype", BOOL_INT_UINT + FLOATS + COMPLEX, ids=DTYPE_IDS)
def test_reduce_window_sum_max_min_over_each_dtype(dtype):
    with enable_x64():
        x = random_values(np.random.default_rng(0), (5, 7), dtype)
        if np.dtype(dtype) in (np.float16, ml_dtypes.bfloat16):
            # XLA sums narrow floats in float32, the reference rounds each partial sum: keep the sums exact.
            x = (np.round(x.astype(np.float32) * 4) / 4).astype(dtype)
        check_against_reference(_windowed_reductions(dtype), x, eager=False)


def test_reduce_window_primitives_eagerly():
    x = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    check_against_reference(_windowed_reductions(np.dtype(np.float32), WINDOWS[2:3]), x)


@pytest.mark.parametrize("dtype", [np.float16, np.float32], ids=DTYPE_IDS)
def test_reduce_window_of_special_values(dtype):
    # NaN propagates through windowed max and min; -0.0 is below +0.0.
    with np.errstate(over="ignore"):
        edges = FLOAT_EDGES.astype(dtype)
    x = np.stack([edges, np.roll(edges, 5), -edges])
    fun = _windowed_reductions(np.dtype(dtype))
    check_against_reference(fun, x, eager=False)
    zeros = np.array([[-0.0, 0.0, -0.0, -0.0, 0.0]], dtype)
    reference, compiled, _ = run_both(_windowed_reductions(np.dtype(dtype), WINDOWS[:1]), np.repeat(zeros, 2, 0))
    for r, c in zip(reference, compiled):
        np.testing.assert_array_equal(np.signbit(c), np.signbit(r))


def test_reduce_window_over_zero_size_operands_and_windows_of_padding_only():
    # Windows lying wholly over padding give the identity; an operand too small for the window gives nothing.
    x = np.zeros((0, 4), np.float32)
    check_against_reference(lambda v: [lax.reduce_window(v, -np.inf, lax.max, (1, 2), (1, 1), ((1, 1), (0, 0))),
                                       lax.reduce_window(v, 0.0, lax.add, (2, 2), (1, 1), "SAME")], x)
    check_against_reference(lambda v: lax.reduce_window(v, np.int32(0), lax.add, (3, 5), (1, 1), "VALID"),
                            np.ones((2, 4), np.int32))


def test_generic_reduce_window_with_several_operands():
    # A computation that is no monoid of a windowed primitive, over a pair of operands, from identities.
    x = np.arange(20, dtype=np.float32).reshape(4, 5) / 3
    y = np.arange(20, dtype=np.int32).reshape(4, 5) % 7 - 3

    def pairs(v, w):
        return lax.reduce_window((v, w), (np.float32(0), np.int32(1)), lambda a, b: (a[0] + b[0], a[1] * b[1]),
                                 (2, 2), (1, 2), ((1, 0), (0, 1)), (1, 2), (2, 1))

    check_against_reference(pairs, x, y)


def test_generic_reduce_window_with_a_non_identity_initial_value():
    x = np.arange(20, dtype=np.float32).reshape(4, 5) - 8
    check_against_reference(lambda v: [lax.reduce_window(v, np.float32(1), lambda a, b: a * 2 + b, (2, 3)),
                                       lax.reduce_window(v, np.float32(0.5), lambda a, b: a - b, (3, 1), (1, 2))], x)


def test_generic_reduce_window_skips_padding_and_dilation_holes():
    # As in JAX on CPU, XLA folds only the operand's elements into the initial value (the reference also folds
    # the initial value in once for every padded position; the two agree whenever it is an identity).
    x = np.arange(4, dtype=np.float32)
    _, compiled, _ = run_both(lambda v: lax.reduce_window(v, np.float32(1), lambda a, b: a * 2 + b, (3,), (1,),
                                                          ((2, 0),)), x)
    np.testing.assert_array_equal(compiled[0], [1 * 2 + 0, (1 * 2 + 0) * 2 + 1, ((1 * 2 + 0) * 2 + 1) * 2 + 2,
                                                ((1 * 2 + 1) * 2 + 2) * 2 + 3])
    _, compiled, _ = run_both(lambda v: lax.reduce_window(v, np.float32(10), lambda a, b: a + b, (2,), (1,),
                                                          "VALID", (2,)), x)
    np.testing.assert_array_equal(compiled[0], [10, 11, 11, 12, 12, 13])


# ---------------------------------------------------------------- pooling gradients


def _scatter(select_prim, window_dimensions, window_strides, padding):
    return lambda source, operand: windowed.select_and_scatter_add_p.bind(
        source, operand, select_prim=select_prim, window_dimensions=window_dimensions,
        window_strides=window_strides, padding=padding)


def _gather(select_prim, window_dimensions, window_strides, padding, base_dilation=(1, 1), window_dilation=(1, 1)):
    return lambda tangents, operand: windowed.select_and_gather_add_p.bind(
        tangents, operand, select_prim=select_prim, window_dimensions=window_dimensions,
        window_strides=window_strides, padding=padding, base_dilation=base_dilation,
        window_dilation=window_dilation)


def _pooling_operands():
    """Operands with ties (the first extremum in row-major order is selected), NaN and infinities, and integers."""
    tied = np.array([[1, 3, 3, 0, 2], [3, 1, 0, 0, 2], [-1, 3, 2, 2, 5], [4, 4, 4, 4, 4]], np.float32)
    special = np.array([[np.nan, 1, -np.inf, 2, 0], [-0.0, 0.0, np.inf, np.nan, 1], [1, 1, np.nan, -np.inf, 3],
                        [np.inf, np.inf, 0, -0.0, -np.inf]], np.float32)
    return [tied, special, (tied * 7).astype(np.int32) % 5]


SCATTER_WINDOWS = [((2, 2), (1, 1), ((0, 0), (0, 0))), ((3, 2), (2, 2), ((1, 1), (0, 1))),
                   ((2, 3), (1, 3), ((2, 0), (1, 1)))]


@pytest.mark.parametrize("select_prim", [elementwise.ge_p, elementwise.le_p], ids=["ge", "le"])
def test_select_and_scatter_add(select_prim):
    # Overlapping windows add up at an element chosen by several of them; windows over padding select inside.
    def scatter_all(*operands):
        outs = []
        for window_dimensions, window_strides, padding in SCATTER_WINDOWS:
            scatter = _scatter(select_prim, window_dimensions, window_strides, padding)
            shape = windowed.window_output_shape((4, 5), window_dimensions, window_strides, padding, (1, 1), (1, 1))
            source = np.arange(1, 1 + np.prod(shape)).reshape(shape)
            outs += [scatter(source.astype(o.aval.dtype), o) for o in operands]
        return outs

    check_against_reference(scatter_all, *_pooling_operands(), eager=False)


def test_select_and_scatter_add_eagerly_and_with_zero_size_operands():
    operand = _pooling_operands()[0]
    source = np.arange(12, dtype=np.float32).reshape(3, 4)
    check_against_reference(_scatter(elementwise.ge_p, (2, 2), (1, 1), ((0, 0), (0, 0))), source, operand)
    check_against_reference(_scatter(elementwise.ge_p, (2, 2), (1, 1), ((0, 0), (0, 0))),
                            np.zeros((0, 3), np.float32), np.zeros((0, 4), np.float32))


def test_select_and_scatter_add_drops_what_the_padding_selects():
    # As in JAX: padding holds -inf for ge, which wins over an earlier -inf or NaN, and its share is dropped (the
    # reference gives it to the element instead).
    operand = np.array([[-np.inf, 1.0, np.nan]], np.float32)
    source = np.array([[1.0, 2.0, 4.0]], np.float32)
    for padding, expected in [(((0, 0), (1, 0)), [[0.0, 2.0, 4.0]]), (((0, 0), (0, 1)), [[0.0, 1.0, 2.0]])]:
        _, compiled, _ = run_both(_scatter(elementwise.ge_p, (1, 2), (1, 1), padding), source, operand)
        np.testing.assert_array_equal(compiled[0], expected)


GATHER_WINDOWS = [((2, 2), (1, 1), ((0, 0), (0, 0))), ((3, 2), (2, 1), ((1, 1), (0, 1))),
                  ((2, 2), (1, 2), ((1, 2), (2, 0)), (2, 1), (1, 2)), ((2, 3), (1, 1), ((3, 0), (0, 0)))]


@pytest.mark.parametrize("select_prim", [elementwise.ge_p, elementwise.le_p], ids=["ge", "le"])
def test_select_and_gather_add(select_prim):
    # The tangent at the selected element of each window; windows over holes and padding only give 0.
    tangents = np.arange(20).reshape(4, 5) * 3 + 1
    check_against_reference(lambda *operands: [_gather(select_prim, *window)(tangents.astype(o.aval.dtype), o)
                                               for window in GATHER_WINDOWS for o in operands],
                            *_pooling_operands(), eager=False)


def test_select_and_gather_add_eagerly_and_with_64_bit_values():
    operand = _pooling_operands()[1]
    check_against_reference(_gather(elementwise.ge_p, *GATHER_WINDOWS[2]), operand * 2, operand)
    with enable_x64():
        check_against_reference(_gather(elementwise.le_p, *GATHER_WINDOWS[1]), operand.astype(np.float64) - 1,
                                operand.astype(np.float64), eager=False)


def _select_and_scatter(operand, source, init, select, scatter, **params):
    scalar = np.zeros((), operand.dtype)
    chosen, combined = jc.make_jaxpr(select)(scalar, scalar), jc.make_jaxpr(scatter)(scalar, scalar)
    return windowed.select_and_scatter_p.bind(operand, source, init, select_jaxpr=chosen.jaxpr, select_consts=(),
                                         scatter_jaxpr=combined.jaxpr, scatter_consts=(), **params)


@pytest.mark.parametrize("dtype", [np.int32, np.float32], ids=lambda d: np.dtype(d).name)
def test_general_select_and_scatter(dtype):
    """Ties, overlapping windows and padding (never selected), on XLA as in the reference and a loop over windows."""
    x = np.array([[3, 1, 3, 0], [2, 3, 1, 1], [0, 0, 5, 5], [1, 2, 5, 4]], dtype)
    overlapping = dict(window_dimensions=(2, 2), window_strides=(1, 1), padding=((0, 0), (0, 0)))
    padded = dict(window_dimensions=(2, 2), window_strides=(2, 2), padding=((1, 1), (1, 1)))
    source = np.arange(1, 10, dtype=dtype).reshape(3, 3)
    f = lambda x, s: (_select_and_scatter(x, s, dtype(0), lax.ge, lax.add, **overlapping),
                      _select_and_scatter(x, s, dtype(7), lax.le, lax.max, **padded))
    check_against_reference(f, x, source)
    expected = np.zeros_like(x)
    for i in range(3):
        for j in range(3):
            r, c = np.unravel_index(np.argmax(x[i:i + 2, j:j + 2]), (2, 2))
            expected[i + r, j + c] += source[i, j]
    np.testing.assert_array_equal(np.asarray(jc.jit(f)(x, source)[0]), expected)
