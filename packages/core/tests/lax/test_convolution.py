"""lax convolution: jaxprs and values against JAX 0.10.2 goldens, and the reference against NumPy."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core import lax

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("convolution")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_matches(SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


# Cases whose values must equal JAX's bit for bit (non-finite weights, rounding through the compute type).
EXACT = sorted(name for name in GEN.CASES if "error" not in GOLDEN[name] and (
    name.startswith(("float8-", "transposed-", "padding-times-", "no-features", "empty-"))
    or name.startswith("preferred-") and GOLDEN[name]["values"][0]["dtype"] != "float32"))


@pytest.mark.parametrize("name", EXACT)
def test_values_exactly_match_jax(name):
    got, want = SHARED.run_case(jaxle_core, GEN.CASES[name]), GOLDEN[name]
    for g, w in zip(got["values"], want["values"], strict=True):
        assert (g["dtype"], g["shape"]) == (w["dtype"], w["shape"])
        np.testing.assert_array_equal(np.asarray(g["values"], np.float64), np.asarray(w["values"], np.float64))


@pytest.mark.parametrize("name", sorted(n for n in GEN.CASES if "error" in GOLDEN[n]))
def test_error_messages_match_jax(name):
    assert SHARED.run_case(jaxle_core, GEN.CASES[name]) == GOLDEN[name]


def test_transposed_convolution_skips_the_holes():
    weights = np.array([1.0, np.inf, -0.0], np.float32).reshape(1, 1, 3)
    got = lax.conv_general_dilated(np.ones((1, 1, 3), np.float32), weights, (1,), ((1, 1),), lhs_dilation=(2,))
    np.testing.assert_array_equal(np.asarray(got).ravel(), [np.inf, 1.0, np.inf, 1.0, np.inf])


def test_padding_zeros_are_multiplied():
    weights = np.array([np.inf, 1.0], np.float32).reshape(1, 1, 1, 2)
    got = lax.conv_general_dilated(np.ones((1, 2, 1, 2), np.float32), np.concatenate([weights, weights], 1),
                                   (1, 1), ((0, 0), (1, 0)))
    np.testing.assert_array_equal(np.asarray(got).ravel(), [np.nan, np.inf])  # 0 * inf + 1 * 1, 1 * inf + 1 * 1


@pytest.mark.parametrize("lhs_shape,rhs_shape,out_shape", [((0, 2, 5), (3, 2, 2), (0, 3, 4)),
                                                           ((2, 0, 5), (3, 0, 2), (2, 3, 4))])
def test_empty_batch_or_features(lhs_shape, rhs_shape, out_shape):
    got = lax.conv_general_dilated(np.ones(lhs_shape, np.float32), np.full(rhs_shape, np.inf, np.float32), (1,),
                                   "VALID")
    np.testing.assert_array_equal(np.asarray(got), np.zeros(out_shape, np.float32))


def _conv_loop(lhs, rhs, strides, padding, lhs_dilation, rhs_dilation, groups):
    """A direct NCHW/OIHW convolution written as nested loops over output and kernel positions."""
    n, c, h, w = lhs.shape
    o, i, kh, kw = rhs.shape
    dilated = np.zeros((n, c, (h - 1) * lhs_dilation[0] + 1, (w - 1) * lhs_dilation[1] + 1), lhs.dtype)
    dilated[:, :, ::lhs_dilation[0], ::lhs_dilation[1]] = lhs
    x = np.pad(dilated, ((0, 0), (0, 0), padding[0], padding[1]))
    span_h, span_w = (kh - 1) * rhs_dilation[0] + 1, (kw - 1) * rhs_dilation[1] + 1
    out_h, out_w = (x.shape[2] - span_h) // strides[0] + 1, (x.shape[3] - span_w) // strides[1] + 1
    out = np.zeros((n, o, out_h, out_w))
    per_group = o // groups
    for b in range(n):
        for f in range(o):
            g = f // per_group
            for y in range(out_h):
                for z in range(out_w):
                    for a in range(kh):
                        for d in range(kw):
                            pixel = x[b, g * i:(g + 1) * i, y * strides[0] + a * rhs_dilation[0],
                                      z * strides[1] + d * rhs_dilation[1]]
                            out[b, f, y, z] += pixel @ rhs[f, :, a, d]
    return out


@pytest.mark.parametrize("strides,padding,lhs_dilation,rhs_dilation,groups", [
    ((1, 1), ((0, 0), (0, 0)), (1, 1), (1, 1), 1),
    ((2, 1), ((1, 2), (2, 0)), (1, 1), (2, 1), 1),
    ((1, 2), ((1, 1), (0, 1)), (2, 2), (1, 2), 2),
])
def test_conv_matches_numpy_loops(strides, padding, lhs_dilation, rhs_dilation, groups):
    lhs = SHARED.rand((2, 4, 5, 6), "float32")
    rhs = SHARED.rand((6, 4 // groups, 3, 2), "float32", 1)
    got = lax.conv_general_dilated(lhs, rhs, strides, padding, lhs_dilation, rhs_dilation,
                                   feature_group_count=groups)
    want = _conv_loop(lhs.astype(np.float64), rhs.astype(np.float64), strides, padding, lhs_dilation, rhs_dilation,
                      groups)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-5)


def test_negative_padding_crops_the_input():
    lhs = SHARED.rand((1, 1, 6, 6), "float32")
    rhs = SHARED.rand((1, 1, 2, 2), "float32", 1)
    got = lax.conv_general_dilated(lhs, rhs, (1, 1), ((-1, 1), (0, -2)))
    want = _conv_loop(np.pad(lhs[:, :, 1:, :4], ((0, 0), (0, 0), (0, 1), (0, 0))), rhs, (1, 1), ((0, 0), (0, 0)),
                      (1, 1), (1, 1), 1)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-6)


def test_conv_dimension_numbers_from_strings():
    dnums = lax.conv_dimension_numbers((1, 2, 3, 4), (5, 2, 3, 3), ("NHWC", "HWIO", "NHWC"))
    assert dnums == lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    assert lax.conv_dimension_numbers((1, 2, 3), (5, 2, 3), None) == lax.ConvDimensionNumbers(
        (0, 1, 2), (0, 1, 2), (0, 1, 2))
