"""Write scatter_apply_golden.json (lax.scatter_apply: jaxprs, values, vmap, errors) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_scatter_apply_golden.py jax
"""

import importlib

import numpy as np
from make_reductions_golden import rand, write


def top(lax):
    return importlib.import_module(lax.__name__.split(".")[0])


def rows(lax):
    return lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))


def windows(lax):
    return lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))


REPEATED = np.array([[1], [3], [1]], np.int32)
CASES = {
    "sin-repeated": lambda lax: (lambda x, i: lax.scatter_apply(x, i, lax.sin, rows(lax), update_shape=(3,)),
                                 (rand((5,), "float32"), REPEATED)),
    "int-add-one": lambda lax: (lambda x, i: lax.scatter_apply(x, i, lambda v: v + 1, rows(lax), update_shape=(3,)),
                                (rand((5,), "int32"), REPEATED)),
    "windows-clip": lambda lax: (
        lambda x, i: lax.scatter_apply(x, i, lambda v: v * 2, windows(lax), update_shape=(2, 2), mode="clip",
                                       indices_are_sorted=True, unique_indices=True),
        (rand((4, 2), "float32"), np.array([[1], [7]], np.int32))),
    "out-of-bounds-dropped": lambda lax: (
        lambda x, i: lax.scatter_apply(x, i, lax.neg, rows(lax), update_shape=(3,)),
        (rand((5,), "float32"), np.array([[0], [5], [-1]], np.int32))),
    "vmap": lambda lax: (top(lax).vmap(lambda x: lax.scatter_apply(x, REPEATED, lax.exp, rows(lax),
                                                                   update_shape=(3,))),
                         (rand((2, 5), "float32"),)),
    "closes-over-constant": lambda lax: (
        lambda x: lax.scatter_apply(x, REPEATED, lambda v: v * np.float32(3), rows(lax), update_shape=(3,)),
        (rand((5,), "float32"),)),
    "err-closes-over-tracer": lambda lax: (
        lambda x, y: lax.scatter_apply(x, REPEATED, lambda v: v * y, rows(lax), update_shape=(3,)),
        (rand((5,), "float32"), np.float32(2))),
    "err-update-shape": lambda lax: (lambda x, i: lax.scatter_apply(x, i, lax.sin, rows(lax)),
                                     (rand((5,), "float32"), REPEATED)),
    "err-grad": lambda lax: (top(lax).grad(lambda x: lax.reduce_sum(
        lax.scatter_apply(x, REPEATED, lax.sin, rows(lax), update_shape=(3,)), (0,))), (rand((5,), "float32"),)),
}

if __name__ == "__main__":
    write(CASES, "scatter_apply_golden.json")
