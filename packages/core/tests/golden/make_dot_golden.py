"""Write dot_golden.json (lax dot_general, dot, batch_matmul) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_dot_golden.py jax
"""

import ml_dtypes
import numpy as np
from make_reductions_golden import rand, write

MATMUL = (((1,), (0,)), ((), ()))
CASES = {}
for _dtype in ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]:
    CASES[f"matmul-{_dtype}"] = lambda lax, d=_dtype: (
        lambda a, b: lax.dot_general(a, b, MATMUL), (rand((3, 4), d), rand((4, 2), d, 1)))
    CASES[f"batched-{_dtype}"] = lambda lax, d=_dtype: (
        lambda a, b: lax.dot_general(a, b, (((2,), (0,)), ((0,), (2,)))), (rand((2, 3, 4), d), rand((4, 5, 2), d, 1)))
for _lhs, _rhs in [("int32", "float32"), ("float32", "bfloat16"), ("int8", "int16"), ("float16", "bfloat16"),
                   ("uint8", "int8"), ("bool", "int32"), ("float32", "complex64"), ("uint32", "int8")]:
    CASES[f"mixed-{_lhs}-{_rhs}"] = lambda lax, l=_lhs, r=_rhs: (
        lambda a, b: lax.dot_general(a, b, MATMUL), (rand((2, 3), l), rand((3, 2), r, 1)))
CASES.update({
    "int8-wraps": lambda lax: (lambda a, b: lax.dot(a, b),
                               (np.full((1, 4), 100, np.int8), np.full((4, 1), 100, np.int8))),
    "int8-preferred-int32": lambda lax: (lambda a, b: lax.dot(a, b, preferred_element_type=np.int32),
                                         (np.full((1, 4), 100, np.int8), np.full((4, 1), 100, np.int8))),
    "int8-preferred-float32": lambda lax: (lambda a, b: lax.dot_general(a, b, MATMUL,
                                                                        preferred_element_type=np.float32),
                                           (rand((2, 3), "int8"), rand((3, 2), "int8", 1))),
    "bool-preferred-int32": lambda lax: (lambda a, b: lax.dot(a, b, preferred_element_type=np.int32),
                                         (rand((2, 3), "bool"), rand((3, 2), "bool", 1))),
    "f32-preferred-f16": lambda lax: (lambda a, b: lax.dot_general(a, b, MATMUL, preferred_element_type=np.float16),
                                      (rand((2, 3), "float32"), rand((3, 2), "float32", 1))),
    "precision-highest": lambda lax: (lambda a, b: lax.dot(a, b, precision=lax.Precision.HIGHEST),
                                      (rand((2, 3), "float32"), rand((3,), "float32", 1))),
    "precision-string": lambda lax: (lambda a, b: lax.dot_general(a, b, MATMUL, precision="bfloat16_3x"),
                                     (rand((2, 3), "float32"), rand((3, 2), "float32", 1))),
    "precision-pair": lambda lax: (
        lambda a, b: lax.dot_general(a, b, MATMUL, precision=(lax.Precision.HIGH, lax.Precision.DEFAULT)),
        (rand((2, 3), "float32"), rand((3, 2), "float32", 1))),
    "err-precision-mixed-pair": lambda lax: (
        lambda a, b: lax.dot_general(a, b, MATMUL, precision=(lax.Precision.HIGH, "default")),
        (rand((2, 3), "float32"), rand((3, 2), "float32", 1))),
    "vector-vector": lambda lax: (lambda a, b: lax.dot(a, b), (rand((3,), "float32"), rand((3,), "float32", 1))),
    "vector-matrix": lambda lax: (lambda a, b: lax.dot(a, b), (rand((3,), "float32"), rand((3, 2), "float32", 1))),
    "outer": lambda lax: (lambda a, b: lax.dot_general(a, b, (((), ()), ((), ()))),
                          (rand((3,), "float32"), rand((2,), "float32", 1))),
    "list-dimension-numbers": lambda lax: (lambda a, b: lax.dot_general(a, b, ([0], [0])),
                                           (rand((3, 2), "float32"), rand((3, 4), "float32", 1))),
    "int-dimension-numbers": lambda lax: (lambda a, b: lax.dot_general(a, b, ((0, 0), ((), ()))),
                                          (rand((3, 2), "float32"), rand((3, 4), "float32", 1))),
    "multi-contract": lambda lax: (lambda a, b: lax.dot_general(a, b, (((0, 2), (1, 0)), ((), ()))),
                                   (rand((2, 3, 4), "float32"), rand((4, 2, 5), "float32", 1))),
    "dot-with-dimension-numbers": lambda lax: (
        lambda a, b: lax.dot(a, b, dimension_numbers=(((2,), (1,)), ((0,), (0,)))),
        (rand((2, 3, 4), "float32"), rand((2, 4, 5), "float32", 1))),
    "weak": lambda lax: (lambda: lax.dot(lax.broadcast(2.0, (3,)), lax.broadcast(1.5, (3,))), ()),
    "half-weak": lambda lax: (lambda b: lax.dot(lax.broadcast(2.0, (3,)), b), (rand((3,), "float32"),)),
    "empty-contraction": lambda lax: (lambda a, b: lax.dot(a, b), (rand((2, 0), "float32"), rand((0, 3), "float32"))),
    "batch_matmul": lambda lax: (lambda a, b: lax.batch_matmul(a, b),
                                 (rand((7, 2, 3, 4), "float32"), rand((7, 2, 4, 5), "float32", 1))),
    "batch_matmul-2d": lambda lax: (lambda a, b: lax.batch_matmul(a, b),
                                    (rand((3, 4), "float32"), rand((4, 5), "float32", 1))),
    "err-contract-shape": lambda lax: (lambda a, b: lax.dot_general(a, b, MATMUL),
                                       (rand((2, 3), "float32"), rand((4, 2), "float32"))),
    "err-batch-shape": lambda lax: (lambda a, b: lax.dot_general(a, b, (((1,), (0,)), ((0,), (1,)))),
                                    (rand((2, 3), "float32"), rand((3, 4), "float32"))),
    "err-dims-range": lambda lax: (lambda a, b: lax.dot_general(a, b, (((2,), (0,)), ((), ()))),
                                   (rand((2, 3), "float32"), rand((3, 4), "float32"))),
    "err-dot-rank3": lambda lax: (lambda a, b: lax.dot(a, b), (rand((2, 3, 4), "float32"), rand((4, 5), "float32"))),
    "err-dot-scalar": lambda lax: (lambda a: lax.dot(a, 2.0), (rand((3, 4), "float32"),)),
    "err-batch_matmul-shapes": lambda lax: (lambda a, b: lax.batch_matmul(a, b),
                                            (rand((2, 3, 4), "float32"), rand((2, 5, 5), "float32"))),
})

# Float sums converted to an integer or bool result: truncated, saturated, NaN to 0 (True for bool).
_TO_INT = np.array([[1.7, -2.6, 0.9], [3e9, 0, 0], [np.nan, 0, 0], [-5.5, 0, 0], [300.7, 0, 0], [np.inf, 0, 0],
                    [-np.inf, 0, 0], [0.3, 0, 0], [-0.0, 0, 0]], np.float32)
for _out in ["int32", "int8", "uint8", "uint32", "bool"]:
    CASES[f"f32-preferred-{_out}"] = lambda lax, o=_out: (
        lambda a, b: lax.dot(a, b, preferred_element_type=o), (_TO_INT, np.ones(3, np.float32)))


def _f8(name, values):
    return np.array(values, np.float32).astype(getattr(ml_dtypes, name))


# name: (lhs dtype, rhs dtype, preferred_element_type), contracted over random data
for _name, (_lhs, _rhs, _pref) in {
    "f16-preferred-int32": ("float16", "float16", "int32"),
    "bf16-preferred-f16": ("bfloat16", "bfloat16", "float16"),
    "f16-preferred-bf16": ("float16", "float16", "bfloat16"),
    "c64-preferred-f32": ("complex64", "complex64", "float32"),
    "c64-preferred-int32": ("complex64", "complex64", "int32"),
    "f32-preferred-c64": ("float32", "float32", "complex64"),
    "uint8-preferred-int8": ("uint8", "uint8", "int8"),
    "int8-preferred-uint8": ("int8", "int8", "uint8"),
    "int8-preferred-f16": ("int8", "int8", "float16"),
    "mixed-f32-int32-preferred-int32": ("float32", "int32", "int32"),
    "mixed-f32-int8-preferred-bool": ("float32", "int8", "bool"),
    "f8-e4m3fn-e5m2": ("float8_e4m3fn", "float8_e5m2", None),
    "f8-e5m2-e4m3fn": ("float8_e5m2", "float8_e4m3fn", None),
    "f8-e4m3fn-e5m2-preferred-f32": ("float8_e4m3fn", "float8_e5m2", "float32"),
    "f8-e4m3fn-e5m2-preferred-e4m3fn": ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fn"),
    "f8-e4m3fn-preferred-e5m2": ("float8_e4m3fn", "float8_e4m3fn", "float8_e5m2"),
    "f8-e5m2-f16": ("float8_e5m2", "float16", None),
    "f32-preferred-e5m2": ("float32", "float32", "float8_e5m2"),
    "err-f8-e4m3-e4m3fnuz": ("float8_e4m3", "float8_e4m3fnuz", None),
    "err-int32-preferred-int8": ("int32", "int32", "int8"),
    "err-int8-preferred-bool": ("int8", "int8", "bool"),
    "err-int32-preferred-f16": ("int32", "int32", "float16"),
    "err-c64-preferred-f16": ("complex64", "complex64", "float16"),
}.items():
    CASES[_name] = lambda lax, l=_lhs, r=_rhs, p=_pref: (
        lambda a, b: lax.dot_general(a, b, MATMUL, preferred_element_type=p), (rand((5, 4), l), rand((4, 3), r, 1)))
CASES.update({
    # e4m3fn 1.125 rounds to 1.0 in e5m2, the type the mixed product is computed in: 1.0 + 0.0625 rounds to 1.0
    "f8-mixed-rounds-operand": lambda lax: (lambda a, b: lax.dot(a, b), (_f8("float8_e4m3fn", [1.125, 0.0625]),
                                                                          _f8("float8_e5m2", [1, 1]))),
    # 1 + 0.125 + 2**-12 rounds to 1.125 in float16, then to even (1.0) in e5m2
    "f8-sum-rounds-through-f16": lambda lax: (lambda a, b: lax.dot(a, b), (_f8("float8_e5m2", [1, 0.125, 2 ** -12]),
                                                                             _f8("float8_e5m2", [1, 1, 1]))),
    "single-term-negative-zero": lambda lax: (lambda a, b: lax.dot(a, b),
                                              (np.array([[-1.0], [2.0]], np.float32), np.array([[0.0, -0.0]],
                                                                                               np.float32))),
    "outer-negative-zero": lambda lax: (lambda a, b: lax.dot_general(a, b, (((), ()), ((), ()))),
                                        (np.array([-1.0, 2.0], np.float32), np.array([0.0, -0.0], np.float32))),
    "batched-single-term-negative-zero": lambda lax: (
        lambda a, b: lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
        (np.full((2, 3, 1), -1.0, np.float32), np.zeros((2, 1, 2), np.float32))),
    "two-terms-zero-sum": lambda lax: (lambda a, b: lax.dot(a, b),
                                       (np.array([-0.0, -0.0], np.float32), np.ones(2, np.float32))),
})

if __name__ == "__main__":
    write(CASES, "dot_golden.json")
