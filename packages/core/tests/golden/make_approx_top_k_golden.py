"""Write approx_top_k_golden.json (lax.approx_max_k / approx_min_k: values, jaxprs, output sizes, jvp, vmap,
errors) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_approx_top_k_golden.py jax
"""

import importlib

import numpy as np
from make_reductions_golden import rand, write


def top(lax):
    return importlib.import_module(lax.__name__.split(".")[0])


def _values_and_tangent(jvp_out):
    """The values, indices and the values' tangent (the indices' tangent is float0)."""
    (values, indices), (tangent, _) = jvp_out
    return values, indices, tangent


TIES = np.array([[3.0, 1, 4, 1, 5, 9, 2, 6], [2, 7, 1, 8, 2, 8, 1, 8]], np.float32)
ZEROS = np.array([0.0, -0.0, 1.0, -0.0, 0.0, -1.0], np.float32)
# Distinct values, shuffled: the sizes of the non-aggregated results are XLA's, the values a plain sort.
LONG = np.random.default_rng(0).permutation(3000).astype(np.float32)

CASES = {}
for _name in ["approx_max_k", "approx_min_k"]:
    CASES[f"{_name}-ties"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, 3), (TIES,))
    CASES[f"{_name}-dim0"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, 2, reduction_dimension=0),
                                                   (rand((4, 3), "float32"),))
    CASES[f"{_name}-not-aggregated"] = lambda lax, n=_name: (
        lambda x: getattr(lax, n)(x, 1, reduction_dimension=0, aggregate_to_topk=False), (TIES,))
    CASES[f"{_name}-long"] = lambda lax, n=_name: (
        lambda x: getattr(lax, n)(x, 5, aggregate_to_topk=False, recall_target=0.9), (LONG,))
    CASES[f"{_name}-long-override"] = lambda lax, n=_name: (
        lambda x: getattr(lax, n)(x, 5, aggregate_to_topk=False, reduction_input_size_override=9000), (LONG,))
    CASES[f"{_name}-signed-zeros"] = lambda lax, n=_name: (lambda x: getattr(lax, n)(x, 6), (ZEROS,))
    for _dtype in ["float16", "bfloat16"]:
        CASES[f"{_name}-{_dtype}"] = lambda lax, n=_name, d=_dtype: (lambda x: getattr(lax, n)(x, 2),
                                                                     (rand((3, 5), d),))
CASES.update({
    "params": lambda lax: (lambda x: lax.approx_min_k(x, 1, reduction_dimension=0, recall_target=0.9,
                                                      reduction_input_size_override=10, aggregate_to_topk=False),
                           (TIES,)),
    "3d-middle": lambda lax: (lambda x: lax.approx_max_k(x, 2, reduction_dimension=-2), (rand((2, 5, 3), "float32"),)),
    "jvp": lambda lax: (lambda x, t: _values_and_tangent(top(lax).jvp(lambda y: lax.approx_max_k(y, 3), (x,), (t,))),
                        (TIES, rand((2, 8), "float32"))),
    "grad": lambda lax: (top(lax).grad(lambda x: lax.reduce_sum(lax.approx_min_k(x, 2)[0], (0, 1))), (TIES,)),
    "vmap": lambda lax: (top(lax).vmap(lambda x: lax.approx_max_k(x, 3)), (TIES,)),
    "vmap-axis1": lambda lax: (top(lax).vmap(lambda x: lax.approx_max_k(x, 1), 1), (TIES,)),
    "err-k-zero": lambda lax: (lambda x: lax.approx_max_k(x, 0), (rand((5,), "float32"),)),
    "err-k-negative": lambda lax: (lambda x: lax.approx_max_k(x, -1), (rand((5,), "float32"),)),
    "err-k-large": lambda lax: (lambda x: lax.approx_max_k(x, 6), (rand((5,), "float32"),)),
    "err-dimension": lambda lax: (lambda x: lax.approx_max_k(x, 1, reduction_dimension=1), (rand((5,), "float32"),)),
    "err-scalar": lambda lax: (lambda x: lax.approx_max_k(x, 1), (np.float32(1.0),)),
    "err-int": lambda lax: (lambda x: lax.approx_max_k(x, 2), (rand((5,), "int32"),)),
})

if __name__ == "__main__":
    write(CASES, "approx_top_k_golden.json")
