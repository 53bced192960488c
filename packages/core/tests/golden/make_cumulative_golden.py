"""Write cumulative_golden.json (lax cumsum/cumprod/cummax/cummin/cumlogsumexp) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_cumulative_golden.py jax
"""

import ml_dtypes
import numpy as np
from make_reductions_golden import rand, write

NAMES = ["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"]
CASES = {}
for _dtype in ["int8", "uint8", "int32", "float16", "bfloat16", "float32", "bool"]:
    for _name in NAMES:
        if _name == "cumlogsumexp" and "int" in _dtype:
            continue  # JAX fails evaluating it on integers
        for _axis, _reverse in [(0, False), (1, False), (1, True)]:
            CASES[f"{_name}-{_dtype}-{_axis}-{_reverse}"] = (
                lambda lax, n=_name, d=_dtype, a=_axis, r=_reverse: (
                    lambda x: getattr(lax, n)(x, a, reverse=r), (rand((3, 5), d),)))
_SPECIAL = np.array([3.0, np.nan, -np.inf, 0.0, -0.0, np.inf, 1.0, -1.0], np.float32)
for _name in NAMES:
    CASES[f"{_name}-special"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x[3:]), (_SPECIAL,))
    CASES[f"{_name}-special-nan"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, reverse=True), (_SPECIAL,))
    CASES[f"{_name}-weak"] = lambda lax, n=_name: (lambda: getattr(lax, n)(lax.broadcast(0.5, (3,))), ())
    CASES[f"{_name}-empty"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, 1), (rand((2, 0), "float32"),))
    CASES[f"err-{_name}-negative-axis"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, -1),
                                                               (rand((3,), "float32"),))
    CASES[f"err-{_name}-axis"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, 1), (rand((3,), "float32"),))
CASES["cumsum-int8-wrap"] = lambda lax: (lambda x: lax.cumsum(x), (np.full((5,), 100, np.int8),))
CASES["cumsum-complex"] = lambda lax: (lambda x: lax.cumsum(x, 1), (rand((2, 3), "complex64"),))

# narrow floats: sums run without the narrow accumulator saturating (outputs are rounded), products round every
# step (a partial product may overflow)
for _dtype in ["float16", "bfloat16"]:
    for _name in ["cumsum", "cumlogsumexp"]:
        CASES[f"{_name}-{_dtype}-long"] = lambda lax, n=_name, d=_dtype: (
            lambda x: lax.slice(getattr(lax, n)(x), (2990,), (3000,)), (np.full(
                (3000,), 1.0 if n == "cumsum" else 0.0, np.dtype(getattr(ml_dtypes, d, d))),))
    CASES[f"cumprod-{_dtype}-overflowing-partial"] = lambda lax, d=_dtype: (
        lambda x: lax.cumprod(x), (np.array([300.0, 300.0, 1 / 256, 2.0], np.float32).astype(
            np.dtype(getattr(ml_dtypes, d, d))),))
# a cumulative sum of two or more elements starts from +0.0
for _shape, _reverse in [((2,), False), ((3,), True), ((1,), False)]:
    CASES[f"cumsum-negzero-{_shape}-{_reverse}"] = lambda lax, s=_shape, r=_reverse: (
        lambda x: lax.cumsum(x, reverse=r), (np.full(s, -0.0, np.float32),))

if __name__ == "__main__":
    write(CASES, "cumulative_golden.json")
