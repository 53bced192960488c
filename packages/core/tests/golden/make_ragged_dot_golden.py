"""Write ragged_dot_golden.json (lax ragged_dot, ragged_dot_general: values, jaxprs, grads, vmap, errors) with the
named module:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_ragged_dot_golden.py jax
"""

import importlib

import numpy as np
from make_reductions_golden import rand, write


def top(lax):
    """The package ``lax`` belongs to (jax or jaxle_core), for its grad, jvp and vmap."""
    return importlib.import_module(lax.__name__.split(".")[0])


def sizes(*values):
    return np.array(values, np.int32)


def numbers(lax, dims, ragged, group):
    return lax.RaggedDotDimensionNumbers(dot_dimension_numbers=dims, lhs_ragged_dimensions=ragged,
                                         rhs_group_dimensions=group)


def general(dims, ragged, group):
    return lambda lax: lambda a, b, g: lax.ragged_dot_general(a, b, g, numbers(lax, dims, ragged, group))


NONCONTRACTING = ((((1,), (1,)), ((), ())), [0], [0])
CONTRACTING = ((((1,), (0,)), ((), ())), [1], [])
BATCH = ((((2,), (1,)), ((0,), (0,))), [0], [])
BATCHED_SIZES = ((((2,), (2,)), ((0,), (0,))), [1], [1])
FREE_BEFORE = ((((2,), (1,)), ((), ())), [1], [0])
CONTRACTING_BATCHED = ((((2,), (1,)), ((1,), (0,))), [2], [])


def case(spec, shapes, group_sizes, dtype="float32"):
    lhs_shape, rhs_shape = shapes
    return lambda lax: (general(*spec)(lax), (rand(lhs_shape, dtype), rand(rhs_shape, dtype, 1), group_sizes))


def _loss(lax, g):
    return lambda a, b: lax.reduce_sum(lax.ragged_dot(a, b, g), (0, 1))


CASES = {
    "ragged_dot-f32": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1),
                                                    sizes(2, 4))),
    "ragged_dot-short": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1),
                                                      sizes(1, 2))),
    "ragged_dot-long": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1),
                                                     sizes(5, 4))),
    "ragged_dot-negative": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1),
                                                         sizes(-1, 4))),
    "ragged_dot-int32": lambda lax: (lax.ragged_dot, (rand((5, 3), "int32"), rand((3, 3, 2), "int32", 1),
                                                      sizes(1, 0, 4))),
    "ragged_dot-int16-sizes": lambda lax: (lax.ragged_dot, (rand((5, 3), "float32"), rand((2, 3, 2), "float32", 1),
                                                            np.array([3, 2], np.int16))),
    "ragged_dot-mixed": lambda lax: (lax.ragged_dot, (rand((5, 3), "bfloat16"), rand((2, 3, 2), "float32", 1),
                                                      sizes(3, 2))),
    "ragged_dot-preferred": lambda lax: (
        lambda a, b, g: lax.ragged_dot(a, b, g, precision="highest", preferred_element_type=np.float32),
        (rand((5, 3), "bfloat16"), rand((2, 3, 2), "bfloat16", 1), sizes(3, 2))),
    "general-contracting": case(CONTRACTING, ((5, 6), (6, 4)), sizes(2, 3)),
    "general-batch": case(BATCH, ((6, 5, 3), (6, 3, 4)), sizes(2, 4)),
    "general-batched-sizes": case(BATCHED_SIZES, ((3, 6, 3), (3, 2, 3, 4)), np.array([[1, 5], [4, 1], [0, 3]],
                                                                                     np.int32)),
    "general-batched-sizes-1d": case(BATCHED_SIZES, ((3, 6, 3), (3, 2, 3, 4)), sizes(2, 3)),
    "general-free-before": case(FREE_BEFORE, ((2, 6, 3), (2, 3, 4)), np.array([[1, 5], [4, 1]], np.int32)),
    "general-contracting-batched": case(CONTRACTING_BATCHED, ((5, 3, 6), (3, 6, 4)),
                                        np.array([[1, 4], [3, 3], [6, 0]], np.int32)),
    "grad": lambda lax: (top(lax).grad(_loss(lax, sizes(2, 3)), argnums=(0, 1)),
                         (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1))),
    "grad-general": lambda lax: (
        top(lax).grad(lambda a, b: lax.reduce_sum(general(*FREE_BEFORE)(lax)(a, b, sizes(2, 3)), (0, 1, 2)),
                      argnums=(0, 1)), (rand((2, 6, 3), "float32"), rand((2, 3, 4), "float32", 1))),
    "jvp": lambda lax: (
        lambda a, b, ta, tb: top(lax).jvp(lambda x, y: lax.ragged_dot(x, y, sizes(2, 3)), (a, b), (ta, tb)),
        (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1), rand((6, 3), "float32", 2),
         rand((2, 3, 4), "float32", 3))),
    "vmap": lambda lax: (top(lax).vmap(lax.ragged_dot),
                         (rand((3, 6, 3), "float32"), rand((3, 2, 3, 4), "float32", 1),
                          np.array([[1, 5], [4, 1], [0, 3]], np.int32))),
    "err-sizes-dtype": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32"),
                                                     np.array([2.0, 4.0], np.float32))),
    "err-sizes-count": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32"),
                                                     sizes(1, 2, 3))),
    "err-sizes-scalar": lambda lax: (lax.ragged_dot, (rand((6, 3), "float32"), rand((2, 3, 4), "float32"),
                                                      np.int32(6))),
    "err-sizes-shape": case(BATCHED_SIZES, ((3, 6, 3), (3, 2, 3, 4)), np.zeros((2, 2), np.int32)),
    "err-contracting-size": lambda lax: (lax.ragged_dot, (rand((6, 5), "float32"), rand((2, 3, 4), "float32"),
                                                          sizes(2, 4))),
    "err-general-contracting-size": case(NONCONTRACTING, ((6, 2), (2, 3, 4)), sizes(2, 4)),
    "err-general-contracting-range": case(((((5,), (1,)), ((), ())), [0], [0]), ((6, 3), (2, 3, 4)), sizes(2, 4)),
    "err-two-ragged": case(((((1,), (1,)), ((), ())), [0, 1], [0]), ((6, 3), (2, 3, 4)), sizes(2, 4)),
    "err-ragged-range": case(((((1,), (1,)), ((), ())), [2], [0]), ((6, 3), (2, 3, 4)), sizes(2, 4)),
    "err-two-groups": case(((((1,), (2,)), ((), ())), [0], [0, 1]), ((6, 3), (2, 2, 3, 4)), sizes(2, 4)),
    "err-group-range": case(((((1,), (1,)), ((), ())), [0], [3]), ((6, 3), (2, 3, 4)), sizes(2, 4)),
    "err-group-contracting": case(((((1,), (0,)), ((), ())), [0], [0]), ((6, 3), (3, 3, 4)), sizes(2, 4)),
    "err-contracting-with-group": case(((((1,), (1,)), ((), ())), [1], [0]), ((5, 6), (2, 6, 4)), sizes(2, 4)),
    "err-grad-contracting": lambda lax: (
        top(lax).grad(lambda a, b: lax.reduce_sum(general(*CONTRACTING)(lax)(a, b, sizes(2, 3)), (0, 1, 2))),
        (rand((5, 6), "float32"), rand((6, 4), "float32", 1))),
    "err-group-offset-array": lambda lax: (
        lambda a, b, g, o: lax.ragged_dot(a, b, g, group_offset=o),
        (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1), sizes(2, 4), np.array([1], np.int32))),
    "err-group-offset": lambda lax: (lambda a, b, g: lax.ragged_dot(a, b, g, group_offset=(1,)),
                                     (rand((6, 3), "float32"), rand((2, 3, 4), "float32", 1), sizes(2, 4))),
    "err-vmap-unbatched": lambda lax: (top(lax).vmap(lax.ragged_dot, (0, None, None)),
                                       (rand((3, 6, 3), "float32"), rand((2, 3, 4), "float32", 1), sizes(2, 3))),
}

if __name__ == "__main__":
    write(CASES, "ragged_dot_golden.json")
