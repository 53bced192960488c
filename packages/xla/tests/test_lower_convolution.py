"""XLA lowering of conv_general_dilated agrees with core's NumPy reference (and with JAX where the reference does
not)."""

import ml_dtypes
import numpy as np
import pytest
from conftest import FLOAT_EDGES, check_against_reference, random_values
from test_lower_dot import DTYPE_IDS, INEXACT, INTEGERS, contraction_tolerance

import jaxle_core as jc
from jaxle_core import lax
from jaxle_core.config import enable_x64

# Axis sizes by layout letter: the lhs's and the output's (N, C and spatial), the rhs's (O, I and window).
LHS_SIZES = {"N": 2, "C": 4, "H": 7, "W": 6, "D": 5}
RHS_SIZES = {"O": 3, "I": 4, "H": 3, "W": 2, "D": 2}


def conv(**params):
    return lambda x, w: lax.conv_general_dilated(x, w, **params)


def operands(rng, lhs_spec: str, rhs_spec: str, dtype=np.float32):
    return (random_values(rng, [LHS_SIZES[c] for c in lhs_spec], dtype),
            random_values(rng, [RHS_SIZES[c] for c in rhs_spec], dtype))


def tolerance(dtype, w: np.ndarray, rhs_spec: str) -> dict:
    """contraction_tolerance for contracting the input features and the window of ``w``."""
    k = int(np.prod([n for n, c in zip(w.shape, rhs_spec) if c != "O"]))
    return contraction_tolerance(dtype, k)


@pytest.mark.parametrize("lhs_spec,rhs_spec,out_spec", [
    ("NCH", "OIH", "NCH"), ("NHC", "HIO", "NHC"), ("HCN", "OHI", "CNH"),
    ("NCHW", "OIHW", "NCHW"), ("NHWC", "HWIO", "NHWC"), ("NHWC", "OIHW", "NCHW"), ("CWNH", "WIOH", "HCWN"),
    ("NCWH", "OIHW", "NWHC"),  # spatial axes in opposite orders
    ("NCDHW", "OIDHW", "NCDHW"), ("NDHWC", "DHWIO", "NDHWC"), ("DNHCW", "WDOHI", "CDWHN"),
])
def test_conv_dimension_layouts(lhs_spec, rhs_spec, out_spec):
    rng = np.random.default_rng(0)
    x, w = operands(rng, lhs_spec, rhs_spec)
    n = len(lhs_spec) - 2
    fun = conv(window_strides=(2,) + (1,) * (n - 1), padding=((1, 2),) + ((0, 1),) * (n - 1),
               rhs_dilation=(1,) * (n - 1) + (2,), dimension_numbers=(lhs_spec, rhs_spec, out_spec))
    check_against_reference(fun, x, w, **tolerance(np.float32, w, rhs_spec), eager=False)


def test_conv_without_spatial_axes():
    rng = np.random.default_rng(1)
    x, w = random_values(rng, (2, 3), np.float32), random_values(rng, (4, 3), np.float32)
    check_against_reference(conv(window_strides=(), padding=()), x, w, **contraction_tolerance(np.float32, 3))


def test_conv_padding_and_strides():
    # String paddings, asymmetric, negative (cropping) and oversized explicit padding, one with an empty result.
    rng = np.random.default_rng(2)
    x, w = operands(rng, "NCHW", "OIHW")
    paddings = ["SAME", "VALID", "SAME_LOWER", ((2, -1), (-1, 3)), ((4, 4), (0, 0)), ((-2, -3), (1, 1)),
                ((-3, -2), (0, 0))]
    strides = [(1, 1), (2, 3), (3, 2)]
    check_against_reference(
        lambda a, b: [lax.conv_general_dilated(a, b, s, p) for p in paddings for s in strides], x, w,
        **tolerance(np.float32, w, "OIHW"), eager=False)


def test_conv_dilations():
    # lhs dilation is a transposed convolution (holes between the inputs), rhs dilation an atrous one.
    rng = np.random.default_rng(3)
    x, w = operands(rng, "NHWC", "HWIO")
    dims = ("NHWC", "HWIO", "NHWC")
    cases = [dict(window_strides=(1, 1), padding=((2, 2), (1, 1)), lhs_dilation=(2, 2)),
             dict(window_strides=(1, 2), padding=((0, 1), (1, 0)), lhs_dilation=(3, 1)),
             dict(window_strides=(1, 1), padding="SAME", rhs_dilation=(2, 3)),
             dict(window_strides=(2, 1), padding=((1, -1), (2, 0)), lhs_dilation=(2, 1), rhs_dilation=(1, 2))]
    check_against_reference(lambda a, b: [lax.conv_general_dilated(a, b, dimension_numbers=dims, **c)
                                          for c in cases], x, w, **tolerance(np.float32, w, "HWIO"), eager=False)


def test_conv_feature_groups():
    # Depthwise (one group per input feature, two outputs each) and two groups, in two layouts.
    rng = np.random.default_rng(4)
    x = random_values(rng, (2, 6, 7, 5), np.float32)
    depthwise, grouped = random_values(rng, (12, 1, 3, 3), np.float32), random_values(rng, (4, 3, 2, 3), np.float32)
    check_against_reference(
        lambda a, b, c: [lax.conv_general_dilated(a, b, (1, 1), "SAME", feature_group_count=6),
                         lax.conv_general_dilated(a, c, (2, 1), "VALID", feature_group_count=2)],
        x, depthwise, grouped, **contraction_tolerance(np.float32, 27), eager=False)
    nhwc = np.moveaxis(x, 1, 3)
    hwio = np.transpose(grouped, (2, 3, 1, 0))
    check_against_reference(conv(window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                 feature_group_count=2), nhwc, hwio, **contraction_tolerance(np.float32, 18))


def test_conv_batch_groups():
    # Each group of the batch is convolved with its own slice of output features (weight gradients).
    rng = np.random.default_rng(5)
    x = random_values(rng, (4, 3, 6, 5), np.float32)
    w2, w4 = random_values(rng, (6, 3, 2, 2), np.float32), random_values(rng, (4, 3, 3, 1), np.float32)
    check_against_reference(
        lambda a, b, c: [lax.conv_general_dilated(a, b, (1, 2), "SAME", batch_group_count=2),
                         lax.conv_general_dilated(a, c, (1, 1), ((1, 0), (0, 0)), batch_group_count=4)],
        x, w2, w4, **contraction_tolerance(np.float32, 12), eager=False)
    check_against_reference(conv(window_strides=(1, 1), padding="VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                 batch_group_count=2), np.moveaxis(x, 1, 3), np.transpose(w2, (2, 3, 1, 0)),
                            **contraction_tolerance(np.float32, 12))


@pytest.mark.parametrize("dtype", INTEGERS + INEXACT, ids=DTYPE_IDS)
def test_conv_of_every_dtype(dtype):
    # Full-range integers overflow and wrap; booleans give "any (x and w)"; complex goes through three real
    # convolutions.
    rng = np.random.default_rng(6)
    with enable_x64():
        x, w = operands(rng, "NCHW", "OIHW", dtype)
        fun = conv(window_strides=(2, 1), padding=((1, 1), (0, 2)), lhs_dilation=(1, 2), rhs_dilation=(2, 1))
        check_against_reference(fun, x, w, **tolerance(dtype, w, "OIHW"), eager=False)


@pytest.mark.parametrize("dtype,preferred", [
    (np.int8, np.int32), (np.int8, np.float32), (np.uint8, np.int32), (np.uint8, np.uint16), (np.bool_, np.int32),
    (np.bool_, np.float32), (np.int16, np.int64), (np.int32, np.float64), (ml_dtypes.bfloat16, np.float32),
    (np.float16, np.float32), (np.float32, np.float64), (np.complex64, np.complex128),
], ids=DTYPE_IDS)
def test_conv_preferred_element_type(dtype, preferred):
    rng = np.random.default_rng(7)
    with enable_x64():
        x, w = operands(rng, "NHWC", "HWIO", dtype)
        fun = conv(window_strides=(1, 1), padding="SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                   preferred_element_type=preferred)
        scale = float(np.abs(x.astype(np.complex128)).max() * np.abs(w.astype(np.complex128)).max())
        # A complex convolution adds real and imaginary parts in the operands' precision (as JAX does) before
        # the real convolutions: its error is the operands' dtype's even when the result is wider.
        tolerance_dtype = dtype if np.dtype(dtype).kind == "c" else preferred
        check_against_reference(fun, x, w, **contraction_tolerance(tolerance_dtype, 24, scale), eager=False)


def test_conv_precision():
    rng = np.random.default_rng(8)
    x, w = operands(rng, "NCH", "OIH")
    check_against_reference(
        lambda a, b: [lax.conv_general_dilated(a, b, (1,), "SAME", precision=p)
                      for p in ("highest", (lax.Precision.DEFAULT, lax.Precision.HIGH))],
        x, w, **tolerance(np.float32, w, "OIH"), eager=False)


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.float32, np.complex64], ids=DTYPE_IDS)
def test_conv_of_empty_operands(dtype):
    rng = np.random.default_rng(9)
    # No input features: zeros; an empty batch: an empty result. (The reference cannot reshape these.)
    fun = jc.jit(conv(window_strides=(1, 1), padding="SAME"))
    out = fun(random_values(rng, (2, 0, 4, 3), dtype), random_values(rng, (5, 0, 2, 2), dtype))
    np.testing.assert_array_equal(np.asarray(out), np.zeros((2, 5, 4, 3), dtype))
    out = fun(random_values(rng, (0, 3, 4, 3), dtype), random_values(rng, (5, 3, 2, 2), dtype))
    assert np.asarray(out).shape == (0, 5, 4, 3) and np.asarray(out).dtype == dtype


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64], ids=DTYPE_IDS)
def test_conv_of_special_values(dtype):
    # Padding is zeros that multiply the window (0 * inf is NaN); rhs dilation skips inputs.
    with np.errstate(over="ignore"):
        x = FLOAT_EDGES.astype(dtype).reshape(1, 1, -1)
    w = np.array([1.0, np.inf, -0.0], dtype).reshape(1, 1, 3)
    check_against_reference(
        lambda a, b, c: [lax.conv_general_dilated(a, b, (1,), ((2, 2),)),
                         lax.conv_general_dilated(a, b, (1,), ((0, 0),), rhs_dilation=(3,)),
                         lax.conv_general_dilated(c, b, (1,), ((2, 2),))], x, w, np.ones((1, 1, 3), dtype),
        eager=False)


def test_transposed_conv_skips_the_holes_between_inputs():
    # The holes that lhs dilation inserts are not multiplied by the window (JAX 0.10.2 gives 1, not NaN, where
    # a hole meets an infinite weight); the reference multiplies them as zeros, so compare with the known answer.
    x = np.ones((1, 1, 3), np.float32)
    w = np.array([1.0, np.inf, -0.0], np.float32).reshape(1, 1, 3)
    out = jc.jit(conv(window_strides=(1,), padding=((1, 1),), lhs_dilation=(2,)))(x, w)
    np.testing.assert_array_equal(np.asarray(out).ravel(), [np.inf, 1.0, np.inf, 1.0, np.inf])


@pytest.mark.parametrize("dtype", [np.float16, ml_dtypes.bfloat16, np.float32, np.complex64], ids=DTYPE_IDS)
def test_conv_of_long_contractions(dtype):
    # 64 input features times a 3x3 window; see contraction_tolerance for the bound.
    rng = np.random.default_rng(10)
    x, w = random_values(rng, (2, 64, 8, 8), dtype), random_values(rng, (5, 64, 3, 3), dtype)
    check_against_reference(conv(window_strides=(1, 1), padding="SAME"), x, w, **tolerance(dtype, w, "OIHW"),
                            eager=False)


def test_conv_wrappers():
    rng = np.random.default_rng(11)
    x, w = operands(rng, "NCHW", "OIHW")
    check_against_reference(
        lambda a, b: [lax.conv(a, b, (1, 2), "SAME"),
                      lax.conv_with_general_padding(a, b, (2, 1), ((1, 0), (0, 1)), (1, 2), (2, 1))],
        x, w, **tolerance(np.float32, w, "OIHW"))


@pytest.mark.parametrize("params,message", [
    (dict(window_strides=(0, 1)), "expects window to have positive stride for 0-th window dimension, but got 0."),
    (dict(window_strides=(1, -2)), "expects window to have positive stride for 1-th window dimension, but got -2."),
    (dict(window_strides=(0, 1), kernel=(0, 2)),
     "expects window to have positive value for 0-th window dimension, but got 0."),
    (dict(window_strides=(1, 1), kernel=(2, 0)),
     "expects window to have positive value for 1-th window dimension, but got 0."),
    (dict(window_strides=(1, 1), rhs_dilation=(2,)),
     "expects window-dilation factors to have same dimension-size as size of window dimensions (2), but got: 1."),
])
def test_conv_rejects_what_xla_verifies_as_jax_does(params, message):
    # JAX traces these (make_jaxpr succeeds) and raises XLA's verifier error when compiling or running them.
    params = dict(params)
    x, w = np.ones((1, 2, 5, 5), np.float32), np.ones((3, 2, *params.pop("kernel", (2, 2))), np.float32)
    fun = conv(padding="VALID", **params)
    jc.make_jaxpr(fun)(x, w)
    for run in (jc.jit(fun), fun):
        with pytest.raises(ValueError) as error:
            run(x, w)
        assert str(error.value).split("\n")[:2] == ["Cannot lower jaxpr with verifier errors:", f"\t{message}"]


@pytest.mark.parametrize("strides,padding,kw", [
    ((2, 2), "SAME", {}), ((2, 3), "VALID", dict(transpose_kernel=True)), ((2, 1), ((1, 2), (0, 1)), {}),
    ((1, 2), "SAME", dict(rhs_dilation=(2, 1))), ((2, 3), ((1, 2), (0, 1)), dict(use_consistent_padding=True)),
])
def test_conv_transpose(strides, padding, kw):
    rng = np.random.default_rng(12)
    x, w = random_values(rng, (2, 4, 5, 3), np.float32), random_values(rng, (3, 2, 3, 3), np.float32)
    check_against_reference(lambda a, b: lax.conv_transpose(a, b, strides, padding, **kw), x, w,
                            **contraction_tolerance(np.float32, 18))


def test_conv_transpose_layouts_and_types():
    rng = np.random.default_rng(13)
    x, w = random_values(rng, (2, 3, 4, 5), np.float16), random_values(rng, (3, 4, 2, 3), np.float16)
    check_against_reference(
        lambda a, b: lax.conv_transpose(a, b, (2, 1), "SAME", dimension_numbers=("NCHW", "OIHW", "NCHW"),
                                        transpose_kernel=True, preferred_element_type=np.float32),
        x, w, **contraction_tolerance(np.float16, 18), eager=False)
    check_against_reference(lambda a, b: lax.conv_transpose(a, b, (3,), "VALID"),
                            random_values(rng, (2, 4, 3), np.int32), random_values(rng, (2, 3, 2), np.int32))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_, np.complex64], ids=DTYPE_IDS)
def test_conv_general_dilated_patches(dtype):
    # Each patch element is one input element times one: exact for every type.
    rng = np.random.default_rng(14)
    x = random_values(rng, (2, 3, 5, 4), dtype)
    check_against_reference(
        lambda a: [lax.conv_general_dilated_patches(a, (2, 3), (1, 2), "SAME", rhs_dilation=(2, 1)),
                   lax.conv_general_dilated_patches(a, (3, 2), (2, 1), ((1, 0), (1, 1)), lhs_dilation=(1, 2),
                                                    dimension_numbers=("NCWH", "HWIO", "NHWC"))],
        x, eager=False)


def test_conv_general_dilated_local():
    rng = np.random.default_rng(15)
    x = random_values(rng, (2, 5, 5, 3), np.float32)
    w = random_values(rng, (4, 4, 12, 2), np.float32)  # output H, W; 3 features x 2 x 2 window; 2 outputs
    check_against_reference(
        lambda a, b: lax.conv_general_dilated_local(a, b, (1, 1), "VALID", (2, 2),
                                                    dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                                    precision="highest"),
        x, w, **contraction_tolerance(np.float32, 12))
