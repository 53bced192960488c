"""Write convolution_golden.json (lax conv_general_dilated and its wrappers) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_convolution_golden.py jax
"""

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

if __name__ == "__main__":
    write(CASES, "convolution_golden.json")
