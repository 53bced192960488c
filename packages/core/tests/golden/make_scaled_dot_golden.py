"""Write scaled_dot_golden.json (lax.scaled_dot: values, jaxprs, vmap, errors) with the named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_scaled_dot_golden.py jax
"""

import importlib

import ml_dtypes
import numpy as np
from make_reductions_golden import rand, write


def top(lax):
    return importlib.import_module(lax.__name__.split(".")[0])


def f8(shape, seed):
    return rand(shape, "float32", seed).astype(ml_dtypes.float8_e4m3fn)


def scales(shape, seed):
    """Powers of two (what float8_e8m0fnu holds)."""
    return (2.0 ** np.random.default_rng(seed).integers(-2, 3, shape)).astype(ml_dtypes.float8_e8m0fnu)


def scaled(lax, **kw):
    return lambda a, b, c, d: lax.scaled_dot(a, b, lhs_scale=c, rhs_scale=d, **kw)


CASES = {
    "f8-batched": lambda lax: (scaled(lax), (f8((2, 4, 64), 0), f8((2, 64, 3), 1), scales((2, 4, 2), 2),
                                             scales((2, 2, 3), 3))),
    "f8-preferred-f32": lambda lax: (scaled(lax, preferred_element_type=np.float32),
                                     (f8((4, 64), 0), f8((64, 3), 1), scales((4, 2), 2), scales((2, 3), 3))),
    "f32-rhs-transposed": lambda lax: (
        scaled(lax, dimension_numbers=(((1,), (1,)), ((), ()))),
        (rand((4, 64), "float32"), rand((3, 64), "float32", 1), rand((4, 2), "float32", 2),
         rand((3, 4), "float32", 3))),
    "f32-preferred-f32": lambda lax: (scaled(lax, preferred_element_type=np.float32),
                                      (rand((4, 64), "float32"), rand((64, 3), "float32", 1),
                                       rand((4, 2), "float32", 2), rand((2, 3), "float32", 3))),
    "f32-4d": lambda lax: (scaled(lax), (rand((2, 2, 3, 32), "float32"), rand((2, 2, 32, 3), "float32", 1),
                                         rand((2, 2, 3, 1), "float32", 2), rand((2, 2, 2, 3), "float32", 3))),
    "default-scales": lambda lax: (lambda a, b: lax.scaled_dot(a, b), (f8((4, 64), 0), f8((64, 3), 1))),
    "lhs-scale-only": lambda lax: (lambda a, b, c: lax.scaled_dot(a, b, lhs_scale=c),
                                   (f8((2, 4, 64), 0), f8((2, 64, 3), 1), scales((2, 4, 2), 2))),
    "int8": lambda lax: (lambda a, b: lax.scaled_dot(a, b), (rand((3, 8), "int8"), rand((8, 2), "int8", 1))),
    "vmap": lambda lax: (top(lax).vmap(scaled(lax)),
                         (f8((3, 2, 4, 64), 0), f8((3, 2, 64, 3), 1), scales((3, 2, 4, 2), 2),
                          scales((3, 2, 2, 3), 3))),
    "vmap-unbatched-rhs": lambda lax: (top(lax).vmap(scaled(lax), (0, None, 0, None)),
                                       (f8((3, 2, 4, 64), 0), f8((2, 64, 3), 1), scales((3, 2, 4, 2), 2),
                                        scales((2, 2, 3), 3))),
    "err-rank": lambda lax: (scaled(lax), (f8((2, 4, 64), 0), f8((2, 64, 3), 1), scales((4, 2), 2),
                                           scales((2, 2, 3), 3))),
    "err-block": lambda lax: (scaled(lax), (f8((2, 4, 64), 0), f8((2, 64, 3), 1), scales((2, 4, 3), 2),
                                            scales((2, 2, 3), 3))),
    "err-free-dim": lambda lax: (scaled(lax), (f8((4, 64), 0), f8((64, 3), 1), scales((4, 2), 2),
                                               scales((2, 4), 3))),
    "err-contracting": lambda lax: (lambda a, b: lax.scaled_dot(a, b), (f8((4, 64), 0), f8((63, 3), 1))),
    "err-vector": lambda lax: (lambda a, b: lax.scaled_dot(a, b), (f8((64,), 0), f8((64,), 1))),
    "err-grad": lambda lax: (top(lax).grad(lambda a, b: lax.reduce_sum(
        lax.convert_element_type(lax.scaled_dot(a, b), np.float32), (0, 1))),
        (rand((4, 8), "float32"), rand((8, 2), "float32", 1))),
}

if __name__ == "__main__":
    write(CASES, "scaled_dot_golden.json")
