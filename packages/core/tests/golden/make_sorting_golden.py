"""Write sorting_golden.json (lax sort, sort_key_val, top_k) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_sorting_golden.py jax
"""

import numpy as np
from make_reductions_golden import rand, write

_SPECIAL = np.array([3.0, np.nan, -np.nan, -np.inf, 0.0, -0.0, np.inf, 1.0, -1.0, 0.0, -0.0], np.float32)
_COMPLEX = np.array([1 + 1j, complex(np.nan, 0), 1 - 1j, 5j, complex(0, np.nan), 1 + 1j], np.complex64)
CASES = {}
for _dtype in ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]:
    for _dim in [0, 1, -1]:
        CASES[f"sort-{_dtype}-{_dim}"] = lambda lax, d=_dtype, a=_dim: (
            lambda x: lax.sort(x, dimension=a), (rand((4, 6), d),))
    CASES[f"sort_key_val-{_dtype}"] = lambda lax, d=_dtype: (
        lambda k, v: lax.sort_key_val(k, v), (rand((3, 6), d), rand((3, 6), "int32", 1)))
    for _axis in [0, -1]:
        CASES[f"top_k-{_dtype}-{_axis}"] = lambda lax, d=_dtype, a=_axis: (
            lambda x: lax.top_k(x, 3, axis=a), (rand((4, 6), d),))
CASES.update({
    "sort-special": lambda lax: (lambda x: lax.sort(x), (_SPECIAL,)),
    "sort-special-neg": lambda lax: (lambda x: lax.sort(-x), (_SPECIAL,)),
    "sort_key_val-special": lambda lax: (lambda x: lax.sort_key_val(x, np.arange(11, dtype=np.int32)), (_SPECIAL,)),
    "sort-complex-special": lambda lax: (lambda x: lax.sort_key_val(x, np.arange(6, dtype=np.int32)), (_COMPLEX,)),
    "top_k-special": lambda lax: (lambda x: lax.top_k(x, 11), (_SPECIAL,)),
    "top_k-ties": lambda lax: (lambda x: lax.top_k(x, 4), (np.array([1, 3, 3, 2, 1, 3], np.int32),)),
    "top_k-zero": lambda lax: (lambda x: lax.top_k(x, 0), (rand((2, 3), "float32"),)),
    "top_k-weak": lambda lax: (lambda: lax.top_k(lax.broadcast(2.0, (3,)), 2), ()),
    "sort-weak-pair": lambda lax: (lambda: lax.sort((lax.broadcast(2.0, (3,)), lax.broadcast(1, (3,)))), ()),
    "sort-two-keys": lambda lax: (
        lambda a, b, c: lax.sort((a, b, c), num_keys=2),
        (np.array([1, 0, 1, 0, 1], np.int32), np.array([3.0, 2.0, 1.0, 2.0, 1.0], np.float32),
         np.arange(5, dtype=np.int32))),
    "sort-three-operands-dim0": lambda lax: (
        lambda a, b: lax.sort((a, b), dimension=0, num_keys=1), (rand((5, 2), "int8"), rand((5, 2), "float32"))),
    "sort-unstable": lambda lax: (lambda x: lax.sort(x, is_stable=False), (rand((7,), "float32"),)),
    "sort-empty": lambda lax: (lambda x: lax.sort(x), (rand((3, 0), "float32"),)),
    "err-sort-shapes": lambda lax: (lambda a, b: lax.sort((a, b)), (rand((3,), "float32"), rand((4,), "float32"))),
    "err-sort-num_keys": lambda lax: (lambda a, b: lax.sort((a, b), num_keys=3),
                                      (rand((3,), "float32"), rand((3,), "float32"))),
    "err-sort-dimension": lambda lax: (lambda x: lax.sort(x, dimension=1), (rand((3,), "float32"),)),
    "err-top_k-large": lambda lax: (lambda x: lax.top_k(x, 4), (rand((2, 3), "float32"),)),
    "err-top_k-negative": lambda lax: (lambda x: lax.top_k(x, -1), (rand((2, 3), "float32"),)),
    "err-top_k-complex": lambda lax: (lambda x: lax.top_k(x, 1), (rand((2, 3), "complex64"),)),
    "err-top_k-scalar": lambda lax: (lambda x: lax.top_k(x, 1), (np.float32(1.0),)),
})

if __name__ == "__main__":
    write(CASES, "sorting_golden.json")
