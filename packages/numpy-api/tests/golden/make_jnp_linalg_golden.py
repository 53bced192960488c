"""Write jnp_linalg_golden.json: ``jnp.linalg`` (norms, products, matrix powers, and the array API's forms) as the
named module runs them — jaxprs, values, weak types and errors.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_linalg_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand


def linalg_case(name, *arrays, **kwargs):
    """``jnp.linalg.<name>(*arrays, **kwargs)`` with the arrays traced."""
    return lambda m: (lambda *a: getattr(m.numpy.linalg, name)(*a, **kwargs), list(arrays))


def const_case(fn):
    """``fn(jnp.linalg)`` with nothing traced (Python-level arguments, errors)."""
    return lambda m: (lambda: fn(m.numpy.linalg), [])


F32, F64, C64 = "float32", "float64", "complex64"
M34 = rand((3, 4), F32, 1)
SQ = rand((3, 3), F32, 2)
B3 = rand((2, 3, 4), F32, 3)
BSQ = rand((2, 3, 3), F32, 4)
V3 = rand((3,), F32, 5)
C34 = rand((3, 4), C64, 6)
I23 = rand((2, 3), "int32", 7)
BOOL3 = rand((3,), "bool", 8)
F16 = rand((2, 3), "float16", 9)
BF16 = rand((3,), "bfloat16", 10)
EMPTY = rand((0, 3), F32, 11)

CASES = {
    # vector_norm over every order, axes, keepdims and dtypes
    "vector_norm_default": linalg_case("vector_norm", M34),
    "vector_norm_keepdims": linalg_case("vector_norm", M34, keepdims=True),
    "vector_norm_axis0": linalg_case("vector_norm", M34, axis=0),
    "vector_norm_axis_tuple": linalg_case("vector_norm", B3, axis=(0, 2), keepdims=True, ord=1),
    "vector_norm_complex": linalg_case("vector_norm", C34, axis=-1),
    "vector_norm_int": linalg_case("vector_norm", I23),
    "vector_norm_bool": linalg_case("vector_norm", BOOL3),
    "vector_norm_float16": linalg_case("vector_norm", F16),
    "vector_norm_bfloat16": linalg_case("vector_norm", BF16, ord=3),
    "vector_norm_weak_scalar": linalg_case("vector_norm", 3.0),
    "vector_norm_empty": linalg_case("vector_norm", EMPTY, axis=0),
    "vector_norm_empty_inf": linalg_case("vector_norm", EMPTY, ord=np.inf),
    "vector_norm_list_error": const_case(lambda la: la.vector_norm([3.0, 4.0])),
    "vector_norm_fro_error": linalg_case("vector_norm", M34, ord="fro"),
    "vector_norm_nuc_error": linalg_case("vector_norm", M34, ord="nuc"),
    "vector_norm_axis_error": linalg_case("vector_norm", M34, axis=2),
    "vector_norm_int_negative_power_error": linalg_case("vector_norm", I23, ord=-1),
    "vector_norm_int_ord0_error": linalg_case("vector_norm", I23, ord=0),
}
for ord_name, order in [("1", 1), ("inf", np.inf), ("minus_inf", -np.inf), ("0", 0), ("3", 3), ("minus_1", -1),
                        ("minus_2", -2), ("2_5", 2.5), ("None", None)]:
    CASES[f"vector_norm_ord_{ord_name}"] = linalg_case("vector_norm", M34, ord=order)
    CASES[f"vector_norm_ord_{ord_name}_complex_axis1"] = linalg_case("vector_norm", C34, ord=order, axis=1)
for ord_name, order in [("1", 1), ("inf", np.inf), ("minus_inf", -np.inf), ("3", 3)]:
    CASES[f"vector_norm_ord_{ord_name}_int"] = linalg_case("vector_norm", I23, ord=order, axis=1)

# norm: vector and matrix orders, axes, keepdims, dtypes, errors
for ord_name, order in [("None", None), ("fro", "fro"), ("1", 1), ("minus_1", -1), ("inf", np.inf),
                        ("minus_inf", -np.inf)]:
    CASES[f"norm_matrix_ord_{ord_name}"] = linalg_case("norm", M34, ord=order)
    CASES[f"norm_matrix_ord_{ord_name}_keepdims"] = linalg_case("norm", M34, ord=order, keepdims=True)
    CASES[f"norm_matrix_ord_{ord_name}_axes_reversed"] = linalg_case("norm", B3, ord=order, axis=(2, 0))
    CASES[f"norm_matrix_ord_{ord_name}_axes_keepdims"] = linalg_case("norm", B3, ord=order, axis=(0, 2),
                                                                      keepdims=True)
    CASES[f"norm_matrix_ord_{ord_name}_complex"] = linalg_case("norm", C34, ord=order)
    CASES[f"matrix_norm_ord_{ord_name}"] = linalg_case("matrix_norm", B3, **({} if order is None else {"ord": order}))
    CASES[f"matrix_norm_ord_{ord_name}_keepdims"] = linalg_case("matrix_norm", B3, keepdims=True,
                                                               **({} if order is None else {"ord": order}))
CASES.update({
    "norm_default_vector": linalg_case("norm", V3),
    "norm_default_3d": linalg_case("norm", B3),
    "norm_default_3d_keepdims": linalg_case("norm", B3, keepdims=True),
    "norm_vector_ord_1": linalg_case("norm", V3, ord=1),
    "norm_vector_ord_0": linalg_case("norm", V3, ord=0),
    "norm_vector_ord_inf": linalg_case("norm", V3, ord=np.inf),
    "norm_vector_ord_3_axis": linalg_case("norm", M34, ord=3, axis=1),
    "norm_vector_axis_keepdims": linalg_case("norm", B3, axis=-2, keepdims=True),
    "norm_int": linalg_case("norm", I23),
    "norm_int_ord_1": linalg_case("norm", I23, ord=1),
    "norm_int_vector_ord_0": linalg_case("norm", I23, ord=0, axis=0),
    "norm_bool": linalg_case("norm", BOOL3),
    "norm_float16_ord_1": linalg_case("norm", F16, ord=1),
    "norm_float64": linalg_case("norm", rand((3, 2), F64, 12), ord=-np.inf),
    "norm_weak_scalar": linalg_case("norm", 3.0),
    "norm_empty": linalg_case("norm", EMPTY),
    "norm_empty_ord_1": linalg_case("norm", EMPTY, ord=np.inf),
    "norm_list_error": const_case(lambda la: la.norm([3.0, 4.0])),
    "norm_bad_matrix_ord": linalg_case("norm", M34, ord="foo"),
    "norm_bad_matrix_ord_3": linalg_case("norm", M34, ord=3, axis=(0, 1)),
    "norm_bad_vector_ord": linalg_case("norm", M34, ord="fro", axis=0),
    "norm_three_axes_ord": linalg_case("norm", B3, ord=1),
    "norm_three_axes_given": linalg_case("norm", B3, axis=(0, 1, 2)),
    "norm_duplicate_axes": linalg_case("norm", B3, axis=(0, 0)),
    "norm_axis_out_of_bounds": linalg_case("norm", M34, axis=2),
    "norm_float_axis": linalg_case("norm", M34, axis=1.0),
    "matrix_norm_vector_error": linalg_case("matrix_norm", V3),
    "matrix_norm_bad_ord": linalg_case("matrix_norm", M34, ord=3),

    # multi_dot and matrix_power
    "multi_dot_two": lambda m: (lambda a, b: m.numpy.linalg.multi_dot([a, b]), [SQ, M34]),
    "multi_dot_vector_ends": lambda m: (lambda a, b, c: m.numpy.linalg.multi_dot([a, b, c]), [V3, SQ, V3]),
    "multi_dot_vector_first": lambda m: (lambda a, b, c: m.numpy.linalg.multi_dot([a, b, c]), [V3, SQ, SQ]),
    "multi_dot_chain_order": lambda m: (lambda a, b, c, d: m.numpy.linalg.multi_dot((a, b, c, d)),
                                        [rand((2, 5), F32, 20), rand((5, 6), F32, 21), rand((6, 3), F32, 22),
                                         rand((3,), F32, 23)]),
    "multi_dot_precision": lambda m: (lambda a, b, c: m.numpy.linalg.multi_dot([a, b, c], precision="highest"),
                                      [SQ, SQ, V3]),
    "multi_dot_mixed_dtypes": lambda m: (lambda a, b: m.numpy.linalg.multi_dot([a, b]), [I23, M34[:3]]),
    "multi_dot_vectors": lambda m: (lambda a, b: m.numpy.linalg.multi_dot([a, b]), [V3, V3]),
    "multi_dot_single_array": const_case(lambda la: la.multi_dot([np.ones((2, 2), np.float32)])),
    "multi_dot_empty_error": const_case(lambda la: la.multi_dot([])),
    "multi_dot_middle_vector_error": const_case(lambda la: la.multi_dot([SQ, V3, SQ])),
    "multi_dot_shape_error": const_case(lambda la: la.multi_dot([M34, M34])),
    "multi_dot_list_error": const_case(lambda la: la.multi_dot([[1.0, 2.0], [3.0, 4.0]])),
    "matrix_power_0": linalg_case("matrix_power", SQ, n=0),
    "matrix_power_0_batched_int": linalg_case("matrix_power", rand((2, 3, 3), "int32", 13), n=0),
    "matrix_power_1": linalg_case("matrix_power", SQ, n=1),
    "matrix_power_2": linalg_case("matrix_power", SQ, n=2),
    "matrix_power_3": linalg_case("matrix_power", SQ, n=3),
    "matrix_power_6": linalg_case("matrix_power", BSQ, n=6),
    "matrix_power_7_int": linalg_case("matrix_power", rand((3, 3), "int32", 14), n=7),
    "matrix_power_numpy_int": linalg_case("matrix_power", SQ, n=np.int32(5)),
    "matrix_power_empty": linalg_case("matrix_power", rand((0, 0), F32, 15), n=4),
    "matrix_power_float_exponent": linalg_case("matrix_power", SQ, n=2.0),
    "matrix_power_non_square": linalg_case("matrix_power", M34, n=2),
    "matrix_power_vector": linalg_case("matrix_power", V3, n=2),
    "matrix_power_list_error": const_case(lambda la: la.matrix_power([[1.0, 2.0], [3.0, 4.0]], 2)),

    # the array API's forms
    "cross": linalg_case("cross", V3, rand((3,), F32, 16)),
    "cross_axis0": linalg_case("cross", rand((3, 2), F32, 17), rand((3, 2), F32, 18), axis=0),
    "cross_broadcast_int": linalg_case("cross", rand((2, 3), "int32", 19), rand((3,), "int32", 20)),
    "cross_two_vectors_error": linalg_case("cross", rand((2,), F32, 21), rand((2,), F32, 22)),
    "cross_list_error": const_case(lambda la: la.cross([1.0, 2.0, 3.0], [1.0, 2.0, 3.0])),
    "outer": linalg_case("outer", V3, rand((4,), F32, 23)),
    "outer_mixed": linalg_case("outer", rand((2,), "int32", 24), V3),
    "outer_matrix_error": linalg_case("outer", SQ, SQ),
    "outer_scalar_error": linalg_case("outer", np.float32(1.0), V3),
    "outer_list_error": const_case(lambda la: la.outer([1.0], [1.0])),
    "matmul": linalg_case("matmul", BSQ, M34),
    "matmul_preferred": linalg_case("matmul", I23, rand((3, 2), "int32", 25), preferred_element_type=np.float32),
    "trace": linalg_case("trace", SQ),
    "trace_batched_offset_dtype": linalg_case("trace", B3, offset=1, dtype=np.int32),
    "trace_negative_offset": linalg_case("trace", M34, offset=-1),
    "trace_int8": linalg_case("trace", rand((3, 3), "int8", 26)),
    "trace_vector_error": linalg_case("trace", V3),
    "diagonal": linalg_case("diagonal", SQ),
    "diagonal_batched_offset": linalg_case("diagonal", B3, offset=-1),
    "diagonal_offset": linalg_case("diagonal", M34, offset=2),
    "diagonal_vector_error": linalg_case("diagonal", V3),
    "matrix_transpose": linalg_case("matrix_transpose", B3),
    "matrix_transpose_vector_error": linalg_case("matrix_transpose", V3),
    "vecdot": linalg_case("vecdot", M34, M34),
    "vecdot_axis0_complex": linalg_case("vecdot", C34, C34, axis=0),
    "vecdot_broadcast": linalg_case("vecdot", B3, rand((4,), F32, 27)),
    "vecdot_mismatch_error": linalg_case("vecdot", M34, SQ),
    "tensordot": linalg_case("tensordot", M34, M34),
    "tensordot_axes_1": linalg_case("tensordot", B3, rand((4, 2), F32, 28), axes=1),
    "tensordot_axes_pairs": linalg_case("tensordot", B3, M34, axes=((1, 2), (0, 1))),
    "tensordot_list_error": const_case(lambda la: la.tensordot([1.0], [1.0])),
})

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_linalg_golden.json")
