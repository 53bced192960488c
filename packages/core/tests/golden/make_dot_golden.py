"""Write dot_golden.json (lax dot_general, dot, batch_matmul) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_dot_golden.py jax
"""

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

if __name__ == "__main__":
    write(CASES, "dot_golden.json")
