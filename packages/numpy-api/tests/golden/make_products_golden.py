"""Write products_golden.json: jnp's products (dot, matmul, tensordot, kron, trace, cross, ...) as the named module
runs them.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_products_golden.py jax
"""

import jnp_golden
from jnp_golden import rand


def _call(name, *shapes_dtypes, **kwargs):
    """``jnp.<name>(*arrays, **kwargs)`` on arrays of the given (shape, dtype)s."""
    def build(m):
        fn = getattr(m.numpy, name)
        return (lambda *args: fn(*args, **kwargs)), [rand(s, d, seed) for seed, (s, d) in enumerate(shapes_dtypes)]
    return build


def _with_scalar(name, scalar, shape_dtype, scalar_first=True, **kwargs):
    """``jnp.<name>`` of a Python scalar (weakly typed) and an array."""
    def build(m):
        fn = getattr(m.numpy, name)
        if scalar_first:
            return (lambda x: fn(scalar, x, **kwargs)), [rand(*shape_dtype)]
        return (lambda x: fn(x, scalar, **kwargs)), [rand(*shape_dtype)]
    return build


F32 = "float32"
CASES = {}

for dtype in ("bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"):
    CASES[f"dot_matrix_{dtype}"] = _call("dot", ((2, 3), dtype), ((3, 4), dtype))
    CASES[f"matmul_batched_{dtype}"] = _call("matmul", ((2, 2, 3), dtype), ((2, 3, 2), dtype))
CASES.update({
    "dot_vector_vector": _call("dot", ((3,), F32), ((3,), F32)),
    "dot_matrix_vector": _call("dot", ((2, 3), F32), ((3,), F32)),
    "dot_vector_matrix": _call("dot", ((3,), F32), ((3, 2), F32)),
    "dot_nd": _call("dot", ((2, 3, 4), F32), ((5, 4, 2), F32)),
    "dot_nd_vector": _call("dot", ((2, 3, 4), F32), ((4,), F32)),
    "dot_scalar_array": _call("dot", ((), F32), ((3,), F32)),
    "dot_scalars": _call("dot", ((), F32), ((), F32)),
    "dot_empty": _call("dot", ((2, 0), F32), ((0, 3), F32)),
    "dot_mixed_int_float": _call("dot", ((3,), "int32"), ((3,), F32)),
    "dot_mixed_int8_uint8": _call("dot", ((3,), "int8"), ((3,), "uint8")),
    "dot_mixed_complex_float": _call("dot", ((3,), "complex64"), ((3,), F32)),
    "dot_mixed_bool_float": _call("dot", ((2, 3), "bool"), ((3,), "float16")),
    "dot_weak_float_int_array": _with_scalar("dot", 2.0, ((3,), "int32")),
    "dot_weak_float_f16_array": _with_scalar("dot", 2.0, ((3,), "float16")),
    "dot_weak_int_right": _with_scalar("dot", 2, ((2, 3), F32), scalar_first=False),
    "dot_weak_complex": _with_scalar("dot", 1j, ((3,), F32), scalar_first=False),
    "dot_weak_both": lambda m: (lambda: m.numpy.dot(2.0, 3), []),
    "dot_preferred_f32_from_int8": _call("dot", ((2, 3), "int8"), ((3,), "int8"), preferred_element_type="float32"),
    "dot_preferred_int32_from_f32": _call("dot", ((3,), F32), ((3,), F32), preferred_element_type="int32"),
    "dot_preferred_f32_from_bf16": _call("dot", ((2, 3), "bfloat16"), ((3, 2), "bfloat16"),
                                         preferred_element_type="float32"),
    "dot_preferred_narrower_int": _call("dot", ((2, 2), "int32"), ((2, 2), "int32"), preferred_element_type="int8"),
    "dot_preferred_weak_scalars": lambda m: (lambda: m.numpy.dot(2.0, 3, preferred_element_type="float32"), []),
    "dot_precision_highest": _call("dot", ((2, 3), F32), ((3,), F32), precision="highest"),
    "dot_precision_pair": _call("dot", ((2, 3), F32), ((3,), F32), precision=("high", "default")),
    "dot_precision_bad": _call("dot", ((2, 3), F32), ((3,), F32), precision="foo"),
    "dot_shape_mismatch": _call("dot", ((2, 3), F32), ((4,), F32)),
    "dot_list": lambda m: (lambda x: m.numpy.dot([1.0, 2.0], x), [rand((2,), F32)]),
    "vdot_real": _call("vdot", ((2, 3), F32), ((2, 3), F32)),
    "vdot_complex": _call("vdot", ((3,), "complex64"), ((3,), "complex64")),
    "vdot_complex_matrix": _call("vdot", ((2, 2), "complex64"), ((2, 2), F32)),
    "vdot_int": _call("vdot", ((4,), "int16"), ((2, 2), "int8")),
    "vdot_scalar": _with_scalar("vdot", 2.0, ((3,), F32)),
    "vecdot_default": _call("vecdot", ((2, 3), F32), ((2, 3), F32)),
    "vecdot_broadcast": _call("vecdot", ((4, 1, 3), F32), ((2, 3), F32)),
    "vecdot_vector": _call("vecdot", ((2, 3), F32), ((3,), F32)),
    "vecdot_axis0": _call("vecdot", ((3, 2), F32), ((3, 2), F32), axis=0),
    "vecdot_complex": _call("vecdot", ((2, 3), "complex64"), ((2, 3), "complex64")),
    "vecdot_int_preferred": _call("vecdot", ((2, 3), "int8"), ((2, 3), "int8"), preferred_element_type="int32"),
    "vecdot_axis_out_of_range": _call("vecdot", ((2, 3), F32), ((2, 3), F32), axis=2),
    "vecdot_scalars": lambda m: (lambda: m.numpy.vecdot(2.0, 3.0), []),
    "vecdot_mismatch": _call("vecdot", ((2, 3), F32), ((2, 4), F32)),
    "inner_matrices": _call("inner", ((2, 3), F32), ((4, 3), F32)),
    "inner_vectors_int": _call("inner", ((3,), "int32"), ((3,), "int16")),
    "inner_scalar": _with_scalar("inner", 2.0, ((3,), F32)),
    "inner_scalar_int_array": _with_scalar("inner", 2, ((2, 3), "int8"), scalar_first=False),
    "inner_mismatch": _call("inner", ((2, 3), F32), ((4, 2), F32)),
    "outer_vectors": _call("outer", ((2,), F32), ((3,), F32)),
    "outer_matrix_int": _call("outer", ((2, 3), F32), ((2, 2), "int32")),
    "outer_scalar": _with_scalar("outer", 2.0, ((3,), F32)),
    "outer_bool": _call("outer", ((3,), "bool"), ((2,), "bool")),
    "matmul_matrix_vector": _call("matmul", ((2, 3), F32), ((3,), F32)),
    "matmul_vector_vector": _call("matmul", ((3,), F32), ((3,), F32)),
    "matmul_vector_batched": _call("matmul", ((3,), F32), ((2, 3, 4), F32)),
    "matmul_batched_vector": _call("matmul", ((2, 3, 4), F32), ((4,), F32)),
    "matmul_broadcast_rhs_one": _call("matmul", ((4, 2, 3), F32), ((1, 3, 5), F32)),
    "matmul_broadcast_lhs_one": _call("matmul", ((1, 2, 3), F32), ((4, 3, 5), F32)),
    "matmul_both_one": _call("matmul", ((1, 2, 3), F32), ((1, 3, 5), F32)),
    "matmul_mixed_ones": _call("matmul", ((2, 1, 2, 3), F32), ((1, 4, 3, 5), F32)),
    "matmul_many_ones": _call("matmul", ((1, 1, 2, 3), F32), ((4, 1, 3, 5), F32)),
    "matmul_lhs_only_batch": _call("matmul", ((3, 4, 2, 3), F32), ((4, 3, 5), F32)),
    "matmul_lhs_only_one": _call("matmul", ((1, 2, 3), F32), ((3, 5), F32)),
    "matmul_rhs_only_batch": _call("matmul", ((4, 3), F32), ((2, 3, 5), F32)),
    "matmul_rhs_batch_2d": _call("matmul", ((6, 3), F32), ((7, 2, 3, 5), F32)),
    "matmul_vector_one_batch": _call("matmul", ((3,), F32), ((1, 3, 5), F32)),
    "matmul_empty_batch": _call("matmul", ((0, 2, 3), F32), ((1, 3, 5), F32)),
    "matmul_mixed_dtypes": _call("matmul", ((2, 3), F32), ((3, 4), "int32")),
    "matmul_preferred": _call("matmul", ((2, 3), "int8"), ((3, 4), "int8"), preferred_element_type="int32"),
    "matmul_precision": _call("matmul", ((2, 3), F32), ((3, 4), F32), precision="highest"),
    "matmul_incompatible_batch": _call("matmul", ((2, 3, 4), F32), ((3, 4, 5), F32)),
    "matmul_incompatible_batch_ones": _call("matmul", ((1, 4, 1, 2, 3), F32), ((5, 1, 3, 5), F32)),
    "matmul_scalar_error": _with_scalar("matmul", 2.0, ((3,), F32)),
    "matmul_scalar_error_right": _with_scalar("matmul", 2.0, ((2, 3), F32), scalar_first=False),
    "matmul_contract_mismatch": _call("matmul", ((2, 3), F32), ((4,), F32)),
    "matmul_list": lambda m: (lambda x: m.numpy.matmul([1.0], x), [rand((1,), F32)]),
    "matvec": _call("matvec", ((2, 3), F32), ((3,), F32)),
    "matvec_broadcast": _call("matvec", ((5, 2, 3), F32), ((4, 1, 3), F32)),
    "matvec_mismatch": _call("matvec", ((2, 3), F32), ((4,), F32)),
    "vecmat": _call("vecmat", ((3,), F32), ((3, 4), F32)),
    "vecmat_batched": _call("vecmat", ((3,), F32), ((5, 3, 2), F32)),
    "vecmat_complex": _call("vecmat", ((2, 3), "complex64"), ((3, 2), "complex64")),
    "tensordot_default": _call("tensordot", ((2, 3, 4), F32), ((3, 4, 5), F32)),
    "tensordot_int": _call("tensordot", ((2, 3), F32), ((3, 4), F32), axes=1),
    "tensordot_zero": _call("tensordot", ((2,), F32), ((3,), F32), axes=0),
    "tensordot_pair_ints": _call("tensordot", ((2, 3), F32), ((3, 4), F32), axes=[1, 0]),
    "tensordot_pair_lists": _call("tensordot", ((2, 3, 4), F32), ((4, 2, 5), F32), axes=([0, 2], [1, 0])),
    "tensordot_negative": _call("tensordot", ((2, 3), F32), ((4, 3), F32), axes=([-1], [-1])),
    "tensordot_mixed": _call("tensordot", ((2, 3), "int8"), ((3, 4), "bfloat16"), axes=1),
    "tensordot_too_many": _call("tensordot", ((2, 3), F32), ((3, 4), F32), axes=3),
    "tensordot_mismatch": _call("tensordot", ((2, 3), F32), ((3, 4), F32)),
    "tensordot_bad_axes": _call("tensordot", ((2, 3), F32), ((3, 4), F32), axes=([0, 1], [0])),
    "tensordot_bad_axes_type": _call("tensordot", ((2, 3), F32), ((3, 4), F32), axes=(1, 2, 3)),
    "tensordot_scalar": _with_scalar("tensordot", 2.0, ((3,), F32), axes=0),
    "tensordot_preferred": _call("tensordot", ((2, 3), "bfloat16"), ((3, 4), "bfloat16"), axes=1,
                                 preferred_element_type="float32"),
    "kron_matrices": _call("kron", ((2, 3), F32), ((3, 4), F32)),
    "kron_vector_matrix": _call("kron", ((3,), F32), ((2, 3), F32)),
    "kron_int_float": _call("kron", ((2,), "int32"), ((2,), F32)),
    "kron_scalar": _with_scalar("kron", 2.0, ((2, 2), "int32")),
    "kron_bool": _call("kron", ((2,), "bool"), ((2,), "bool")),
    "kron_3d": _call("kron", ((2, 1, 2), F32), ((1, 2, 3), F32)),
    "trace_f32": _call("trace", ((3, 4), F32)),
    "trace_int8": _call("trace", ((3, 4), "int8")),
    "trace_uint8": _call("trace", ((3, 3), "uint8")),
    "trace_bool": _call("trace", ((3, 4), "bool")),
    "trace_complex": _call("trace", ((3, 3), "complex64")),
    "trace_offset": _call("trace", ((3, 4), F32), offset=1),
    "trace_negative_offset": _call("trace", ((4, 3), "int32"), offset=-1),
    "trace_offset_outside": _call("trace", ((3, 4), F32), offset=5),
    "trace_dtype": lambda m: (lambda a: m.numpy.trace(a, 1, dtype="float16"), [rand((3, 4), "int8")]),
    "trace_axes": _call("trace", ((2, 3, 4), F32), axis1=2, axis2=0),
    "trace_batched": _call("trace", ((2, 3, 3), F32), axis1=1, axis2=2),
    "trace_same_axes": _call("trace", ((3, 3), F32), axis1=0, axis2=-2),
    "trace_1d": _call("trace", ((3,), F32)),
    "trace_empty": _call("trace", ((0, 3), F32)),
    "trace_traced_offset": lambda m: (lambda a, k: m.numpy.trace(a, k), [rand((3, 3), F32), rand((), "int32")]),
    "cross_3": _call("cross", ((3,), F32), ((3,), F32)),
    "cross_2_3": _call("cross", ((2,), F32), ((3,), F32)),
    "cross_3_2": _call("cross", ((3,), "int32"), ((2,), "int32")),
    "cross_2_2": _call("cross", ((2,), F32), ((2,), F32)),
    "cross_batched": _call("cross", ((4, 3), F32), ((4, 3), F32)),
    "cross_broadcast": _call("cross", ((2, 1, 3), F32), ((4, 3), "int32")),
    "cross_batched_2": _call("cross", ((4, 2), F32), ((4, 3), F32)),
    "cross_axes": _call("cross", ((3, 2), F32), ((2, 3), F32), axisa=0, axisb=1, axisc=0),
    "cross_axis": _call("cross", ((3, 2), F32), ((3, 2), F32), axis=0),
    "cross_bad_dimension": _call("cross", ((4,), F32), ((3,), F32)),
    "cross_complex": _call("cross", ((3,), "complex64"), ((3,), "complex64")),
    "jit_matmul": lambda m: (m.jit(m.numpy.matmul), [rand((2, 1, 3), F32), rand((4, 3, 2), F32, 1)]),
    "vmap_dot": lambda m: (m.vmap(m.numpy.dot, in_axes=(0, None)), [rand((5, 2, 3), F32), rand((3,), F32, 1)]),
    "vmap_matmul": lambda m: (m.vmap(m.numpy.matmul, in_axes=(1, None)), [rand((2, 5, 3), F32), rand((3, 4), F32)]),
    "vmap_trace": lambda m: (m.vmap(m.numpy.trace), [rand((5, 3, 3), F32)]),
    "vmap_cross": lambda m: (m.vmap(m.numpy.cross), [rand((5, 3), F32), rand((5, 3), F32, 1)]),
    "grad_dot": lambda m: (m.grad(lambda a, b: m.numpy.dot(a, b), argnums=(0, 1)), [rand((3,), F32),
                                                                                   rand((3,), F32, 1)]),
    "grad_matmul": lambda m: (m.grad(lambda a, b: m.lax.reduce_sum(m.numpy.matmul(a, b), (0, 1, 2))),
                              [rand((2, 2, 3), F32), rand((3, 2), F32, 1)]),
    "grad_kron": lambda m: (m.grad(lambda a, b: m.lax.reduce_sum(m.numpy.kron(a, b), (0, 1))),
                            [rand((2, 2), F32), rand((2, 2), F32, 1)]),
    "grad_trace": lambda m: (m.grad(m.numpy.trace), [rand((3, 3), F32)]),
    "grad_cross": lambda m: (m.grad(lambda a, b: m.numpy.vdot(m.numpy.cross(a, b), b)),
                             [rand((3,), F32), rand((3,), F32, 1)]),
})

if __name__ == "__main__":
    jnp_golden.write(CASES, "products_golden.json")
