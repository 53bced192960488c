"""Golden records of take, take_along_axis, nonzero and the other index-driven selections from JAX 0.10.2 (see
jnp_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_selection_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

X = rand((3, 4), "float32", 0)
I = rand((3, 4), "int32", 1)
V = rand((5,), "float32", 2)


def _fn(build, *args):
    """A case ``build(jnp)`` applied to ``args``."""
    return lambda m: (build(m.numpy), args)


CASES = {
    "take_empty_from_empty": _fn(lambda jnp: lambda x, i: jnp.take(x, i, axis=0), np.zeros((0, 3), np.float32),
                                 np.zeros((0, 5), np.int32)),
    "take_nothing": _fn(lambda jnp: lambda x, i: jnp.take(x, i, axis=0), X, np.zeros((0,), np.int32)),
    "take_from_empty_axis": _fn(lambda jnp: lambda x, i: jnp.take(x, i), np.zeros((0,), np.float32),
                                np.array([1, 2], np.int32)),
    "take_flat": _fn(lambda jnp: lambda x, i: jnp.take(x, i), X, np.array([0, 13, -1])),
    "take_axis": _fn(lambda jnp: lambda x, i: jnp.take(x, i, axis=1), X, np.array([[0, 2], [-1, 5]])),
    "take_axis0_int": _fn(lambda jnp: lambda x, i: jnp.take(x, i, axis=0), I, np.array([2, 0])),
    "take_clip": _fn(lambda jnp: lambda x, i: jnp.take(x, i, axis=1, mode="clip"), X, np.array([0, 9, -3])),
    "take_fill_value": _fn(lambda jnp: lambda x, i: jnp.take(x, i, fill_value=-1.0), V, np.array([0, 9])),
    "take_unique_sorted": _fn(lambda jnp: lambda x, i: jnp.take(x, i, unique_indices=True, indices_are_sorted=True),
                              V, np.array([1, 3])),
    "take_raise": _fn(lambda jnp: lambda x, i: jnp.take(x, i, mode="raise"), V, np.array([1])),
    "take_uint_indices": _fn(lambda jnp: lambda x, i: jnp.take(x, i), V, np.array([1, 7], np.uint8)),
    "take_along_axis": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X,
                           np.array([[0], [3], [-1]])),
    "take_along_axis_0": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=0), X,
                             np.array([[0, 1, 2, 0], [2, 2, 1, 0]])),
    "take_along_axis_none": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=None), X,
                                np.array([0, 11, 5])),
    "take_along_axis_rank": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X, np.array([0])),
    "take_along_axis_float": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X,
                                 np.array([[0.0]], np.float32)),
    "nonzero_size": _fn(lambda jnp: lambda x: jnp.nonzero(x, size=5), I),
    "nonzero_size_fill": _fn(lambda jnp: lambda x: jnp.nonzero(x, size=14, fill_value=-1), I),
    "nonzero_size_1d": _fn(lambda jnp: lambda x: jnp.nonzero(x, size=3), V),
    "nonzero_bool": _fn(lambda jnp: lambda x: jnp.nonzero(x > 0, size=4, fill_value=(7, 8)), X),
    "nonzero_unsized": _fn(lambda jnp: lambda x: jnp.nonzero(x), I),
    "nonzero_scalar": _fn(lambda jnp: lambda x: jnp.nonzero(x), np.float32(1.0)),
    "flatnonzero_size": _fn(lambda jnp: lambda x: jnp.flatnonzero(x, size=4), I),
    "argwhere_size": _fn(lambda jnp: lambda x: jnp.argwhere(x, size=4, fill_value=-1), I),
    "compress_size": _fn(lambda jnp: lambda x, c: jnp.compress(c, x, axis=1, size=3, fill_value=9.0), X,
                         np.array([True, False, True, True])),
    "compress_traced": _fn(lambda jnp: lambda x: jnp.compress(np.array([True, False, True, True]), x, axis=1), X),
    "extract_size": _fn(lambda jnp: lambda x: jnp.extract(x > 0, x, size=6), X),
    "choose_clip": _fn(lambda jnp: lambda i, a, b: jnp.choose(i, [a, b], mode="clip"), np.array([0, 3, -1, 1, 0]),
                       V, 2 * V),
    "choose_wrap": _fn(lambda jnp: lambda i, a, b: jnp.choose(i, [a, b], mode="wrap"), np.array([0, 3, -1, 1, 0]),
                       V, 2 * V),
    "choose_raise_traced": _fn(lambda jnp: lambda i, a: jnp.choose(i, [a, a]), np.array([0, 1, 0, 1, 0]), V),
    "select": _fn(lambda jnp: lambda x: jnp.select([x < -0.5, x > 0.5], [x, 2 * x], -1.0), X),
    "select_error": _fn(lambda jnp: lambda x: jnp.select([x < 0], [x, x]), X),
    "piecewise": _fn(lambda jnp: lambda x: jnp.piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v: v * 2, 5.0]),
                     V),
    "put": _fn(lambda jnp: lambda x, i, v: jnp.put(x, i, v, inplace=False), X, np.array([0, 5, 20]),
               np.array([1.0, 2.0], np.float32)),
    "put_wrap": _fn(lambda jnp: lambda x, i: jnp.put(x, i, 7.0, mode="wrap", inplace=False), V, np.array([-1, 6])),
    "put_inplace": _fn(lambda jnp: lambda x: jnp.put(x, np.array([0]), 1.0), V),
    "put_along_axis": _fn(lambda jnp: lambda x, i: jnp.put_along_axis(x, i, 0.0, axis=1, inplace=False), X,
                          np.array([[0], [3], [1]])),
    "place": _fn(lambda jnp: lambda x: jnp.place(x, np.array([True, False, True, False, True]),
                                                 np.array([1.0, 2.0], np.float32), inplace=False), V),
    "fill_diagonal": _fn(lambda jnp: lambda x: jnp.fill_diagonal(x, 5.0, inplace=False), X),
    "fill_diagonal_inplace": _fn(lambda jnp: lambda x: jnp.fill_diagonal(x, 5.0), X),
    "ravel_multi_index_clip": _fn(lambda jnp: lambda i, j: jnp.ravel_multi_index((i, j), (3, 4), mode="clip"),
                                  np.array([0, 2, 5]), np.array([1, -1, 3])),
    "ravel_multi_index_wrap_f": _fn(lambda jnp: lambda i, j: jnp.ravel_multi_index((i, j), (3, 4), mode="wrap",
                                                                                   order="F"),
                                    np.array([0, 2, 5]), np.array([1, -1, 3])),
    "ravel_multi_index_raise": _fn(lambda jnp: lambda i, j: jnp.ravel_multi_index((i, j), (3, 4)),
                                   np.array([0, 2]), np.array([1, 3])),
    "unravel_index": _fn(lambda jnp: lambda i: jnp.unravel_index(i, (3, 4)), np.array([0, 5, 11, -1, 13])),
    "packbits": _fn(lambda jnp: lambda x: jnp.packbits(x), np.array([1, 0, 1, 1, 0, 0, 0, 1, 1], np.uint8)),
    "packbits_axis_little": _fn(lambda jnp: lambda x: jnp.packbits(x, axis=1, bitorder="little"),
                                rand((2, 10), "bool", 3)),
    "unpackbits": _fn(lambda jnp: lambda x: jnp.unpackbits(x), np.array([7, 160], np.uint8)),
    "unpackbits_count_little": _fn(lambda jnp: lambda x: jnp.unpackbits(x, axis=0, count=5, bitorder="little"),
                                   np.array([[7, 1], [160, 2]], np.uint8)),
    "piecewise_scalar": _fn(lambda jnp: lambda s: jnp.piecewise(s, [s < 0], [lambda t: -t, lambda t: t]),
                            np.float32(-2.0)),
    "piecewise_conditions_count": _fn(lambda jnp: lambda v: jnp.piecewise(v, v < 0, [-1.0, 1.0]), V),
    "piecewise_extra_args": _fn(lambda jnp: lambda v: jnp.piecewise(v, [v < 0], [lambda t, k: t * k, 0.0], 3.0), V),
    "piecewise_int": _fn(lambda jnp: lambda v: jnp.piecewise(v, [v < 2], [lambda t: t * 2, 7]),
                         np.arange(4, dtype=np.int32)),
    "select_broadcast": _fn(lambda jnp: lambda x: jnp.select([x[0] > 0.5, x > 0.2], [x, 1.0], x[:, :1]), X),
    "select_default_zero": _fn(lambda jnp: lambda x: jnp.select([x > 0.5], [x]), X),
    "choose_broadcast": _fn(lambda jnp: lambda x: jnp.choose(np.array([[0], [1], [0]]), [x, x[0]], mode="wrap"), X),
    "take_negative_axis": _fn(lambda jnp: lambda x: jnp.take(x, np.array([0, 1]), axis=-1), X),
    "take_along_axis_broadcast": _fn(lambda jnp: lambda x: jnp.take_along_axis(x, np.array([[0, 1, 3, 2]]), axis=0),
                                     X),
    "put_along_axis_none": _fn(lambda jnp: lambda x: jnp.put_along_axis(x, np.array([1, 5]), 0.0, axis=None,
                                                                         inplace=False), X),
    "extract_fill": _fn(lambda jnp: lambda x: jnp.extract(x > 0.5, x, size=3, fill_value=-1), X),
    "argwhere_mask_size": _fn(lambda jnp: lambda x: jnp.argwhere(x > 0.5, size=2), X),
    "flatnonzero_fill": _fn(lambda jnp: lambda x: jnp.flatnonzero(x, size=13, fill_value=99), X),
    "ravel_multi_index_dtype": _fn(lambda jnp: lambda i: jnp.ravel_multi_index((i, i), (3, 4), mode="wrap",
                                                                               dtype=jnp.int16), np.array([1, 5])),
    "fill_diagonal_3d": _fn(lambda jnp: lambda x: jnp.fill_diagonal(x, np.array([1.0, 2.0], np.float32),
                                                                    inplace=False), np.zeros((3, 3, 3), np.float32)),
    "take_wrap": _fn(lambda jnp: lambda x, i: jnp.take(x, i, axis=1, mode="wrap"), X, np.array([0, 5, -6])),
    "take_fill_int": _fn(lambda jnp: lambda x, i: jnp.take(x, i, mode="fill"), np.arange(5, dtype=np.int32),
                         np.array([0, 9])),
    "take_scalar_index": _fn(lambda jnp: lambda x: jnp.take(x, 2, axis=0), X),
    "take_bool_operand": _fn(lambda jnp: lambda x, i: jnp.take(x, i), np.array([True, False]), np.array([1, 5])),
    "take_bad_mode": _fn(lambda jnp: lambda x: jnp.take(x, np.array([1]), mode="foo"), X),
    "take_list": _fn(lambda jnp: lambda x: jnp.take(x, [0, 1]), X),
    "take_along_axis_clip": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1, mode="clip"), X,
                                np.array([[5], [0], [-9]])),
    "take_along_axis_fill_value": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1, fill_value=-1.0),
                                      X, np.array([[5], [0], [-9]])),
    "take_along_axis_uint8": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X,
                                 np.array([[1], [0], [3]], np.uint8)),
    "take_along_axis_index_broadcast": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X,
                                           np.array([[3, 0]], np.int32)),
    "take_along_axis_operand_broadcast": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X[:1],
                                             np.array([[3, 0], [1, 1], [2, 0]], np.int32)),
    "take_along_axis_incompatible": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=1), X,
                                        np.array([[3, 0], [1, 1]], np.int32)),
    "take_along_axis_int16": _fn(lambda jnp: lambda x, i: jnp.take_along_axis(x, i, axis=0), X,
                                 np.array([[1, 0, 2, 1]], np.int16)),
    "nonzero_size_zero": _fn(lambda jnp: lambda x: jnp.nonzero(x, size=0), X),
    "packbits_float": _fn(lambda jnp: lambda x: jnp.packbits(x), X),
    "packbits_bad_order": _fn(lambda jnp: lambda x: jnp.packbits(x, bitorder="middle"), np.ones(3, np.uint8)),
    "unpackbits_int32": _fn(lambda jnp: lambda x: jnp.unpackbits(x), np.ones(3, np.int32)),
    "unravel_index_float": _fn(lambda jnp: lambda i: jnp.unravel_index(i, (3, 4)), np.array([1.0], np.float32)),
    "unravel_index_empty_shape": _fn(lambda jnp: lambda i: jnp.unravel_index(i, ()), np.array([1])),
    # a weakly typed traced index: floor_divide and remainder compare it with weak zeros (weak booleans)
    "unravel_index_weak_scalar": _fn(lambda jnp: lambda i: jnp.unravel_index(i, (3, 4)), 5),
    "floor_divide_weak_scalars": _fn(lambda jnp: lambda i: jnp.floor_divide(i, 4), -7),
    "ravel_multi_index_float": _fn(lambda jnp: lambda i: jnp.ravel_multi_index((i,), (3,)),
                                   np.array([1.0], np.float32)),
    "ravel_multi_index_length": _fn(lambda jnp: lambda i: jnp.ravel_multi_index((i,), (3, 4)), np.array([1])),
    "ravel_multi_index_order": _fn(lambda jnp: lambda i: jnp.ravel_multi_index((i,), (3,), order="K"),
                                   np.array([1])),
    "ravel_multi_index_mode": _fn(lambda jnp: lambda i: jnp.ravel_multi_index((i,), (3,), mode="foo"),
                                  np.array([1])),
    "choose_float_index": _fn(lambda jnp: lambda x: jnp.choose(np.array([0.0]), [x]), X),
    "choose_bad_mode": _fn(lambda jnp: lambda x: jnp.choose(np.array([0]), [x[0]], mode="foo"), X),
    "select_float_condition": _fn(lambda jnp: lambda x: jnp.select([x], [x]), X),
    "select_empty": _fn(lambda jnp: lambda x: jnp.select([], []), X),
    "fill_diagonal_1d": _fn(lambda jnp: lambda x: jnp.fill_diagonal(x[0], 1.0, inplace=False), X),
    "fill_diagonal_ragged": _fn(lambda jnp: lambda x: jnp.fill_diagonal(x.reshape(2, 3, 2), 1.0, inplace=False),
                                X),
    "compress_2d_condition": _fn(lambda jnp: lambda x: jnp.compress(np.ones((2, 2), bool), x), X),
    "put_along_axis_rank": _fn(lambda jnp: lambda x: jnp.put_along_axis(x, np.array([0]), 1.0, axis=0,
                                                                        inplace=False), X),
    "argwhere_scalar": _fn(lambda jnp: lambda x: jnp.argwhere(x), np.float32(2.0)),
    "argwhere_scalar_size": _fn(lambda jnp: lambda x: jnp.argwhere(x, size=2), np.float32(2.0)),
    "flatnonzero_fill_tuple": _fn(lambda jnp: lambda x: jnp.flatnonzero(x, size=2, fill_value=(1, 2)), X),
}


def _summed(m, fn):
    def total(*args):
        out = fn(*args)
        return m.lax.reduce_sum(out, tuple(range(out.ndim)))

    return total


def _grad(build, *args, argnums=0):
    """A case: the gradient of the sum of ``build(jnp)``'s result."""
    return lambda m: (m.grad(_summed(m, build(m.numpy)), argnums=argnums), args)


CASES.update({
    "grad_take": _grad(lambda jnp: lambda x: jnp.take(x, np.array([0, 5, 5])), X),
    "grad_take_clip": _grad(lambda jnp: lambda x: jnp.take(x, np.array([0, 50]), mode="clip"), X),
    "grad_take_along_axis": _grad(lambda jnp: lambda x: jnp.take_along_axis(x, np.array([[0], [1], [3]]), axis=1),
                                  X),
    "grad_choose_traced": _grad(lambda jnp: lambda a, b: jnp.choose(np.array([0, 1, 0]), [a, b]), V[:3], V[2:]),
    "grad_choose_clip": _grad(lambda jnp: lambda a, b: jnp.choose(np.array([0, 5, 0]), [a, b], mode="clip"),
                              V[:3], V[2:], argnums=(0, 1)),
    "grad_select": _grad(lambda jnp: lambda x: jnp.select([x > 0.5], [x * 2], 0.0), X),
    "grad_piecewise": _grad(lambda jnp: lambda x: jnp.piecewise(x, [x < 0.5], [lambda v: v ** 2, lambda v: -v]), X),
    "grad_compress": _grad(lambda jnp: lambda x: jnp.compress(np.array([True, False, True]), x, axis=0, size=2),
                           X),
    "grad_put": _grad(lambda jnp: lambda x: jnp.put(x, np.array([1, 3]), 0.0, inplace=False), X),
    "grad_fill_diagonal": _grad(lambda jnp: lambda x: jnp.fill_diagonal(x, 2.0, inplace=False), X),
    "grad_put_along_axis": _grad(lambda jnp: lambda x, v: jnp.put_along_axis(x, np.array([[0], [2], [1]]), v,
                                                                             axis=1, inplace=False),
                                 X, np.ones((3, 1), np.float32), argnums=(0, 1)),
})

if __name__ == "__main__":
    jnp_golden.write(CASES, "selection_golden.json")
