"""XLA lowering of dot_general agrees with core's NumPy reference (and with JAX where the reference does not)."""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values, run_both

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64
from jaxle_core.lax.dot import canonicalize_precision
from jaxle_xla.lowering import lower_to_text

INTEGERS = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
INEXACT = [np.float16, ml_dtypes.bfloat16, np.float32, np.float64, np.complex64, np.complex128]
DTYPE_IDS = lambda d: np.dtype(d).name  # noqa: E731


def contraction_tolerance(dtype, k: int, scale: float = 9.0) -> dict:
    """rtol/atol for a float contraction of length ``k`` over products of typical size ``scale``.

    Sums of ``k`` random products have a typical size ``scale * sqrt(k)``; the reference (NumPy's einsum adding
    one product after another) and XLA (blocked) round differently, by up to about ``eps * sqrt(k)`` of that size,
    so ``atol = 4 * eps * sqrt(k) * scale * sqrt(k)``. Exact for integers (``{}``: the dtype defaults).
    """
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return {}
    eps = float(ml_dtypes.finfo(np.finfo(dtype).dtype if dtype.kind == "c" else dtype).eps)
    scale *= 2 if dtype.kind == "c" else 1
    return {"rtol": 2 * eps, "atol": 4 * eps * np.sqrt(k) * scale * np.sqrt(max(k, 1))}


def dot_general(dimension_numbers, precision=None, preferred_element_type=None):
    return lambda x, y: lax.dot_general(x, y, dimension_numbers, precision, preferred_element_type)


# (lhs shape, rhs shape, dimension_numbers): batch and contracting axes anywhere; the result is
# (batch, lhs free, rhs free).
LAYOUTS = [
    ((3,), (3,), (((0,), (0,)), ((), ()))),  # vector . vector -> scalar
    ((4, 3), (3,), (((1,), (0,)), ((), ()))),  # matrix . vector
    ((4, 3), (3, 5), (((1,), (0,)), ((), ()))),  # matrix product
    ((3, 4), (5, 3), (((0,), (1,)), ((), ()))),  # both transposed
    ((2, 3), (4,), (((), ()), ((), ()))),  # outer product
    ((), (), (((), ()), ((), ()))),  # scalars
    ((2, 4, 3), (2, 3, 5), (((2,), (1,)), ((0,), (0,)))),  # batched matmul
    ((4, 3, 2), (3, 5, 2), (((1,), (0,)), ((2,), (2,)))),  # batch axis last
    ((3, 2, 6, 4), (6, 5, 2, 3), (((0, 2), (3, 0)), ((1,), (2,)))),  # two contracting axes in swapped order
    ((2, 3, 4), (4, 3, 2), (((), ()), ((0, 1), (2, 1)))),  # batch only
    ((5, 2, 3, 4), (4, 2, 3), (((3, 2), (0, 2)), ((1,), (1,)))),
]


@pytest.mark.parametrize("lhs_shape,rhs_shape,dimension_numbers", LAYOUTS)
def test_dot_general_dimension_layouts(lhs_shape, rhs_shape, dimension_numbers):
    rng = np.random.default_rng(0)
    x, y = random_values(rng, lhs_shape, np.float32), random_values(rng, rhs_shape, np.float32)
    k = int(np.prod([lhs_shape[d] for d in dimension_numbers[0][0]]))
    check_against_reference(dot_general(dimension_numbers), x, y, **contraction_tolerance(np.float32, k),
                            eager=False)


@pytest.mark.parametrize("dtype", INTEGERS + INEXACT, ids=DTYPE_IDS)
def test_dot_general_of_every_dtype(dtype):
    # Full-range integers overflow and wrap; booleans contract to "any (x and y)".
    rng = np.random.default_rng(1)
    with enable_x64():
        x, y = random_values(rng, (2, 5, 3), dtype), random_values(rng, (5, 4, 2), dtype)
        check_against_reference(dot_general((((1,), (0,)), ((0,), (2,)))), x, y, **contraction_tolerance(dtype, 5))


@pytest.mark.parametrize("lhs_dtype,rhs_dtype,preferred", [
    (np.int8, np.int8, np.int32), (np.int8, np.int8, np.float32), (np.uint8, np.uint8, np.int32),
    (np.uint8, np.uint8, np.uint32), (np.bool_, np.bool_, np.int32), (np.bool_, np.bool_, np.float32),
    (np.int16, np.int16, np.int64), (np.uint32, np.uint32, np.uint64), (np.int32, np.int32, np.float64),
    (ml_dtypes.bfloat16, ml_dtypes.bfloat16, np.float32), (np.float16, np.float16, np.float32),
    (np.float32, np.float32, np.float64), (np.float32, np.float32, np.float16),
    (np.float32, np.float32, np.complex64), (np.complex64, np.complex64, np.complex128),
    # Mixed operands are computed in the result type.
    (np.float16, np.float32, None), (np.int8, np.float32, None), (np.uint8, np.int8, None), (np.bool_, np.int8, None),
    (np.complex64, np.float32, None), (np.int8, np.int16, np.int32), (np.float16, np.float32, np.float64),
    (ml_dtypes.bfloat16, np.float16, None), (np.int32, np.uint8, np.float32),
], ids=lambda d: "none" if d is None else np.dtype(d).name)
def test_dot_general_preferred_and_mixed_types(lhs_dtype, rhs_dtype, preferred):
    rng = np.random.default_rng(2)
    with enable_x64():
        x, y = random_values(rng, (3, 6), lhs_dtype), random_values(rng, (6, 2), rhs_dtype)
        fun = dot_general((((1,), (0,)), ((), ())), None, preferred)
        out_dtype = jc.make_jaxpr(fun)(x, y).out_avals[0].dtype
        scale = float(np.abs(x.astype(np.complex128)).max() * np.abs(y.astype(np.complex128)).max())
        check_against_reference(fun, x, y, **contraction_tolerance(out_dtype, 6, scale), eager=False)


def test_dot_general_of_floats_to_integers_converts_the_float_result():
    # JAX (checked on 0.10.2) contracts in float and converts the sum (truncating toward zero); the reference
    # truncates the operands first, so compare with NumPy. Quarters keep every sum exact.
    x = np.array([[1.5, 1.25, 0.0], [-1.5, -1.25, 0.0], [0.5, 0.0, 0.0], [0.25, -0.25, 0.0]], np.float32)
    y = np.ones((3, 2), np.float32)
    exact = x.astype(np.float64) @ y
    _, (to_int, to_bool), _ = run_both(lambda a, b: [dot_general((((1,), (0,)), ((), ())), None, t)(a, b)
                                                     for t in (np.int32, np.bool_)], x, y)
    np.testing.assert_array_equal(to_int, np.trunc(exact).astype(np.int32))
    np.testing.assert_array_equal(to_bool, exact != 0)


@pytest.mark.parametrize("precision", [None, "highest", "bfloat16_3x", "default",
                                       (lax.Precision.HIGH, lax.Precision.HIGHEST)], ids=str)
def test_dot_general_precision(precision):
    rng = np.random.default_rng(3)
    x, y = random_values(rng, (2, 7), np.float32), random_values(rng, (7, 3), np.float32)
    fun = dot_general((((1,), (0,)), ((), ())), precision)
    check_against_reference(fun, x, y, **contraction_tolerance(np.float32, 7))
    pair = canonicalize_precision(precision) or (lax.Precision.DEFAULT,) * 2
    text = lower_to_text(jc.make_jaxpr(fun)(x, y), "f")
    assert (f"precision_config = [#stablehlo<precision {pair[0].name}>, "
            f"#stablehlo<precision {pair[1].name}>]") in text


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float32, np.complex64], ids=DTYPE_IDS)
def test_dot_general_of_empty_arrays(dtype):
    # A size-0 contraction sums nothing: zeros (False); size-0 free or batch axes give empty results.
    rng = np.random.default_rng(4)
    x, y = random_values(rng, (3, 0), dtype), random_values(rng, (0, 4), dtype)
    check_against_reference(dot_general((((1,), (0,)), ((), ()))), x, y)
    out = lax.dot_general(x, y, (((1,), (0,)), ((), ())))
    np.testing.assert_array_equal(np.asarray(out), np.zeros((3, 4), dtype))
    x, y = random_values(rng, (0, 2, 3), dtype), random_values(rng, (0, 3, 5), dtype)
    check_against_reference(dot_general((((2,), (1,)), ((0,), (0,)))), x, y)
    x, y = random_values(rng, (2, 0), dtype), random_values(rng, (2, 5), dtype)
    check_against_reference(dot_general((((0,), (0,)), ((), ()))), x, y)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=DTYPE_IDS)
def test_dot_general_of_special_values(dtype):
    # inf * 0 and inf - inf give NaN; NaN and inf propagate through the sums; -0.0 * 1 sums to 0.
    with np.errstate(over="ignore"):
        edges = FLOAT_EDGES.astype(dtype)
    x = np.stack([edges, edges[::-1], np.ones_like(edges)])
    y = np.stack([edges, np.ones_like(edges), np.full_like(edges, -2.0)])
    check_against_reference(lambda a, b, c: [lax.dot_general(a, b, (((1,), (0,)), ((), ()))),
                                             lax.dot_general(a, c, (((), ()), ((0, 1), (0, 1))))], x, y.T, y)


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.complex64], ids=DTYPE_IDS)
def test_dot_general_of_long_contractions(dtype):
    # Narrow floats are accumulated in float32 on both sides; see contraction_tolerance for the bound.
    k = 2048
    rng = np.random.default_rng(5)
    x, y = random_values(rng, (4, k), dtype), random_values(rng, (k, 3), dtype)
    check_against_reference(dot_general((((1,), (0,)), ((), ()))), x, y, **contraction_tolerance(dtype, k),
                            eager=False)


def test_dot_and_batch_matmul_wrappers():
    rng = np.random.default_rng(6)
    x, y = random_values(rng, (2, 3, 4), np.float32), random_values(rng, (2, 4, 5), np.float32)
    m, v = random_values(rng, (3, 4), np.float32), random_values(rng, (4,), np.float32)
    check_against_reference(lambda a, b, c, d: [lax.batch_matmul(a, b), lax.dot(c, d), lax.dot(d, d)],
                            x, y, m, v, **contraction_tolerance(np.float32, 4))
