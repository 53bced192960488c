"""Write convolution_golden.json (lax conv_general_dilated and its wrappers) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_convolution_golden.py jax
"""

import ml_dtypes
import numpy as np
from make_reductions_golden import rand, write

# name: (lhs shape, rhs shape, keyword arguments of conv_general_dilated)
CONFIGS = {
    "1d-valid": ((2, 3, 9), (4, 3, 3), dict(window_strides=(1,), padding="VALID")),
    "1d-same-strided": ((2, 3, 9), (4, 3, 4), dict(window_strides=(2,), padding="SAME")),
    "1d-same-lower": ((1, 2, 8), (3, 2, 4), dict(window_strides=(3,), padding="SAME_LOWER")),
    "1d-nwc": ((2, 9, 3), (3, 3, 4), dict(window_strides=(1,), padding="SAME",
                                           dimension_numbers=("NWC", "WIO", "NWC"))),
    "2d-valid": ((2, 3, 6, 7), (4, 3, 3, 2), dict(window_strides=(1, 1), padding="VALID")),
    "2d-explicit": ((1, 2, 5, 5), (3, 2, 3, 3), dict(window_strides=(2, 1), padding=((1, 2), (0, 1)))),
    "2d-rhs-dilation": ((1, 2, 9, 9), (2, 2, 3, 3), dict(window_strides=(1, 2), padding="SAME", rhs_dilation=(2, 1))),
    "2d-lhs-dilation": ((1, 2, 4, 5), (3, 2, 3, 3), dict(window_strides=(1, 1), padding=((2, 2), (1, 2)),
                                                          lhs_dilation=(2, 3))),
    "2d-both-dilations": ((2, 2, 4, 4), (2, 2, 2, 3), dict(window_strides=(2, 1), padding=((1, 1), (2, 0)),
                                                            lhs_dilation=(2, 1), rhs_dilation=(1, 2))),
    "2d-nhwc": ((2, 6, 5, 3), (3, 3, 3, 4), dict(window_strides=(1, 1), padding="SAME",
                                                  dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "2d-mixed-layout": ((5, 2, 3, 6), (3, 4, 2, 2), dict(window_strides=(1, 1), padding="VALID",
                                                          dimension_numbers=("HNCW", "OHWI", "CWNH"))),
    "2d-feature-groups": ((2, 4, 5, 5), (6, 2, 3, 3), dict(window_strides=(1, 1), padding="SAME",
                                                            feature_group_count=2)),
    "2d-depthwise": ((1, 3, 5, 5), (6, 1, 2, 2), dict(window_strides=(1, 1), padding="VALID", feature_group_count=3)),
    "2d-batch-groups": ((4, 3, 5, 5), (6, 3, 3, 3), dict(window_strides=(1, 1), padding="VALID", batch_group_count=2)),
    "2d-window-too-big": ((1, 1, 2, 5), (1, 1, 3, 3), dict(window_strides=(1, 1), padding="VALID")),
    "3d": ((1, 2, 4, 5, 3), (2, 2, 2, 3, 2), dict(window_strides=(1, 2, 1), padding="SAME", rhs_dilation=(1, 1, 2))),
    "3d-ndhwc": ((1, 4, 3, 5, 2), (2, 2, 3, 2, 3), dict(window_strides=(1, 1, 1), padding="VALID",
                                                         dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))),
}
CASES = {}
for _name, (_lhs, _rhs, _kw) in CONFIGS.items():
    CASES[_name] = lambda lax, l=_lhs, r=_rhs, kw=_kw: (
        lambda a, b: lax.conv_general_dilated(a, b, **kw), (rand(l, "float32"), rand(r, "float32", 1)))
for _dtype in ["int8", "int32", "float16", "bfloat16", "complex64", "bool"]:
    CASES[f"dtype-{_dtype}"] = lambda lax, d=_dtype: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "SAME"), (rand((1, 2, 4, 4), d), rand((3, 2, 2, 2), d, 1)))
_NCHW = ((1, 2, 5, 5), (3, 2, 3, 3))
CASES.update({
    "int8-preferred-int32": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", preferred_element_type="int32"),
        (rand((1, 2, 5, 5), "int8") * 20, rand((3, 2, 3, 3), "int8", 1) * 20)),
    "precision": lambda lax: (lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", precision="highest"),
                              (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "weak": lambda lax: (lambda: lax.conv(lax.broadcast(2.0, (1, 1, 3)), lax.broadcast(1.0, (1, 1, 2)), (1,),
                                          "VALID"), ()),
    "conv": lambda lax: (lambda a, b: lax.conv(a, b, (2, 1), "SAME"),
                         (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "conv_with_general_padding": lambda lax: (
        lambda a, b: lax.conv_with_general_padding(a, b, (1, 1), ((1, 1), (0, 2)), (2, 1), (1, 2)),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-dtypes": lambda lax: (lambda a, b: lax.conv(a, b, (1, 1), "VALID"),
                               (rand(_NCHW[0], "float32"), rand(_NCHW[1], "int32", 1))),
    "err-strides": lambda lax: (lambda a, b: lax.conv(a, b, (1,), "VALID"),
                                (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-padding-string": lambda lax: (lambda a, b: lax.conv(a, b, (1, 1), "FOO"),
                                       (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-padding-count": lambda lax: (lambda a, b: lax.conv_general_dilated(a, b, (1, 1), [(1, 1)]),
                                      (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-string-padding-lhs-dilation": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "SAME", lhs_dilation=(2, 1)),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-feature-groups": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", feature_group_count=2),
        (rand((1, 4, 5, 5), "float32"), rand((6, 3, 3, 3), "float32", 1))),
    "err-batch-groups": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", batch_group_count=2),
        (rand((2, 4, 5, 5), "float32"), rand((5, 4, 3, 3), "float32", 1))),
    "err-preferred-narrower": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", preferred_element_type="float16"),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-dimension-numbers-length": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW")),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-dimension-numbers-chars": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHX")),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
})


def _weights(values, shape):
    return np.array(values, np.float32).reshape(shape)


# Non-finite weights: XLA on CPU multiplies the padding zeros and lhs dilation's holes by them (0 * inf is NaN),
# except in transposed convolutions of one or two spatial dimensions with unit strides, where it skips both.
_INF_2D = _weights([[np.inf, 1.0], [1.0, -0.0], [2.0, np.nan], [1.0, 1.0]], (2, 1, 2, 2))
CASES.update({
    "transposed-inf-weight": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1,), ((1, 1),), lhs_dilation=(2,)),
        (np.ones((1, 1, 3), np.float32), _weights([1.0, np.inf, -0.0], (1, 1, 3)))),
    "transposed-strided-inf-weights-2d": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (2, 2), ((2, 2), (2, 2)), lhs_dilation=(2, 2)),
        (np.ones((1, 1, 3, 3), np.float32), _INF_2D)),
    "transposed-rhs-dilated-inf-weights-2d": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), ((3, 3), (3, 3)), lhs_dilation=(2, 2),
                                              rhs_dilation=(2, 2)),
        (np.ones((1, 1, 3, 3), np.float32), _INF_2D)),
    "transposed-unit-stride-2d": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), ((1, 1), (1, 1)), lhs_dilation=(2, 1)),
        (np.ones((1, 1, 2, 2), np.float32), _INF_2D[:1])),
    "transposed-3d": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1, 1), ((1, 1), (1, 0), (0, 1)), lhs_dilation=(2, 1, 2)),
        (np.ones((1, 1, 2, 2, 2), np.float32), _INF_2D[:, :, :, :, None])),
    "padding-times-inf-weights-2d": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), ((1, 1), (2, 1))),
        (np.ones((1, 1, 3, 3), np.float32), _INF_2D)),
})
# Empty batch, no input features, and an empty output feature dimension.
for _name, (_lhs, _rhs, _kw) in {
    "empty-batch": ((0, 2, 5), (3, 2, 2), {}),
    "no-features": ((2, 0, 5), (3, 0, 2), {}),
    "no-features-groups": ((2, 0, 5), (4, 0, 2), dict(feature_group_count=2)),
    "empty-batch-groups": ((0, 2, 5), (4, 2, 2), dict(batch_group_count=2)),
    "no-features-transposed": ((1, 0, 3), (2, 0, 2), dict(lhs_dilation=(2,), padding=((1, 1),))),
    "no-output-features": ((2, 2, 5), (0, 2, 2), {}),
    "empty-spatial-padded": ((1, 2, 0), (3, 2, 1), dict(padding=((1, 1),))),
}.items():
    CASES[_name] = lambda lax, l=_lhs, r=_rhs, kw=_kw: (
        lambda a, b: lax.conv_general_dilated(a, b, (1,), **{"padding": "VALID", **kw}),
        (np.ones(l, np.float32), np.full(r, np.inf, np.float32)))
CASES["no-features-int8"] = lambda lax: (lambda a, b: lax.conv_general_dilated(a, b, (1,), "VALID"),
                                         (np.ones((1, 0, 3), np.int8), np.ones((2, 0, 2), np.int8)))
def _preferred_operands(dtype):
    lhs, rhs = rand((1, 2, 4, 4), dtype), rand((3, 2, 2, 2), dtype, 1)
    if dtype == "uint8":  # products past int8's range, to show the int8 result wraps
        lhs, rhs = lhs * np.uint8(7), rhs * np.uint8(9)
    return lhs, rhs


# preferred_element_type: accepted combinations (computed in the more precise of input and result) and rejected ones.
for _dtype, _preferred in [("uint8", "int8"), ("bool", "float32"), ("bool", "int32"), ("bool", "uint8"),
                           ("bool", "bool"), ("float16", "bfloat16"), ("bfloat16", "float16"), ("float16", "float32"),
                           ("int8", "float16"), ("float8_e4m3fn", "float8_e5m2"), ("float8_e5m2", "float32"),
                           ("float32", "int32"), ("float32", "complex64"), ("int8", "uint8"), ("int32", "uint32"),
                           ("complex64", "float32"), ("int32", "int16"), ("float32", "bfloat16"), ("int32", "float16")]:
    _name = f"preferred-{_dtype}-{_preferred}"
    if _dtype in ("float32", "int32", "complex64") or _preferred == "uint8" and _dtype == "int8":
        _name = "err-" + _name
    CASES[_name] = lambda lax, d=_dtype, p=_preferred: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "SAME", preferred_element_type=p),
        _preferred_operands(d))
CASES.update({
    # 1 + 0.125 + 2**-12 rounds to 1.125 in float16, then to even (1.0) in e5m2
    "float8-sum-rounds-through-f16": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1,), "VALID"),
        (np.array([1, 0.125, 2 ** -12], np.float32).astype(ml_dtypes.float8_e5m2).reshape(1, 1, 3),
         np.ones((1, 1, 3), ml_dtypes.float8_e5m2))),
    "err-feature-group-count-zero": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", feature_group_count=0),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-batch-group-count-zero": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", batch_group_count=0),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1))),
    "err-negative-padding-past-the-operand": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), ((1, 1), (-2, -3)), lhs_dilation=(1, 2)),
        (rand((1, 2, 3, 2), "float32"), rand((3, 2, 1, 1), "float32", 1))),
    "negative-padding-to-empty": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), ((1, 1), (-2, -1)), lhs_dilation=(1, 2)),
        (rand((1, 2, 3, 2), "float32"), rand((3, 2, 1, 1), "float32", 1))),
    "err-feature-groups-indivisible": lambda lax: (
        lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "VALID", feature_group_count=3),
        (rand((1, 4, 5, 5), "float32"), rand((6, 1, 3, 3), "float32", 1))),
})
# Strides and dilation lengths that JAX traces but XLA's verifier rejects (ValueError when run), dilations that are
# not positive, malformed padding and layouts.
for _name, _kw in {
    "zero-stride": dict(window_strides=(0, 1)),
    "negative-strides": dict(window_strides=(1, -2)),
    "zero-stride-same": dict(window_strides=(0, 1), padding="SAME"),
    "short-rhs-dilation": dict(rhs_dilation=(2,)),
    "long-lhs-dilation": dict(lhs_dilation=(2, 1, 3), padding=((0, 0), (0, 0))),
    "zero-rhs-dilation": dict(rhs_dilation=(0, 1)),
    "negative-lhs-dilation": dict(lhs_dilation=(1, -1), padding=((0, 0), (0, 0))),
    "zero-rhs-dilation-same": dict(rhs_dilation=(1, 0), padding="SAME"),
    "padding-triple": dict(padding=((0, 0), (0, 0, 1))),
    "padding-int": dict(padding=3),
    "dimension-numbers-duplicate": dict(dimension_numbers=("NCHH", "OIHW", "NCHW")),
    "dimension-numbers-no-features": dict(dimension_numbers=("NNHW", "OIHW", "NCHW")),
    "dimension-numbers-rhs-lowercase": dict(dimension_numbers=("NCHW", "oihw", "NCHW")),
    "dimension-numbers-short": dict(dimension_numbers=("NCH", "OIHW", "NCHW")),
}.items():
    CASES[f"err-{_name}"] = lambda lax, kw=_kw: (
        lambda a, b: lax.conv_general_dilated(a, b, **{"window_strides": (1, 1), "padding": "VALID", **kw}),
        (rand(_NCHW[0], "float32"), rand(_NCHW[1], "float32", 1)))

if __name__ == "__main__":
    write(CASES, "convolution_golden.json")
