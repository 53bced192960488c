"""Golden records of jnp's scalar types (``jnp.float32(x)``) and dtype queries from JAX 0.10.2.

Queries that return dtypes or booleans are recorded through an array built from their answer, so the record holds
the answer (a dtype in the jaxpr, a boolean value) or the error.

Run with JAX's environment: /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scalar_types_golden.py jax
"""

import numpy as np
from jnp_golden import no_args_case, rand, traced_case, write


def _dtype_of(query):
    """A case recording the dtype ``query(jnp)`` answers, as the dtype of a zero-dimensional array."""
    return no_args_case(lambda jnp: jnp.zeros((), query(jnp)))


def _answer(query):
    """A case recording the answer of ``query(jnp)`` (a bool or int) as an array."""
    return no_args_case(lambda jnp: jnp.asarray(query(jnp)))


SCALAR_TYPES = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
                "bfloat16", "float32", "float64", "complex64", "complex128", "int4", "uint4", "float8_e4m3fn",
                "int_", "uint", "float_", "complex_", "single", "double", "csingle", "cdouble"]

CASES = {
    **{f"call_{name}": no_args_case(lambda jnp, name=name: getattr(jnp, name)(1)) for name in SCALAR_TYPES},
    "call_float32_float": no_args_case(lambda jnp: jnp.float32(3.5)),
    "call_float32_list": no_args_case(lambda jnp: jnp.float32([1, 2])),
    "call_float32_np_array": no_args_case(lambda jnp: jnp.float32(np.arange(3))),
    "call_float32_string": no_args_case(lambda jnp: jnp.float32("1.5")),
    "call_int32_truncates": no_args_case(lambda jnp: jnp.int32(-2.7)),
    "call_bool_nonzero": no_args_case(lambda jnp: jnp.bool_(2)),
    "call_bfloat16": no_args_case(lambda jnp: jnp.bfloat16(1.5)),
    "call_complex64": no_args_case(lambda jnp: jnp.complex64(1 - 2j)),
    "call_uint8_np_wraps": no_args_case(lambda jnp: jnp.uint8(np.array([300, -1]))),
    "call_float32_traced": traced_case(lambda jnp, x: jnp.float32(x), np.int32(3)),
    "call_float32_weak_traced": traced_case(lambda jnp, x: jnp.float32(x), 3.0),
    "call_int8_traced": traced_case(lambda jnp, x: jnp.int8(x), rand((3,), "float32", 1)),
    "call_float32_traced_same": traced_case(lambda jnp, x: jnp.float32(x), rand((3,), "float32", 2)),
    "call_float32_constant_times_traced": traced_case(lambda jnp, x: x * jnp.float32(2), np.float32(1)),
    "call_int8_overflow": no_args_case(lambda jnp: jnp.int8(300)),
    "call_uint8_negative": no_args_case(lambda jnp: jnp.uint8(-1)),
    "call_float32_none": no_args_case(lambda jnp: jnp.float32(None)),
    "call_no_argument": no_args_case(lambda jnp: jnp.float32()),
    "scalar_type_as_dtype": no_args_case(lambda jnp: jnp.zeros(2, jnp.bfloat16)),
    "scalar_type_as_dtype_int4": no_args_case(lambda jnp: jnp.ones(2, jnp.uint4)),
    "dtype_of_scalar_type": _dtype_of(lambda jnp: jnp.dtype(jnp.int16)),
    "dtype_name": _dtype_of(lambda jnp: jnp.dtype("bfloat16")),
    "scalar_type_dtype_attribute": _dtype_of(lambda jnp: jnp.float16.dtype),
    "isinstance_numpy_scalar": _answer(lambda jnp: isinstance(np.float32(1), jnp.float32)),
    "isinstance_other_numpy_scalar": _answer(lambda jnp: isinstance(np.float64(1), jnp.float32)),
    "isinstance_array": _answer(lambda jnp: isinstance(jnp.float32(1), jnp.float32)),
    "equals_numpy_type": _answer(lambda jnp: jnp.float32 == np.float32),
    "not_equals_numpy_type": _answer(lambda jnp: jnp.float32 != np.float32),
    "equals_string": _answer(lambda jnp: jnp.float32 == "float32"),
    "equals_dtype": _answer(lambda jnp: [jnp.float32 == np.dtype("float32"), np.dtype("float32") == jnp.float32,
                                         jnp.float32 != np.dtype("float32"), jnp.int8 == np.dtype("int16")]),
    "hash_as_numpy": _answer(lambda jnp: hash(jnp.int8) == hash(np.int8)),
    "dict_lookup": _answer(lambda jnp: {np.float32: 7}.get(jnp.float32)),
    "bool_alias": _answer(lambda jnp: jnp.bool is jnp.bool_),
    "not_numpy_subclass": _answer(lambda jnp: issubclass(jnp.float32, np.floating)),
    "abstract_is_numpy": _answer(lambda jnp: jnp.floating is np.floating and jnp.generic is np.generic),
    # ---- finfo and iinfo
    "finfo_float32_eps": _answer(lambda jnp: jnp.finfo(jnp.float32).eps),
    "finfo_bfloat16_max": _answer(lambda jnp: float(jnp.finfo(jnp.bfloat16).max)),
    "finfo_float16_name": _answer(lambda jnp: float(jnp.finfo("float16").tiny)),
    "finfo_float8": _answer(lambda jnp: float(jnp.finfo(jnp.float8_e4m3fn).max)),
    "finfo_complex": _dtype_of(lambda jnp: jnp.finfo(jnp.complex64).dtype),
    "finfo_python_float": _dtype_of(lambda jnp: jnp.finfo(float).dtype),
    "finfo_array": _dtype_of(lambda jnp: jnp.finfo(jnp.ones(2, jnp.float16)).dtype),
    "finfo_int": _answer(lambda jnp: jnp.finfo(jnp.int32).eps),
    "iinfo_int8": _answer(lambda jnp: [jnp.iinfo(jnp.int8).min, jnp.iinfo(jnp.int8).max]),
    "iinfo_int4": _answer(lambda jnp: [jnp.iinfo(jnp.int4).min, jnp.iinfo(jnp.int4).max]),
    "iinfo_uint4": _answer(lambda jnp: jnp.iinfo("uint4").max),
    "iinfo_array": _answer(lambda jnp: jnp.iinfo(jnp.ones(2, jnp.int16)).max),
    "iinfo_float": _answer(lambda jnp: jnp.iinfo(jnp.float32).max),
    "iinfo_bool": _answer(lambda jnp: jnp.iinfo(jnp.bool_).max),
    # ---- promote_types and result_type
    "promote_int8_uint8": _dtype_of(lambda jnp: jnp.promote_types(jnp.int8, jnp.uint8)),
    "promote_python_types": _dtype_of(lambda jnp: jnp.promote_types(int, jnp.float16)),
    "promote_bf16_f16": _dtype_of(lambda jnp: jnp.promote_types(jnp.bfloat16, jnp.float16)),
    "promote_strings": _dtype_of(lambda jnp: jnp.promote_types("i1", "u1")),
    "promote_int4_int8": _dtype_of(lambda jnp: jnp.promote_types(jnp.int4, jnp.int8)),
    "promote_array": _dtype_of(lambda jnp: jnp.promote_types(jnp.ones(2, jnp.int8), jnp.float16)),
    "promote_float8": _dtype_of(lambda jnp: jnp.promote_types(jnp.float8_e4m3fn, jnp.float16)),
    "promote_str_type": _dtype_of(lambda jnp: jnp.promote_types(str, jnp.float16)),
    "promote_value": _dtype_of(lambda jnp: jnp.promote_types(1.0, jnp.float16)),
    "result_type_python": _dtype_of(lambda jnp: jnp.result_type(1, 2.0)),
    "result_type_weak_float": _dtype_of(lambda jnp: jnp.result_type(np.int8(1), 2.0)),
    "result_type_array_int": _dtype_of(lambda jnp: jnp.result_type(jnp.ones(2, jnp.int8), 2)),
    "result_type_bool_int": _dtype_of(lambda jnp: jnp.result_type(True, np.uint8(1))),
    "result_type_none": _dtype_of(lambda jnp: jnp.result_type(None)),
    "result_type_strings": _dtype_of(lambda jnp: jnp.result_type("float16", "int8")),
    "result_type_empty": _dtype_of(lambda jnp: jnp.result_type()),
    "result_type_list": _dtype_of(lambda jnp: jnp.result_type([1, 2])),
    # ---- can_cast, issubdtype, isdtype
    "can_cast_int_float": _answer(lambda jnp: jnp.can_cast(jnp.int32, jnp.float32)),
    "can_cast_int8_float32": _answer(lambda jnp: jnp.can_cast(jnp.int8, jnp.float32)),
    "can_cast_same_kind": _answer(lambda jnp: jnp.can_cast(jnp.float64, jnp.float32, "same_kind")),
    "can_cast_array": _answer(lambda jnp: jnp.can_cast(jnp.ones(2), jnp.int32)),
    "can_cast_bf16_f32": _answer(lambda jnp: jnp.can_cast(jnp.bfloat16, jnp.float32)),
    "can_cast_f16_bf16": _answer(lambda jnp: jnp.can_cast(jnp.float16, jnp.bfloat16)),
    "can_cast_int4_int8": _answer(lambda jnp: jnp.can_cast(jnp.int4, jnp.int8)),
    "can_cast_strings": _answer(lambda jnp: jnp.can_cast("int8", "float32")),
    "can_cast_np_scalar": _answer(lambda jnp: jnp.can_cast(np.float32(1), np.float16)),
    "can_cast_python_int": _answer(lambda jnp: jnp.can_cast(1, jnp.int8)),
    "can_cast_python_bool": _answer(lambda jnp: jnp.can_cast(True, jnp.int8)),
    "can_cast_bad_casting": _answer(lambda jnp: jnp.can_cast(jnp.float16, jnp.float32, "foo")),
    "issubdtype_bf16_floating": _answer(lambda jnp: jnp.issubdtype(jnp.bfloat16, jnp.floating)),
    "issubdtype_same": _answer(lambda jnp: jnp.issubdtype(jnp.float32, np.float32)),
    "issubdtype_int4_signed": _answer(lambda jnp: jnp.issubdtype("int4", jnp.signedinteger)),
    "issubdtype_uint4_signed": _answer(lambda jnp: jnp.issubdtype(jnp.uint4, jnp.signedinteger)),
    "issubdtype_python_float": _answer(lambda jnp: jnp.issubdtype(float, jnp.floating)),
    "issubdtype_python_int": _answer(lambda jnp: jnp.issubdtype(jnp.int32, int)),
    "issubdtype_array": _answer(lambda jnp: jnp.issubdtype(jnp.ones(2), jnp.inexact)),
    "isdtype_real_floating": _answer(lambda jnp: jnp.isdtype(jnp.float32, "real floating")),
    "isdtype_bf16": _answer(lambda jnp: jnp.isdtype(jnp.bfloat16, "real floating")),
    "isdtype_int4_signed": _answer(lambda jnp: jnp.isdtype(jnp.int4, "signed integer")),
    "isdtype_uint2_integral": _answer(lambda jnp: jnp.isdtype(jnp.uint2, "integral")),
    "isdtype_tuple": _answer(lambda jnp: jnp.isdtype(jnp.int8, ("bool", "numeric"))),
    "isdtype_bool_numeric": _answer(lambda jnp: jnp.isdtype(jnp.bool_, "numeric")),
    "isdtype_complex": _answer(lambda jnp: jnp.isdtype(jnp.complex64, "complex floating")),
    "isdtype_float8_numeric": _answer(lambda jnp: jnp.isdtype(jnp.float8_e4m3fn, "numeric")),
    "isdtype_dtype_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, jnp.float32)),
    "isdtype_no_canonicalize": _answer(lambda jnp: jnp.isdtype(jnp.float64, jnp.float32)),
    "isdtype_python_type_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, float)),
    "isdtype_dtype_name_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, "float32")),
    "isdtype_array": _answer(lambda jnp: jnp.isdtype(jnp.ones(2), "numeric")),
    "isdtype_string_first": _answer(lambda jnp: jnp.isdtype("int8", "integral")),
    "isdtype_mixed_tuple": _answer(lambda jnp: jnp.isdtype(jnp.float32, (np.float32, "bool"))),
    "isdtype_unknown_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, "foo")),
    "isdtype_abstract_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, np.floating)),
    "isdtype_int_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, 3)),
    "isdtype_list_kind": _answer(lambda jnp: jnp.isdtype(jnp.float32, ["bool"])),
    "isdtype_value_first": _answer(lambda jnp: jnp.isdtype(1.0, "real floating")),
    # ---- object queries
    "iscomplexobj": _answer(lambda jnp: [jnp.iscomplexobj(v) for v in
                                         [1j, 1.0, [1j], None, "a", jnp.complex64, np.ones(2, np.complex64)]]),
    "iscomplexobj_array": _answer(lambda jnp: jnp.iscomplexobj(jnp.ones(2, jnp.complex64))),
    # a type or dtype is made an array of the dtype it names: NumPy's error converting it, True for bool types
    **{f"iscomplexobj_{name}": _answer(lambda jnp, t=t: jnp.iscomplexobj(t)) for name, t in [
        ("np_float32", np.float32), ("np_complex64", np.complex64), ("dtype_float32", np.dtype("float32")),
        ("dtype_complex64", np.dtype("complex64")), ("float", float), ("complex", complex), ("int", int),
        ("np_int8", np.int8), ("np_bool", np.bool_), ("bool", bool), ("dtype_bool", np.dtype(bool)),
        ("object", object), ("np_floating", np.floating)]},
    "isrealobj_np_float32": _answer(lambda jnp: jnp.isrealobj(np.float32)),
    "asarray_np_float32": no_args_case(lambda jnp: jnp.asarray(np.float32)),
    "array_list_of_np_complex64": no_args_case(lambda jnp: jnp.array([np.complex64])),
    "asarray_np_bool": no_args_case(lambda jnp: jnp.asarray(np.bool_)),
    "isrealobj": _answer(lambda jnp: [jnp.isrealobj(v) for v in [1j, 1.0, None, jnp.bfloat16]]),
    "isscalar": _answer(lambda jnp: [jnp.isscalar(v) for v in
                                     [1, 1.0, 1j, True, np.float32(1), jnp.asarray(1.0), jnp.ones(2), np.array(1.0),
                                      "a", b"a", None, [1], (1,), object(), np.array("a"), np.ones((1,)), {}]]),
    "iterable": _answer(lambda jnp: [jnp.iterable(v) for v in [1, [1], jnp.ones(2), jnp.asarray(1.0), "a",
                                                                np.array(1)]]),
    "ndim": _answer(lambda jnp: [jnp.ndim(v) for v in [1, [1, 2], [[1]], jnp.ones((2, 3)), np.ones(2), "a", None]]),
    "ndim_ragged": _answer(lambda jnp: jnp.ndim([1, [2]])),
    "shape": _answer(lambda jnp: [d for v in [1, [1, 2], jnp.ones((2, 3)), np.ones(2), None] for d in
                                  (-1, *jnp.shape(v))]),
    "size": _answer(lambda jnp: [jnp.size(v) for v in [1, [1, 2], jnp.ones((2, 3)), np.ones(2)]]),
    "size_axis": _answer(lambda jnp: [jnp.size(jnp.ones((2, 3)), 1), jnp.size(jnp.ones((2, 3)), -1),
                                      jnp.size(jnp.ones((2, 3)), (0, 1)), jnp.size([[1, 2, 3]], 1)]),
    "size_axis_out_of_bounds": _answer(lambda jnp: jnp.size(jnp.ones((2, 3)), 2)),
    "size_axis_repeated": _answer(lambda jnp: jnp.size(np.ones((2, 3)), axis=(0, 0))),
    "ndim_traced": traced_case(lambda jnp, x: jnp.zeros(jnp.ndim(x) + jnp.size(x)), rand((2, 3), "float32", 3)),
    "shape_traced": traced_case(lambda jnp, x: jnp.zeros(jnp.shape(x)), rand((2, 3), "float32", 4)),
    "constants": _answer(lambda jnp: [jnp.e, jnp.euler_gamma, jnp.inf, jnp.pi, float(jnp.newaxis is None)]),
    "constant_nan": _answer(lambda jnp: jnp.nan),
}

if __name__ == "__main__":
    write(CASES, "scalar_types_golden.json")
