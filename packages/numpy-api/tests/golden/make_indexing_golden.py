"""Golden records of jnp indexing and ``.at[]`` updates from JAX 0.10.2 (see jnp_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_indexing_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

X3 = ((2, 3, 4), "float32")
X2 = ((3, 4), "float32")


def _x(spec=X3, seed=0):
    return rand(spec[0], spec[1], seed)


def _case(fn, *args):
    return lambda m: (fn(m), jnp_golden.module_arrays(m, args))


def _index(index, spec=X3):
    return _case(lambda m: lambda x: x[index], _x(spec))


def _traced(fn, *extra, spec=X3):
    return _case(lambda m: fn, _x(spec), *extra)


I2 = np.array([0, 2], np.int32)
C4 = np.arange(4.0, dtype=np.float32)


def _assign_item(x):
    x[0] = 1.0
    return x

CASES = {
    # integers into an empty axis: JAX's IndexError; integer arrays: gather's error, or zeros when nothing is taken
    "empty_axis_int": _index(0, ((0, 3), "float32")),
    "empty_axis_second_int": _index((slice(None), 0), ((3, 0), "float32")),
    "empty_axis_traced_int": _traced(lambda x, i: x[i], np.int32(0), spec=((0, 3), "float32")),
    "empty_axis_int_array": _index(np.array([0], np.int32), ((0, 3), "float32")),
    "empty_axis_empty_array": _index(np.zeros((0,), np.int32), ((0, 3), "float32")),
    "empty_result_of_full_axis": _index(np.zeros((0,), np.int32), ((2, 3), "float32")),
    # static slicing
    "int": _index(0),
    "negative_int": _index(-1),
    "slice": _index((slice(None), slice(1, None))),
    "strided": _index((slice(None), slice(None, None, 2))),
    "reversed": _index((slice(None), slice(None, None, -1))),
    "reversed_partial": _index((slice(None), slice(2, 0, -1))),
    "reversed_strided": _index((slice(None), slice(None, None, -2))),
    "out_of_bounds_slice": _index((slice(None), slice(1, 10))),
    "empty_slice": _index((slice(None), slice(2, 1))),
    "newaxis": _index((None, 0)),
    "ellipsis": _index((Ellipsis, 1)),
    "ellipsis_newaxis": _index((Ellipsis, None)),
    "empty_tuple": _index(()),
    "numpy_int": _index(np.int32(1)),
    "scalar_operand": _case(lambda m: lambda x: x[...], np.float32(2.5)),
    "scalar_operand_newaxis": _case(lambda m: lambda x: x[None], np.float32(2.5)),
    # dynamic slices
    "out_of_bounds_int": _index(5),
    "traced_int": _traced(lambda x, i: x[i], 1),
    "traced_int_slice": _traced(lambda x, i: x[i, 1:], 1),
    "traced_int_reversed": _traced(lambda x, i: x[i, ::-1], 1),
    "traced_int_newaxis": _traced(lambda x, i: x[None, i], 1),
    "traced_int_out_of_bounds": _traced(lambda x, i: x[i, 7], 1),
    "traced_negative_int": _traced(lambda x, i: x[i], np.int32(-1)),
    "traced_int16": _traced(lambda x, i: x[i], np.int16(1)),
    "traced_uint32": _traced(lambda x, i: x[i], np.uint32(1)),
    "numpy_0d_array": _index(np.array(1)),
    "numpy_0d_array_out_of_bounds": _index(np.array(5)),
    # gathers
    "list_with_tracer": _traced(lambda x, i: x[[i, 0], 1], 2),
    "empty_list": _index(([], 0)),
    "tuples_in_tuple": _index(((0, 1), (1, 2))),
    "list_of_booleans": _index(([True, False], 0)),
    "jax_array_mask_traced": _case(lambda m: lambda x: x[m.numpy.asarray(np.array([True, False]))], _x()),
    "numpy_0d_mask": _index(np.asarray(True)),
    "numpy_array": _index(np.array([0, 1, -1])),
    "numpy_array_2d": _index(np.array([[0, 1], [1, 0]])),
    "list_in_tuple": _index(([0, 1], 0)),
    "tuple_of_list": _index(((0, 1),)),
    "int_and_array": _traced(lambda x, i: x[0, i], I2),
    "negative_int_and_array": _traced(lambda x, i: x[-1, i], I2.astype(np.int16), spec=X2),
    "slice_and_array": _traced(lambda x, i: x[:, 1:, i], I2),
    "strided_and_array": _traced(lambda x, i: x[:, ::2, i], I2),
    "reversed_and_array": _traced(lambda x, i: x[:, ::-1, i], I2),
    "newaxis_and_array": _traced(lambda x, i: x[None, :, i], I2),
    "separated_arrays": _traced(lambda x, i, j: x[i, :, j], np.array([0, 1]), np.array([1, 3])),
    "arrays_around_newaxis": _traced(lambda x, i: x[i, None, i], np.array([0, 1])),
    "adjacent_arrays": _traced(lambda x, i, j: x[:, i, j], np.array([0, 2]), np.array([1, 3])),
    "broadcast_arrays": _traced(lambda x, i, j: x[i, j], np.array([[0], [1]]), np.array([0, 2, 1])),
    "traced_int_and_array": _traced(lambda x, i, j: x[j, :, i], np.array([0, 3]), 1),
    "traced_int_strided": _traced(lambda x, i: x[i, ::2], 1),
    "traced_int16_strided": _traced(lambda x, i: x[i, ::2], np.int16(1), spec=X2),
    # one traced integer into a 1-D array goes to dynamic_slice in its own dtype (tested for negativity first)
    "traced_int_1d": _traced(lambda x, i: x[i], 1, spec=((4,), "float32")),
    "traced_int16_1d": _traced(lambda x, i: x[i, None], np.int16(-1), spec=((4,), "float32")),
    "traced_uint8_1d": _traced(lambda x, i: x[i], np.uint8(2), spec=((4,), "float32")),
    # a weakly typed index array is wrapped with a strongly typed size and needs no conversion afterwards
    "weak_index_array": _case(lambda m: lambda x, i: x[m.lax.broadcast_in_dim(i, (2,), ()), 1], _x(X2), -1),
    "weak_index_array_set": _case(lambda m: lambda x, i: x.at[m.lax.broadcast_in_dim(i, (2,), ())].set(1.0), _x(X2),
                                  1),
    "traced_array": _traced(lambda x, i: x[i], np.array([1, 0, 1])),
    "traced_uint8_array": _traced(lambda x, i: x[i], np.array([0, 1], np.uint8)),
    "traced_int16_array": _traced(lambda x, i: x[i], np.array([0, -1], np.int16), spec=X2),
    "out_of_bounds_array": _traced(lambda x, i: x[i], np.array([0, 5, -7])),
    "empty_array": _traced(lambda x, i: x[i], np.zeros((0,), np.int32)),
    "empty_array_and_int": _index((np.array([], np.int32), 0)),
    "empty_operand": _case(lambda m: lambda x: x[np.array([0, 1])], np.zeros((3, 0), "float32")),
    "boolean_mask": _index(np.array([True, False])),
    "boolean_mask_2d": _index(np.array([[True, False, True], [False, True, True]])),
    "boolean_mask_last": _index((Ellipsis, np.array([True, False, False, True]))),
    "boolean_scalar_true": _index(True),
    "boolean_scalar_false": _index(False),
    "int32_operand": _case(lambda m: lambda x: x[np.array([2, 0])], rand((3,), "int32", 1)),
    "bool_operand": _case(lambda m: lambda x: x[1:, np.array([0])], rand((3, 2), "bool", 1)),
    "weak_operand": _case(lambda m: lambda x: (x * 2.0)[0], rand((3,), "float32", 1)),
    # operand dtypes
    "bfloat16_gather": _case(lambda m: lambda x, i: x[i, 1:], rand((3, 4), "bfloat16", 4), np.array([2, 0])),
    "float16_slice": _case(lambda m: lambda x: x[::-1, 2], rand((3, 4), "float16", 4)),
    "complex_gather": _case(lambda m: lambda x, i: x[i], rand((4,), "complex64", 4), np.array([3, -4])),
    "uint8_traced_int": _case(lambda m: lambda x, i: x[i], rand((4, 2), "uint8", 4), 2),
    "int8_at_add_python_int": _case(lambda m: lambda x: x.at[1:].add(3), rand((4,), "int8", 4)),
    "bool_at_set": _case(lambda m: lambda x, i: x.at[i].set(True), rand((5,), "bool", 4), np.array([0, 3])),
    "complex_at_multiply": _case(lambda m: lambda x: x.at[0].multiply(2j), rand((3,), "complex64", 4)),
    # a weakly typed integer or boolean operand is scattered as a strong one and made weak again (a float stays weak)
    "weak_int_at_set": _case(lambda m: lambda: m.lax.broadcast_in_dim(2, (3,), ()).at[1:].set(1)),
    "weak_int_at_max": _case(lambda m: lambda: m.lax.broadcast_in_dim(2, (3,), ()).at[0].max(5)),
    "weak_bool_at_set": _case(lambda m: lambda: m.lax.lt(m.lax.broadcast_in_dim(2, (3,), ()), 1).at[0].set(True)),
    "weak_float_at_add": _case(lambda m: lambda: m.lax.broadcast_in_dim(2.0, (3,), ()).at[0].add(1.0)),
    # an empty slice updates nothing: JAX stages the index and no scatter
    "empty_slice_at_apply": _case(lambda m: lambda x: m.numpy.asarray(x).at[1:1].apply(m.numpy.sin), _x(X2)),
    "float16_at_max": _case(lambda m: lambda x, y: x.at[np.array([0, 0])].max(y), rand((3,), "float16", 4),
                            rand((2,), "float16", 5)),
    "weak_at_set": _case(lambda m: lambda x: (x * 2.0).at[0].set(1.0), rand((3,), "float32", 4)),
    "int_into_bool_at_set": _case(lambda m: lambda x: x.at[0].set(2), rand((3,), "bool", 4)),
    "item_assignment": _case(lambda m: _assign_item, rand((3,), "float32", 4)),
    # under transformations
    "jit_gather": _case(lambda m: m.jit(lambda x, i: x[i, 1]), _x(), np.array([1, 0])),
    "vmap_traced_int": _case(lambda m: m.vmap(lambda x, i: x[i]), _x(X2), np.array([0, 1, 3])),
    "vmap_array": _case(lambda m: m.vmap(lambda x, i: x[i]), _x(X2), np.array([[0, 1], [1, 2], [3, 3]])),
    "vmap_operand": _case(lambda m: m.vmap(lambda x: x[np.array([1, 0])]), _x()),
    "vmap_at_add": _case(lambda m: m.vmap(lambda x, i: x.at[i].add(1.0)), _x(X2), np.array([0, 1, 2])),
    "grad_gather": _case(lambda m: m.grad(lambda x: m.lax.reduce_sum(x[np.array([0, 0, 2])] ** 2, (0,))),
                         _x(((4,), "float32"))),
    "grad_slice": _case(lambda m: m.grad(lambda x: m.lax.reduce_sum(x[1:, ::2], (0, 1))), _x(X2)),
    "vmap_at_set_batched_update": _case(lambda m: m.vmap(lambda x, y: x.at[1:3].set(y)), _x(X2),
                                        _x(((3, 2), "float32"), 6)),
    "vmap_unbatched_operand": _case(lambda m: m.vmap(lambda i: m.lax.iota("float32", 5)[i]), np.array([4, 0, 2])),
    "vmap_mask_constant": _case(lambda m: m.vmap(lambda x: x[np.array([True, False, True, True])]), _x(X2)),
    "grad_at_add_repeated": _case(lambda m: m.grad(lambda x, y: m.lax.reduce_sum(
        x.at[np.array([1, 1])].add(y) ** 2, (0,)), argnums=1), _x(((3,), "float32")), _x(((2,), "float32"), 7)),
    "grad_at_mul": _case(lambda m: m.grad(lambda x: m.lax.reduce_sum(x.at[0].multiply(x[1]), (0,))),
                         _x(((3,), "float32"))),
    "grad_at_min": _case(lambda m: m.grad(lambda x: m.lax.reduce_sum(x.at[0].min(x[1]), (0,))),
                         _x(((3,), "float32"))),
    "grad_traced_index": _case(lambda m: m.grad(lambda x, i: m.lax.reduce_sum(x[i, 1:], (0,))), _x(X2), 1),
    "grad_at_set": _case(lambda m: m.grad(lambda x: m.lax.reduce_sum(x.at[1].set(3.0) * x, (0, 1))), _x(X2)),
    # errors
    "list_index": _index([0, 1]),
    "nested_list_index": _index([[0, 1], [1, 0]]),
    "object_index": _index({}),
    "array_slice_entry": _case(lambda m: lambda x: x[m.numpy.asarray(1):], _x()),
    "float_index": _index(1.0),
    "float_array_index": _index(np.array([1.0])),
    "string_index": _index("a"),
    "too_many_indices": _index((0, 0, 0, 0)),
    "two_ellipses": _index((Ellipsis, Ellipsis)),
    "float_slice": _index(slice(1.0, None)),
    "traced_slice": _traced(lambda x, i: x[i:], 1),
    "traced_mask": _traced(lambda x, b: x[b], np.array([True, False])),
    "mask_shape_mismatch": _index(np.array([True, False, True])),
    "arrays_do_not_broadcast": _index((np.array([0, 1]), np.array([0, 1, 2]))),
    # .at[] updates
    "at_int_set": _case(lambda m: lambda x: x.at[0].set(1.0), _x(X2)),
    "at_int_add": _case(lambda m: lambda x: x.at[0].add(1.0), _x(X2)),
    "at_negative_int_set": _case(lambda m: lambda x: x.at[-1].set(0.0), _x(X2)),
    "at_slice_set": _case(lambda m: lambda x: x.at[:, 1:3].set(2.0), _x(X2)),
    "at_prefix_set": _case(lambda m: lambda x: x.at[:2].set(0.0), _x(X2)),
    "at_all_set": _case(lambda m: lambda x: x.at[:].set(0.0), _x(X2)),
    "at_strided_set": _case(lambda m: lambda x: x.at[::2].set(0.0), _x(X2)),
    "at_reversed_set": _case(lambda m: lambda x, y: x.at[::-1].set(y), _x(X2), _x(X2, 1)),
    "at_newaxis_set": _case(lambda m: lambda x: x.at[None, 0].set(1.0), _x(X2)),
    "at_array_add": _case(lambda m: lambda x, i: x.at[i].add(1.0), _x(X2), np.array([0, 2, 0])),
    "at_array_subtract": _case(lambda m: lambda x, i, y: x.at[i].subtract(y), _x(X2), np.array([1, 1]),
                               _x(((2, 4), "float32"), 2)),
    "at_array_int_multiply": _case(lambda m: lambda x, i: x.at[i, 1].multiply(2.0), _x(X2), I2),
    "at_array_mul": _case(lambda m: lambda x, i: x.at[i].mul(3.0), _x(X2), I2),
    "at_min": _case(lambda m: lambda x, i, y: x.at[i].min(y), _x(X2), I2, _x(((4,), "float32"), 3)),
    "at_max": _case(lambda m: lambda x, i, y: x.at[i].max(y), _x(X2), I2, _x(((4,), "float32"), 3)),
    "at_divide": _case(lambda m: lambda x: x.at[1].divide(2.0), _x(X2)),
    "at_divide_int": _case(lambda m: lambda x: x.at[1].divide(2), np.arange(4, dtype=np.int32)),
    "at_power": _case(lambda m: lambda x: x.at[1].power(2.0), _x(X2)),
    "at_apply": _case(lambda m: lambda x: x.at[1].apply(lambda v: v * 2), _x(X2)),
    "at_float_into_int": _case(lambda m: lambda x: x.at[1].set(2.0), np.arange(4, dtype=np.int32)),
    "at_int_into_float": _case(lambda m: lambda x, y: x.at[0].set(y), _x(X2), np.arange(4, dtype=np.int32)),
    "at_traced_int": _case(lambda m: lambda x, i: x.at[i].set(0.0), _x(X2), 1),
    "at_broadcast_update": _case(lambda m: lambda x, y: x.at[:, 0].set(y), _x(X2), np.ones((1,), "float32")),
    "at_mode_clip": _case(lambda m: lambda x, i: x.at[i].set(0.0, mode="clip"), _x(X2), np.array([0, 5])),
    "at_mode_drop": _case(lambda m: lambda x, i: x.at[i].add(1.0, mode="drop"), _x(X2), np.array([0, 5])),
    "at_out_of_bounds_dropped": _case(lambda m: lambda x, i: x.at[i].set(0.0), _x(X2), np.array([1, 7])),
    "at_sorted_unique": _case(lambda m: lambda x, i: x.at[i].set(0.0, indices_are_sorted=True, unique_indices=True),
                              _x(X2), I2),
    "at_boolean_scalar_set": _case(lambda m: lambda x: x.at[True].set(0.0), _x(X2)),
    "at_scalar_operand": _case(lambda m: lambda x: x.at[()].set(2.0), np.float32(1.0)),
    "at_ellipsis_add": _case(lambda m: lambda x: x.at[...].add(1.0), _x(X2)),
    "at_newaxis_reversed": _case(lambda m: lambda x, y: x.at[None, ::-1, 1].set(y), _x(X2),
                                 np.ones((1, 3), "float32")),
    "at_empty_indices": _case(lambda m: lambda x: x.at[np.array([], np.int32)].set(1.0), _x(X2)),
    "at_two_traced_ints": _case(lambda m: lambda x, i, j: x.at[i, j].add(1.0), _x(X2), 1, 2),
    "at_traced_int_slice": _case(lambda m: lambda x, i: x.at[i, 1:].multiply(3.0), _x(X2), 1),
    "at_mask_set": _case(lambda m: lambda x: x.at[np.array([[True, False, True, False]] * 3)].set(0.0), _x(X2)),
    "at_apply_repeated": _case(lambda m: lambda x, i: x.at[i].apply(lambda t: t * t), _x(((4,), "float32")),
                               np.array([0, 0, 2])),
    "at_get_fill_default": _case(lambda m: lambda x, i: x.at[i].get(mode="fill"), _x(((4,), "float32")),
                                 np.array([0, 9])),
    "at_get_fill_int": _case(lambda m: lambda x, i: x.at[i].get(mode="fill"), np.arange(4, dtype=np.int32),
                             np.array([0, 9])),
    "at_power_int": _case(lambda m: lambda x: x.at[1].power(2), np.arange(4, dtype=np.int32)),
    "at_min_float_into_int": _case(lambda m: lambda x: x.at[1].min(0.5), np.arange(4, dtype=np.int32)),
    "at_set_bool_into_float": _case(lambda m: lambda x: x.at[1].set(True), _x(((4,), "float32"))),
    "at_get": _case(lambda m: lambda x, i: x.at[i].get(), _x(X2), I2),
    "at_get_fill": _case(lambda m: lambda x, i: x.at[i].get(mode="fill", fill_value=-1), _x(X2), np.array([0, 9])),
    "at_get_clip": _case(lambda m: lambda x, i: x.at[i].get(mode="clip"), _x(X2), np.array([0, 9])),
    "at_get_newaxis": _case(lambda m: lambda x: x.at[None].get(), _x(X2)),
    # static integers and slices in mode clip or promise_in_bounds (a fill value aside) slice, as by default; clip
    # clamps the integers into bounds, without wrapping negative ones when told not to
    "at_get_clip_static": _case(lambda m: lambda x: (x.at[1].get(mode="clip"), x.at[5].get(mode="clip"),
                                                     x.at[-7].get(mode="clip"), x.at[None, 1, 1:3].get(mode="clip"),
                                                     x.at[::-1, 2].get(mode="clip")), _x(X2)),
    "at_get_clip_static_unwrapped": _case(lambda m: lambda x: (
        x.at[-1].get(mode="clip", wrap_negative_indices=False),
        x.at[1, 9].get(mode="clip", wrap_negative_indices=False)), _x(X2)),
    "at_get_promise_in_bounds_static": _case(lambda m: lambda x: (
        x.at[:, 2].get(mode="promise_in_bounds"), x.at[1:].get(mode="promise_in_bounds"),
        x.at[1].get(fill_value=1.0), x.at[1].get(mode="clip", fill_value=1.0)), _x(X2)),
    "at_get_unwrapped_static": _case(lambda m: lambda x: (
        x.at[-1].get(wrap_negative_indices=False),
        x.at[-1].get(mode="promise_in_bounds", wrap_negative_indices=False)), _x(X2)),
    "at_get_clip_traced_int": _case(lambda m: lambda x, i: (x.at[i].get(mode="clip"),
                                                            x.at[i, 1:3].get(mode="promise_in_bounds")),
                                    _x(X2), np.int32(7)),
    "at_bad_update_shape": _case(lambda m: lambda x, y: x.at[0].set(y), _x(X2), np.ones(3, "float32")),
    "at_update_too_many_dims": _case(lambda m: lambda x, y: x.at[0].set(y), _x(X2), np.ones((1, 4), "float32")),
    "at_unknown_mode": _case(lambda m: lambda x: x.at[0].set(1.0, mode="foo"), _x(X2)),
    "at_traced_mask": _case(lambda m: lambda x: x.at[x > 0.5].set(0.0), _x(X2)),
    # a closed-over update and a list index: constants listed in the order they are converted
    "at_list_index_constant_update": _case(lambda m: lambda x: x.at[[0, 2], :].set(C4), _x(X2)),
    "at_list_index_constant_add": _case(lambda m: lambda x: x.at[[2, 0], 1].add(C4[:2]), _x(X2)),
    "at_constant_index_constant_update": _case(lambda m: lambda x: x.at[I2].max(C4), _x(X2)),
}

if __name__ == "__main__":
    jnp_golden.write(CASES, "indexing_golden.json")
