"""Write convolution_api_golden.json (lax conv_transpose, conv_general_dilated_patches/_local and the
convolution shape functions) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_convolution_api_golden.py jax

``CASES`` are recorded as the other lax goldens are (equations and values, or the error); ``TEXT_CASES`` by the
whole text make_jaxpr prints (and the error running them raises, where XLA rejects what JAX traced);
``SHAPE_CASES`` by the repr of what a shape function returns, or its error; ``FUNCTIONS`` by their signatures.
"""

import importlib
import inspect
import json
import sys

import numpy as np
from make_reductions_golden import HERE, rand, record

NHWC = ("NHWC", "HWIO", "NHWC")
NCHW = ("NCHW", "OIHW", "NCHW")


def _f32(*shapes):
    return tuple(rand(shape, "float32", seed) for seed, shape in enumerate(shapes))


# name: (lhs shape, rhs shape, positional arguments after the operands, keyword arguments)
TRANSPOSE_CONFIGS = {
    "same-strided": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 2), "SAME"), {}),
    "valid-strided": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 3), "VALID"), {}),
    "valid-stride-past-window": ((1, 4, 3, 2), (2, 1, 2, 3), ((3, 2), "VALID"), {}),
    "same-rhs-dilation": ((2, 4, 5, 2), (3, 2, 2, 3), ((2, 1), "SAME"), dict(rhs_dilation=(2, 1))),
    "valid-rhs-dilation": ((1, 4, 4, 1), (2, 3, 1, 2), ((1, 2), "VALID"), dict(rhs_dilation=(3, 2))),
    "explicit": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 1), ((1, 2), (0, 1))), {}),
    "explicit-list": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 1), [[1, 2], [0, 1]]), {}),
    "consistent-explicit": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 3), ((1, 2), (0, 1))), dict(use_consistent_padding=True)),
    "consistent-explicit-dilated": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 1), ((1, 2), (0, 1))),
                                    dict(use_consistent_padding=True, rhs_dilation=(2, 1))),
    "consistent-same": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 3), "SAME"), dict(use_consistent_padding=True)),
    "transpose-kernel-valid": ((1, 5, 5, 2), (3, 3, 4, 2), ((2, 2), "VALID"), dict(transpose_kernel=True)),
    "transpose-kernel-same-nchw": ((2, 3, 4, 5), (3, 2, 3, 2), ((2, 1), "SAME"),
                                   dict(transpose_kernel=True, dimension_numbers=NCHW)),
    "nchw": ((1, 2, 5, 5), (4, 2, 3, 3), ((2, 1), ((1, 2), (0, 1))), dict(rhs_dilation=(1, 2), dimension_numbers=NCHW)),
    "mixed-layout": ((5, 2, 3, 4), (2, 3, 3, 2), ((2, 1), "SAME"), dict(dimension_numbers=("HNCW", "WOIH", "CWHN"))),
    "1d": ((1, 5, 2), (3, 2, 4), ((2,), "SAME"), {}),
    "0d": ((3, 2), (2, 4), ((), "VALID"), {}),
    "3d": ((1, 3, 3, 3, 2), (2, 2, 2, 2, 4), ((2, 1, 1), "SAME"), {}),
    "3d-transpose-kernel": ((1, 3, 2, 3, 2), (2, 1, 2, 4, 2), ((1, 2, 2), "VALID"), dict(transpose_kernel=True)),
    "4d-dimension-numbers": ((1, 2, 3, 2, 2, 3), (3, 2, 2, 1, 2, 2), ((2, 1, 1, 2), "SAME"),
                             dict(dimension_numbers=("NCHWDE", "OIHWDE", "NCHWDE"))),
    "same-lower-unit-stride": ((1, 5, 5, 2), (3, 3, 2, 4), ((1, 1), "SAME_LOWER"), {}),
    "lowercase-unit-stride": ((1, 5, 5, 2), (3, 3, 2, 4), ((1, 1), "valid"), {}),
    "err-no-defaults-4d": ((1, 3, 3, 3, 3, 2), (2, 2, 2, 2, 2, 4), ((2, 1, 1, 1), "SAME"), {}),
    "err-same-lower-strided": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 3), "SAME_LOWER"), {}),
    "err-consistent-lowercase": ((1, 5, 5, 2), (3, 3, 2, 4), ((1, 1), "same"), dict(use_consistent_padding=True)),
    "err-unknown-padding-unit-stride": ((1, 5, 5, 2), (3, 3, 2, 4), ((1, 1), "FOO"), {}),
    "err-pads-count": ((1, 5, 5, 2), (3, 3, 2, 4), ((2, 1), ((1, 2),)), {}),
    "err-strides-count": ((1, 5, 5, 2), (3, 3, 2, 4), ((1,), "SAME"), {}),
    "err-zero-stride": ((1, 5, 5, 2), (3, 3, 2, 4), ((0, 1), "SAME"), {}),
    "err-negative-stride": ((1, 5, 5, 2), (3, 3, 2, 4), ((-1, 1), "VALID"), {}),
    "err-features": ((1, 5, 5, 2), (3, 3, 3, 4), ((2, 1), "SAME"), {}),
    "err-ranks": ((1, 3, 3, 2), (2, 2, 4), ((1, 1), "SAME"), {}),
}
CASES = {}
for _name, (_lhs, _rhs, _args, _kw) in TRANSPOSE_CONFIGS.items():
    _case = f"err-transpose-{_name[4:]}" if _name.startswith("err-") else f"transpose-{_name}"
    CASES[_case] = lambda lax, l=_lhs, r=_rhs, a=_args, kw=_kw: (
        lambda x, w: lax.conv_transpose(x, w, *a, **kw), _f32(l, r))
for _dtype in ["int32", "bool", "bfloat16", "complex64"]:
    CASES[f"transpose-{_dtype}"] = lambda lax, d=_dtype: (
        lambda x, w: lax.conv_transpose(x, w, (2, 1), "SAME", transpose_kernel=True),
        (rand((1, 3, 3, 2), d), rand((2, 2, 3, 2), d, 1)))
CASES.update({
    "transpose-precision-preferred": lambda lax: (
        lambda x, w: lax.conv_transpose(x, w, (2, 1), "SAME", transpose_kernel=True, precision="highest",
                                        preferred_element_type=np.float32),
        (rand((1, 3, 3, 2), "float16"), rand((2, 2, 4, 2), "float16", 1))),
    "transpose-weak": lambda lax: (
        lambda: lax.conv_transpose(lax.broadcast(1.5, (1, 3, 1)), lax.broadcast(2.0, (2, 1, 1)), (2,), "VALID",
                                   transpose_kernel=True), ()),
})

PATCHES_CONFIGS = {
    "2d-valid": ((1, 2, 5, 5), ((2, 3), (1, 1), "VALID"), {}),
    "2d-strided-same": ((2, 3, 5, 4), ((3, 2), (2, 1), "SAME"), {}),
    "dilations": ((1, 2, 6, 5), ((2, 2), (1, 2), ((1, 1), (2, 0))), dict(lhs_dilation=(2, 1), rhs_dilation=(1, 2))),
    "nhwc-hwio": ((1, 5, 5, 2), ((2, 3), (1, 1), "VALID"), dict(dimension_numbers=NHWC)),
    "mixed-layout": ((5, 2, 3, 4), ((3, 2), (1, 1), "SAME"), dict(dimension_numbers=("HNCW", "WOIH", "CWHN"))),
    "1d": ((2, 3, 7), ((3,), (2,), "SAME_LOWER"), {}),
    "3d": ((1, 2, 3, 4, 3), ((2, 1, 2), (1, 2, 1), "VALID"), {}),
    "err-filter-rank": ((1, 2, 5, 5), ((2,), (1, 1), "VALID"), {}),
    "err-zero-rhs-dilation": ((1, 2, 5, 5), ((2, 2), (1, 1), "VALID"), dict(rhs_dilation=(0, 1))),
}
for _name, (_lhs, _args, _kw) in PATCHES_CONFIGS.items():
    _case = f"err-patches-{_name[4:]}" if _name.startswith("err-") else f"patches-{_name}"
    CASES[_case] = lambda lax, l=_lhs, a=_args, kw=_kw: (
        lambda x: lax.conv_general_dilated_patches(x, *a, **kw), _f32(l))
for _dtype in ["int32", "bool", "float16", "complex64"]:
    CASES[f"patches-{_dtype}"] = lambda lax, d=_dtype: (
        lambda x: lax.conv_general_dilated_patches(x, (2,), (1,), "VALID"), (rand((1, 2, 5), d),))
CASES.update({
    "patches-precision-preferred": lambda lax: (
        lambda x: lax.conv_general_dilated_patches(x, (2, 3), (1, 1), "VALID", dimension_numbers=NHWC,
                                                   precision=lax.Precision.HIGHEST,
                                                   preferred_element_type=np.float32),
        (rand((1, 5, 5, 2), "float16"),)),
    "patches-weak": lambda lax: (
        lambda: lax.conv_general_dilated_patches(lax.broadcast(1.0, (1, 1, 3)), (2,), (1,), "VALID"), ()),
    "err-patches-precision-string": lambda lax: (
        lambda x: lax.conv_general_dilated_patches(x, (2, 2), (1, 1), "VALID", precision="highest"),
        _f32((1, 2, 5, 5))),
})

# name: (lhs shape, rhs shape, positional arguments after the operands, keyword arguments)
LOCAL_CONFIGS = {
    "2d-valid": ((1, 2, 5, 5), (3, 8, 4, 4), ((1, 1), "VALID", (2, 2)), {}),
    "nhwc-hwio": ((2, 5, 5, 2), (4, 4, 8, 3), ((1, 1), "VALID", (2, 2)), dict(dimension_numbers=NHWC)),
    "strided-dilated-same": ((1, 2, 5, 5), (3, 8, 3, 5), ((2, 1), "SAME", (2, 2)),
                             dict(lhs_dilation=(1, 1), rhs_dilation=(2, 1), precision="highest")),
    "mixed-layout": ((4, 2, 3, 5), (4, 2, 18, 2), ((1, 1), "VALID", (2, 3)),
                     dict(dimension_numbers=("HNCW", "WOIH", "CWHN"))),
    "1d": ((2, 3, 6), (4, 6, 5), ((1,), "VALID", (2,)), {}),
    "err-contracting": ((1, 2, 5, 5), (3, 7, 4, 4), ((1, 1), "VALID", (2, 2)), {}),
    "err-output-positions": ((1, 2, 5, 5), (3, 8, 3, 3), ((1, 1), "VALID", (2, 2)), {}),
    "precision-strings": ((1, 2, 5, 5), (3, 8, 4, 4), ((1, 1), "VALID", (2, 2)),
                          dict(precision=("high", "highest"))),
    "err-precision-unknown": ((1, 2, 5, 5), (3, 8, 4, 4), ((1, 1), "VALID", (2, 2)),
                              dict(precision=("HIGH", "highest"))),
}
for _name, (_lhs, _rhs, _args, _kw) in LOCAL_CONFIGS.items():
    _case = f"err-local-{_name[4:]}" if _name.startswith("err-") else f"local-{_name}"
    CASES[_case] = lambda lax, l=_lhs, r=_rhs, a=_args, kw=_kw: (
        lambda x, w: lax.conv_general_dilated_local(x, w, *a, **kw), _f32(l, r))
CASES.update({
    "local-precision-pair": lambda lax: (
        lambda x, w: lax.conv_general_dilated_local(x, w, (1, 1), "VALID", (2, 2),
                                                    precision=(lax.Precision.HIGH, lax.Precision.HIGHEST)),
        _f32((1, 2, 5, 5), (3, 8, 4, 4))),
    "err-local-precision-mixed": lambda lax: (
        lambda x, w: lax.conv_general_dilated_local(x, w, (1, 1), "VALID", (2, 2),
                                                    precision=(lax.Precision.HIGH, "highest")),
        _f32((1, 2, 5, 5), (3, 8, 4, 4))),
    # Positive weights: the holes' zeros times them are +0 (the NumPy reference's contractions do not keep -0).
    "local-lhs-dilation": lambda lax: (
        lambda x, w: lax.conv_general_dilated_local(x, w, (1, 1), ((0, 0), (0, 0)), (1, 2), lhs_dilation=(2, 2)),
        (rand((1, 1, 3, 3), "float32"), np.abs(rand((2, 2, 5, 4), "float32", 1)))),
    "local-bfloat16": lambda lax: (
        lambda x, w: lax.conv_general_dilated_local(x, w, (1,), "VALID", (2,)),
        (rand((1, 2, 4), "bfloat16"), rand((3, 4, 3), "bfloat16", 1))),
    "local-weak": lambda lax: (
        lambda: lax.conv_general_dilated_local(lax.broadcast(1.0, (1, 1, 3)), lax.broadcast(1.0, (1, 2, 2)), (1,),
                                               "VALID", (2,)), ()),
})

_CONV = (np.ones((1, 2, 5, 5), np.float32), np.ones((3, 2, 2, 2), np.float32))
# Traced only: conv_general_dilated lets empty windows, strides and dilation lengths through that XLA rejects when
# compiling.
TEXT_CASES = {
    "conv-zero-stride": lambda lax: (lambda x, w: lax.conv_general_dilated(x, w, (0, 1), "VALID"), _CONV),
    "conv-zero-stride-same": lambda lax: (lambda x, w: lax.conv_general_dilated(x, w, (0, 1), "SAME"), _CONV),
    "conv-negative-strides": lambda lax: (lambda x, w: lax.conv_general_dilated(x, w, (-2, -1), "VALID"), _CONV),
    "conv-empty-window": lambda lax: (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID"),
                                      (_CONV[0], np.ones((3, 2, 2, 0), np.float32))),
    "conv-empty-window-zero-stride": lambda lax: (lambda x, w: lax.conv_general_dilated(x, w, (0, 1), "SAME"),
                                                  (_CONV[0], np.ones((3, 2, 0, 2), np.float32))),
    "conv-short-rhs-dilation": lambda lax: (
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "VALID", rhs_dilation=(2,)), _CONV),
    "conv-long-lhs-dilation": lambda lax: (
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), ((0, 0), (0, 0)), lhs_dilation=(2, 1, 3)), _CONV),
    "transpose-kernel": CASES["transpose-transpose-kernel-valid"],
    "transpose-precision-preferred": CASES["transpose-precision-preferred"],
    "patches-precision-preferred": CASES["patches-precision-preferred"],
    "patches-bool": CASES["patches-bool"],
    "local-nhwc-hwio": CASES["local-nhwc-hwio"],
    "local-precision-pair": CASES["local-precision-pair"],
}

SHAPE_CASES = {
    "permutations-nchw": lambda lax: lax.conv_general_permutations(NCHW),
    "permutations-nhwc": lambda lax: lax.conv_general_permutations(NHWC),
    "permutations-reordered": lambda lax: lax.conv_general_permutations(("NCWH", "OIHW", "NHWC")),
    "permutations-0d": lambda lax: lax.conv_general_permutations(("CN", "IO", "NC")),
    "err-permutations-spatial": lambda lax: lax.conv_general_permutations(("NCHW", "OIHW", "NCHX")),
    "err-permutations-lhs-nc": lambda lax: lax.conv_general_permutations(("NXHW", "OIHW", "NCHW")),
    "err-permutations-rhs-oi": lambda lax: lax.conv_general_permutations(("NCHW", "OXHW", "NCHW")),
    "err-permutations-out-nc": lambda lax: lax.conv_general_permutations(("NCHW", "OIHW", "NNHW")),
    "err-permutations-duplicate": lambda lax: lax.conv_general_permutations(("NCHH", "OXHW", "NCHW")),
    "err-permutations-lowercase": lambda lax: lax.conv_general_permutations(("nchw", "oihw", "nchw")),
    "err-permutations-lengths": lambda lax: lax.conv_general_permutations(("NCH", "OIHW", "NCHW")),
    "err-permutations-conv-dimension-numbers": lambda lax: lax.conv_general_permutations(
        lax.ConvDimensionNumbers((0, 1, 2), (0, 1, 2), (0, 1, 2))),
    "conv-shape-valid": lambda lax: lax.conv_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (1, 1), "VALID"),
    "conv-shape-same": lambda lax: lax.conv_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (2, 1), "SAME"),
    "conv-shape-same-lower": lambda lax: lax.conv_shape_tuple((4, 2, 5, 5), (6, 2, 3, 2), (2, 1), "SAME_LOWER"),
    "conv-shape-explicit": lambda lax: lax.conv_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (2, 1), ((1, 1), (2, 0))),
    "conv-shape-lists": lambda lax: lax.conv_shape_tuple([4, 2, 5, 5], [6, 2, 2, 2], [1, 1], [[1, 1], [0, 0]]),
    "conv-shape-batch-groups": lambda lax: lax.conv_shape_tuple((4, 2, 5, 5), (6, 2, 2, 2), (1, 1), "VALID", 2),
    "conv-shape-window-too-big": lambda lax: lax.conv_shape_tuple((4, 2, 1, 5), (6, 2, 3, 2), (2, 1), "VALID"),
    "conv-shape-zero-stride": lambda lax: lax.conv_shape_tuple((4, 2, 5, 5), (6, 2, 2, 2), (0, 1), "VALID"),
    "conv-shape-negative-stride": lambda lax: lax.conv_shape_tuple((4, 2, 5, 5), (6, 2, 2, 2), (-1, 1), "VALID"),
    "err-conv-shape-pads-count": lambda lax: lax.conv_shape_tuple((4, 2, 5, 5), (6, 2, 2, 2), (1, 1), ((1, 1),)),
    "err-conv-shape-negative-padding": lambda lax: lax.conv_shape_tuple((4, 2, 5, 5), (6, 2, 2, 2), (1, 1),
                                                                        ((1, -8), (0, 0))),
    "err-conv-shape-batch-groups": lambda lax: lax.conv_shape_tuple((5, 2, 5, 5), (6, 2, 2, 2), (1, 1), "VALID", 2),
    "err-conv-shape-padding-string": lambda lax: lax.conv_shape_tuple((4, 2, 1, 5), (6, 2, 3, 2), (2, 1), "FOO"),
    "general-shape-same": lambda lax: lax.conv_general_shape_tuple((1, 5, 5, 2), (2, 2, 2, 3), (2, 1), "SAME", NHWC),
    "general-shape-mixed": lambda lax: lax.conv_general_shape_tuple((5, 1, 2, 5), (2, 3, 2, 2), (1, 1),
                                                                    ((1, 0), (2, 1)), ("HNCW", "WOIH", "CWHN")),
    "general-shape-zero-stride": lambda lax: lax.conv_general_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (0, 1),
                                                                          ((0, 0), (0, 0)), NCHW),
    "err-general-shape-negative-padding": lambda lax: lax.conv_general_shape_tuple(
        (1, 2, 5, 5), (3, 2, 2, 2), (1, 1), ((-7, 0), (0, 0)), NCHW),
    "err-general-shape-conv-dimension-numbers": lambda lax: lax.conv_general_shape_tuple(
        (1, 2, 5, 5), (3, 2, 2, 2), (1, 1), "VALID", lax.ConvDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3),
                                                                              (0, 1, 2, 3))),
    "err-general-shape-none": lambda lax: lax.conv_general_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (1, 1), "VALID",
                                                                       None),
    "transpose-shape-valid": lambda lax: lax.conv_transpose_shape_tuple((1, 5, 5, 2), (3, 2, 2, 3), (2, 3), "VALID",
                                                                        NHWC),
    "transpose-shape-same": lambda lax: lax.conv_transpose_shape_tuple((1, 5, 5, 2), (3, 2, 2, 3), (2, 3), "SAME",
                                                                       NHWC),
    "transpose-shape-explicit": lambda lax: lax.conv_transpose_shape_tuple((1, 5, 5, 2), (3, 2, 2, 3), (2, 3),
                                                                           ((1, 2), (0, 1)), NHWC),
    "transpose-shape-nchw": lambda lax: lax.conv_transpose_shape_tuple((2, 3, 4, 5), (6, 3, 2, 3), (1, 2), "VALID",
                                                                       NCHW),
    "transpose-shape-zero-stride": lambda lax: lax.conv_transpose_shape_tuple((1, 5, 5, 2), (3, 2, 2, 3), (0, 3),
                                                                              "SAME", NHWC),
    "transpose-shape-negative-padding": lambda lax: lax.conv_transpose_shape_tuple(
        (1, 5, 5, 2), (3, 2, 2, 3), (1, 3), ((-20, 0), (0, 0)), NHWC),
    "err-transpose-shape-padding-string": lambda lax: lax.conv_transpose_shape_tuple(
        (1, 5, 5, 2), (3, 2, 2, 3), (2, 3), "SAME_LOWER", NHWC),
    "err-transpose-shape-none": lambda lax: lax.conv_transpose_shape_tuple((1, 2, 5, 5), (3, 2, 2, 2), (2, 3), "SAME",
                                                                           None),
    "reduce-window-shape": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2), ((0, 0), (1, 1))),
    "reduce-window-shape-dilated": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2),
                                                                             ((0, 0), (1, 1)), (2, 1), (1, 2)),
    "reduce-window-shape-lists": lambda lax: lax.reduce_window_shape_tuple([5, 6], [2, 2], [1, 2], [[0, 0], [1, 1]]),
    "reduce-window-shape-window-too-big": lambda lax: lax.reduce_window_shape_tuple((5, 6), (7, 2), (1, 2),
                                                                                    ((0, 0), (1, 1))),
    "reduce-window-shape-negative-padding": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2),
                                                                                      ((-9, 0), (1, 1))),
    "err-reduce-window-shape-zero-stride": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (0, 2),
                                                                                     ((0, 0), (1, 1))),
    "err-reduce-window-shape-zero-dilation": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2),
                                                                                       ((0, 0), (1, 1)), (0, 1)),
    "err-reduce-window-shape-padding-string": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2),
                                                                                        "VALID"),
    "err-reduce-window-shape-short-padding": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2),
                                                                                       ((0, 0),)),
    "err-reduce-window-shape-short-window": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2,), (1, 2),
                                                                                      ((0, 0), (1, 1))),
    "err-reduce-window-shape-long-window": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2, 2), (1, 2),
                                                                                     ((0, 0), (1, 1))),
    "err-reduce-window-shape-short-strides": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1,),
                                                                                       ((0, 0), (1, 1))),
    "err-reduce-window-shape-long-strides": lambda lax: lax.reduce_window_shape_tuple((5, 6), (2, 2), (1, 2, 3),
                                                                                      ((0, 0), (1, 1))),
}


def _error(error: Exception) -> dict:
    return {"error": type(error).__name__, "message": str(error).split("\n")[0]}


def trace_text(module, build) -> dict:
    """The jaxpr's text, and the first two lines of the error running the function raises (if it does)."""
    fn, args = build(module.lax)
    try:
        text = str(module.make_jaxpr(fn)(*args))
    except Exception as error:  # noqa: BLE001 - the error type is what we record
        return _error(error)
    try:
        fn(*args)
    except Exception as error:  # noqa: BLE001 - the error type is what we record
        return {"text": text, "run_error": type(error).__name__, "run_message": str(error).split("\n")[:2]}
    return {"text": text}


def shape_result(module, build) -> dict:
    try:
        return {"repr": repr(build(module.lax))}
    except Exception as error:  # noqa: BLE001 - the error type is what we record
        return _error(error)


FUNCTIONS = ["conv_transpose", "conv_general_dilated_patches", "conv_general_dilated_local",
             "conv_general_permutations", "conv_general_shape_tuple", "conv_shape_tuple", "conv_transpose_shape_tuple",
             "reduce_window_shape_tuple"]


def signature(module, name: str) -> list:
    """Each parameter's name, kind and default."""
    parameters = inspect.signature(getattr(module.lax, name)).parameters.values()
    return [[p.name, p.kind.name, repr(p.default)] for p in parameters]


def record_all(module) -> dict:
    return {"signatures": {name: signature(module, name) for name in FUNCTIONS},
            "cases": record(module, CASES),
            "text": {name: trace_text(module, build) for name, build in TEXT_CASES.items()},
            "shapes": {name: shape_result(module, build) for name, build in SHAPE_CASES.items()}}


if __name__ == "__main__":
    golden = record_all(importlib.import_module(sys.argv[1]))
    (HERE / "convolution_api_golden.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
