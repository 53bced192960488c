"""Golden cases for jnp's elementwise functions and the ufunc objects' methods, recorded with JAX 0.10.2:

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_ufuncs_golden.py jax
"""

import jnp_golden
import numpy as np
from jnp_golden import rand

EDGE = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, 1.5, -2.5, 2.0, -3.0], np.float32)
EDGE_OTHER = np.array([1.0, np.nan, -np.inf, 0.0, -0.0, -0.5, 1.5, 2.5, -2.0, 0.0], np.float32)

UNARY = ["abs", "absolute", "acos", "acosh", "angle", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh",
         "around", "asin", "asinh", "atan", "atanh", "bitwise_count", "bitwise_invert", "bitwise_not", "cbrt", "ceil",
         "conj", "conjugate", "cos", "cosh", "deg2rad", "degrees", "exp", "exp2", "expm1", "fabs", "floor", "frexp",
         "i0", "imag", "invert", "iscomplex", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "log",
         "log10", "log1p", "log2", "logical_not", "modf", "nan_to_num", "negative", "positive", "rad2deg",
         "radians", "real", "reciprocal", "rint", "round", "sign", "signbit", "sin", "sinc", "sinh", "spacing",
         "sqrt", "square", "tan", "tanh", "trunc"]

BINARY = ["add", "arctan2", "atan2", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
          "bitwise_right_shift", "left_shift", "right_shift", "copysign", "divide", "divmod", "equal", "float_power",
          "floor_divide", "fmax", "fmin", "fmod", "gcd", "greater", "greater_equal", "heaviside", "hypot", "lcm",
          "ldexp", "less", "less_equal", "logaddexp", "logaddexp2", "logical_and", "logical_or", "logical_xor",
          "maximum", "minimum", "mod", "multiply", "nextafter", "not_equal", "pow", "power", "remainder", "subtract",
          "true_divide"]

FLOAT_UNARY = ["abs", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "ceil", "cos", "exp",
               "expm1", "floor", "frexp", "i0", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "log", "log1p",
               "log2", "modf", "nan_to_num", "rint", "round", "sign", "signbit", "sinc", "spacing", "sqrt", "trunc"]

FLOAT_BINARY = ["add", "arctan2", "copysign", "divide", "divmod", "floor_divide", "fmax", "fmin", "fmod", "heaviside",
                "hypot", "logaddexp", "logaddexp2", "maximum", "minimum", "nextafter", "power", "remainder"]

CASES = {}


def _case(name, fn_getter, args_maker):
    CASES[name] = lambda m: (fn_getter(m), args_maker())


def _attr(name):
    return lambda m: getattr(m.numpy, name)


for _name in UNARY:
    for _dtype in ("float32", "int32", "bool", "complex64"):
        _case(f"{_name}_{_dtype}", _attr(_name), lambda d=_dtype: [rand((3,), d, 1)])
for _name in ("abs", "sign", "floor", "sqrt", "exp", "round", "square", "negative", "signbit", "isnan", "reciprocal",
              "log1p", "sinc", "frexp", "nan_to_num", "spacing", "rint", "trunc", "i0", "bitwise_count", "invert"):
    for _dtype in ("float16", "bfloat16", "uint8", "int8"):
        _case(f"{_name}_{_dtype}", _attr(_name), lambda d=_dtype: [rand((2,), d, 2)])
for _name in FLOAT_UNARY:
    _case(f"{_name}_edge", _attr(_name), lambda: [EDGE])
for _name in ("sin", "floor", "isnan", "abs", "sign", "sqrt"):
    _case(f"{_name}_python_scalar", lambda m, n=_name: (lambda: getattr(m.numpy, n)(2.5)), lambda: [])
    _case(f"{_name}_scalar_0d", _attr(_name), lambda: [np.float32(-1.5)])

_BINARY_ARGS = {
    "f32": lambda: [rand((3,), "float32", 3), rand((3,), "float32", 4)],
    "i32": lambda: [rand((3,), "int32", 3), rand((3,), "int32", 4) + np.int32(7)],
    "bool": lambda: [rand((3,), "bool", 3), rand((3,), "bool", 4)],
    "c64": lambda: [rand((3,), "complex64", 3), rand((3,), "complex64", 4)],
    "u8": lambda: [rand((3,), "uint8", 3), rand((3,), "uint8", 4) + np.uint8(1)],
    "i32_f32": lambda: [rand((3,), "int32", 3), rand((3,), "float32", 4)],
    "f16_i8": lambda: [rand((3,), "float16", 3), rand((3,), "int8", 4)],
    "bcast": lambda: [rand((2, 3), "float32", 3), rand((3,), "float32", 4)],
    "scalar": lambda: [rand((3,), "float32", 3), np.float32(1.5)],
    "i8_weak": lambda: [rand((3,), "int8", 3), 3],
}
for _name in BINARY:
    for _kind, _maker in _BINARY_ARGS.items():
        _case(f"{_name}_{_kind}", _attr(_name), _maker)
    _case(f"{_name}_literal_float", lambda m, n=_name: (lambda x: getattr(m.numpy, n)(x, 0.3)),
          lambda: [rand((3,), "float32", 5)])
    _case(f"{_name}_literal_int", lambda m, n=_name: (lambda x: getattr(m.numpy, n)(x, 2)),
          lambda: [rand((3,), "int32", 5)])
    _case(f"{_name}_int_literal_float", lambda m, n=_name: (lambda x: getattr(m.numpy, n)(x, 2.5)),
          lambda: [rand((3,), "int32", 5)])
for _name in FLOAT_BINARY:
    _case(f"{_name}_edge", _attr(_name), lambda: [EDGE, EDGE_OTHER])

# integer division, remainders and powers: signs and zeros
_INT_SIGNS = (lambda: [np.int32([7, -7, 7, -7, 0, 5]), np.int32([2, 2, -2, -2, 3, 0])])
for _name in ("floor_divide", "remainder", "fmod", "divmod", "power", "gcd", "lcm"):
    _case(f"{_name}_int_signs", _attr(_name), _INT_SIGNS)
_case("power_concrete_int", lambda m: (lambda x: m.numpy.power(x, 3)), lambda: [rand((3,), "int8", 1)])
_case("power_concrete_negative", lambda m: (lambda x: m.numpy.power(x, -2)), lambda: [rand((3,), "float32", 1)])
_case("power_numpy_int_exponent", lambda m: (lambda x: m.numpy.power(x, np.int32(2))),
      lambda: [rand((3,), "float32", 1)])
_case("power_float_literal", lambda m: (lambda x: m.numpy.power(x, 3.0)), lambda: [rand((3,), "float32", 1)])
_case("gcd_scalar", _attr("gcd"), lambda: [np.int32([12, 18, -4]), 6])
_case("ldexp_int_float", _attr("ldexp"), lambda: [np.int32([1, 2]), np.float32([1, 2])])

# keyword arguments and variants
_case("round_decimals", lambda m: (lambda x: m.numpy.round(x, 2)), lambda: [rand((3,), "float32", 1)])
_case("round_decimals_f16", lambda m: (lambda x: m.numpy.round(x, 1)), lambda: [rand((3,), "float16", 1)])
_case("round_decimals_negative", lambda m: (lambda x: m.numpy.round(x, -1)), lambda: [np.float32([15, 251, -35])])
_case("round_int_negative", lambda m: (lambda x: m.numpy.round(x, -1)), lambda: [np.int32([15, 251])])
_case("round_float_decimals", lambda m: (lambda x: m.numpy.round(x, 1.0)), lambda: [np.float32([1.25])])
_case("round_complex_decimals", lambda m: (lambda x: m.numpy.round(x, 1)), lambda: [rand((2,), "complex64", 1)])
_case("around_decimals", lambda m: (lambda x: m.numpy.around(x, 1)), lambda: [rand((3,), "float32", 1)])
_case("angle_deg", lambda m: (lambda x: m.numpy.angle(x, deg=True)), lambda: [rand((3,), "complex64", 1)])
_case("angle_deg_int", lambda m: (lambda x: m.numpy.angle(x, True)), lambda: [rand((3,), "int32", 1)])
_case("nan_to_num_args", lambda m: (lambda x: m.numpy.nan_to_num(x, nan=1, posinf=2.0, neginf=-2)), lambda: [EDGE])
_case("nan_to_num_complex_edge", _attr("nan_to_num"),
      lambda: [np.array([complex(np.nan, np.inf), complex(-np.inf, 1)], np.complex64)])
_case("clip_both", lambda m: (lambda x: m.numpy.clip(x, 0, 1)), lambda: [rand((4,), "float32", 1)])
_case("clip_none", _attr("clip"), lambda: [rand((4,), "float32", 1)])
_case("clip_max_int", lambda m: (lambda x: m.numpy.clip(x, max=1.0)), lambda: [rand((4,), "int32", 1)])
_case("clip_min_traced", lambda m: (lambda x, lo: m.numpy.clip(x, lo)), lambda: [rand((4,), "float32", 1),
                                                                                  np.float32(0.1)])
_case("clip_arrays", lambda m: (lambda x, lo, hi: m.numpy.clip(x, min=lo, max=hi)),
      lambda: [rand((2, 3), "float32", 1), rand((3,), "float32", 2) - 1, rand((2, 1), "float32", 3) + 1])
_case("clip_a_min", lambda m: (lambda x: m.numpy.clip(x, a_min=1.0)), lambda: [rand((4,), "float32", 1)])
_case("clip_complex", lambda m: (lambda x: m.numpy.clip(x, 0, 1)), lambda: [rand((2,), "complex64", 1)])
_case("clip_edge", lambda m: (lambda x: m.numpy.clip(x, -1.0, 1.0)), lambda: [EDGE])
_case("isclose_default", _attr("isclose"), lambda: [EDGE, EDGE_OTHER])
_case("isclose_equal_nan", lambda m: (lambda a, b: m.numpy.isclose(a, b, equal_nan=True)),
      lambda: [EDGE, EDGE_OTHER])
_case("isclose_tolerances", lambda m: (lambda a, b: m.numpy.isclose(a, b, rtol=0.5, atol=0.1)),
      lambda: [rand((4,), "float32", 1), rand((4,), "float32", 2)])
_case("isclose_traced_tolerance", lambda m: (lambda a, b, t: m.numpy.isclose(a, b, t)),
      lambda: [rand((4,), "float32", 1), rand((4,), "float32", 2), np.float32(0.5)])
_case("isclose_int", _attr("isclose"), lambda: [np.int32([1, 2, 3]), np.int32([1, 3, 3])])
_case("isclose_complex", _attr("isclose"), lambda: [rand((3,), "complex64", 1), rand((3,), "complex64", 1)])
_case("allclose_true", _attr("allclose"), lambda: [rand((4,), "float32", 1), rand((4,), "float32", 1)])
_case("allclose_false", _attr("allclose"), lambda: [rand((4,), "float32", 1), rand((4,), "float32", 2)])
_case("allclose_scalar", _attr("allclose"), lambda: [np.float32(1), np.float32(2)])
_case("allclose_equal_nan", lambda m: (lambda a: m.numpy.allclose(a, a, equal_nan=True)), lambda: [EDGE])
_case("array_equal_same", _attr("array_equal"), lambda: [rand((4,), "float32", 1), rand((4,), "float32", 1)])
_case("array_equal_nan", lambda m: (lambda a: m.numpy.array_equal(a, a, equal_nan=True)), lambda: [EDGE])
_case("array_equal_nan_false", lambda m: (lambda a: m.numpy.array_equal(a, a)), lambda: [EDGE])
_case("array_equal_shapes", _attr("array_equal"), lambda: [rand((2,), "float32", 1), rand((3,), "float32", 1)])
_case("array_equal_dtypes", _attr("array_equal"), lambda: [np.int32([1, 2]), np.float32([1, 2])])
_case("array_equiv_broadcast", _attr("array_equiv"), lambda: [np.float32([[1, 1], [1, 1]]), np.float32([1])])
_case("array_equiv_mismatch", _attr("array_equiv"), lambda: [np.float32([1, 2]), np.float32([1, 2, 3])])
_case("where_basic", _attr("where"), lambda: [rand((3,), "bool", 1), rand((3,), "float32", 2),
                                              rand((3,), "float32", 3)])
_case("where_int_condition", _attr("where"), lambda: [rand((3,), "int32", 1), rand((3,), "float32", 2), 2.0])
_case("where_literals", lambda m: (lambda c: m.numpy.where(c, 1, 0)), lambda: [rand((3,), "bool", 1)])
_case("where_broadcast", _attr("where"), lambda: [rand((2, 1), "bool", 1), rand((1, 3), "float32", 2),
                                                  np.float32(2)])
_case("where_promote", _attr("where"), lambda: [rand((3,), "bool", 1), rand((3,), "int8", 2),
                                                rand((3,), "float16", 3)])
_case("where_bad_shapes", _attr("where"), lambda: [rand((2,), "bool", 1), rand((3,), "float32", 2),
                                                   rand((2,), "float32", 3)])
_case("where_one_missing", lambda m: (lambda c: m.numpy.where(c, 1.0)), lambda: [rand((2,), "bool", 1)])
_case("where_list", lambda m: (lambda: m.numpy.where([True], 1, 2)), lambda: [])
# an empty result selects nothing: JAX's _where returns the broadcast first case without a select_n
_case("where_empty", _attr("where"), lambda: [rand((2, 0), "bool", 1), rand((1, 0), "int32", 2), 1])
_case("where_empty_scalar_condition", _attr("where"), lambda: [np.bool_(True), rand((0,), "float32", 2),
                                                               np.float32(2)])
_case("sin_list", lambda m: (lambda: m.numpy.sin([1.0])), lambda: [])
_case("add_list", lambda m: (lambda x: m.numpy.add(x, [1.0])), lambda: [rand((2,), "float32", 1)])
_case("add_string", lambda m: (lambda x: m.numpy.add(x, "a")), lambda: [rand((2,), "float32", 1)])
_case("add_out", lambda m: (lambda x: m.numpy.add(x, x, out=x)), lambda: [rand((2,), "float32", 1)])
_case("add_where", lambda m: (lambda x: m.numpy.add(x, x, where=x > 0)), lambda: [rand((2,), "float32", 1)])
_case("add_three_args", lambda m: (lambda x: m.numpy.add(x, x, x)), lambda: [rand((2,), "float32", 1)])
_case("modf_out", lambda m: (lambda x: m.numpy.modf(x, out=x)), lambda: [rand((2,), "float32", 1)])
_case("add_python_scalars", lambda m: (lambda: m.numpy.add(2, 0.25)), lambda: [])
_case("multiply_weak_f16", lambda m: (lambda x: m.numpy.multiply(x, 0.3)), lambda: [rand((2,), "float16", 1)])
_case("add_overflow_literal", lambda m: (lambda x: m.numpy.add(x, 300)), lambda: [rand((2,), "int8", 1)])
_case("add_complex_literal", lambda m: (lambda x: m.numpy.add(x, 1j)), lambda: [rand((2,), "float32", 1)])
_case("add_empty", _attr("add"), lambda: [np.zeros((0, 3), np.float32), np.zeros((3,), np.float32)])
_case("sin_empty", _attr("sin"), lambda: [np.zeros((0,), np.int32)])
_case("add_0d", _attr("add"), lambda: [np.float32(1.5), np.int32(2)])

# the ufunc objects' methods
_X23 = (lambda: [rand((2, 3), "float32", 1)])
_I23 = (lambda: [rand((2, 3), "int8", 1)])
_B23 = (lambda: [rand((2, 3), "bool", 1)])
for _name in ("add", "multiply", "maximum", "minimum", "logaddexp", "logical_and", "logical_or"):
    _case(f"{_name}_reduce", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a)), _X23)
    _case(f"{_name}_reduce_axis1_keepdims",
          lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, axis=1, keepdims=True)), _X23)
    _case(f"{_name}_reduce_none", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, axis=None)), _X23)
for _name in ("add", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor", "logical_xor", "maximum"):
    _case(f"{_name}_reduce_int8", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a)), _I23)
# logaddexp2.reduce is logaddexp.reduce's log-sum-exp of the operand times ln 2; both reduce in an inexact dtype and
# leave a dtype given unused; an initial value is combined with the unpromoted logaddexp
_XN = (lambda: [np.float32([[1.0, -np.inf, 3.0], [np.nan, 2.0, -1.0]])])
for _name in ("logaddexp", "logaddexp2"):
    _case(f"{_name}_reduce_int", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a)), _I23)
    _case(f"{_name}_reduce_bool", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, axis=1)), _B23)
    _case(f"{_name}_reduce_complex", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a)),
          lambda: [rand((2, 3), "complex64", 1)])
    _case(f"{_name}_reduce_dtype_int", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, dtype=np.int32)),
          _X23)
    _case(f"{_name}_reduce_where", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, axis=1, where=a > 0)),
          _X23)
    _case(f"{_name}_reduce_where_initial_keepdims", lambda m, n=_name: (
        lambda a: getattr(m.numpy, n).reduce(a, axis=None, keepdims=True, initial=1.0, where=a > 0)), _X23)
    _case(f"{_name}_reduce_tuple", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, axis=(0, 1))), _X23)
    _case(f"{_name}_reduce_nonfinite", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, axis=1)), _XN)
_case("logaddexp2_reduce_int_initial", lambda m: (lambda a: m.numpy.logaddexp2.reduce(a, axis=1, initial=2)), _X23)
# the logical and bitwise reductions with a dtype: the operand (made boolean, for a logical one) converted to it and
# reduced with the operation, which refuses a float dtype
_I23S = (lambda: [np.int32([[-2, -1, 0], [1, 2, 0]])])
for _name in ("logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor"):
    for _label, _dtype in (("f32", np.float32), ("i32", np.int32), ("u8", np.uint8), ("bool", np.bool_)):
        _case(f"{_name}_reduce_dtype_{_label}",
              lambda m, n=_name, d=_dtype: (lambda a: getattr(m.numpy, n).reduce(a, dtype=d)), _I23S)
    _case(f"{_name}_reduce_initial", lambda m, n=_name: (lambda a: getattr(m.numpy, n).reduce(a, initial=True)),
          _B23)
    _case(f"{_name}_reduce_dtype_keepdims_where", lambda m, n=_name: (
        lambda a: getattr(m.numpy, n).reduce(a, axis=None, dtype=np.int8, keepdims=True, where=a != 0)), _I23S)
    _case(f"{_name}_accumulate_dtype_f32",
          lambda m, n=_name: (lambda a: getattr(m.numpy, n).accumulate(a, dtype=np.float32)), _I23S)
_case("logical_xor_reduce_complex", lambda m: (lambda a: m.numpy.logical_xor.reduce(a)),
      lambda: [rand((2, 3), "complex64", 1)])
# the scanned methods convert the start and each element read to the dtype (a result of another dtype is promoted
# with the start's, which the scan's carry must keep)
for _name in ("logaddexp", "logaddexp2", "subtract", "maximum", "logical_and"):
    for _label, _dtype in (("f16", np.float16), ("i32", np.int32)):
        _case(f"{_name}_accumulate_dtype_{_label}",
              lambda m, n=_name, d=_dtype: (lambda a: getattr(m.numpy, n).accumulate(a, dtype=d)), _X23)
for _label, _dtype in (("f16", np.float16), ("bool", np.bool_)):
    _case(f"subtract_reduce_dtype_{_label}", lambda m, d=_dtype: (lambda a: m.numpy.subtract.reduce(a, dtype=d)),
          _I23S)
_case("subtract_reduce_initial_dtype", lambda m: (lambda a: m.numpy.subtract.reduce(a, dtype=np.float16,
                                                                                     initial=1)), _I23S)
_case("add_reduce_bool", lambda m: (lambda a: m.numpy.add.reduce(a)), _B23)
_case("add_reduce_dtype", lambda m: (lambda a: m.numpy.add.reduce(a, dtype=np.int16)), _I23)
_case("add_reduce_axes_tuple", lambda m: (lambda a: m.numpy.add.reduce(a, axis=(0, 1))), _X23)
_case("add_reduce_initial", lambda m: (lambda a: m.numpy.add.reduce(a, initial=2.0)), _X23)
_case("add_reduce_where", lambda m: (lambda a: m.numpy.add.reduce(a, where=a > 0)), _X23)
_case("add_reduce_empty", lambda m: (lambda a: m.numpy.add.reduce(a)), lambda: [np.zeros((0, 2), np.float32)])
_case("maximum_reduce_empty", lambda m: (lambda a: m.numpy.maximum.reduce(a)),
      lambda: [np.zeros((0,), np.float32)])
_case("maximum_reduce_initial", lambda m: (lambda a: m.numpy.maximum.reduce(a, initial=0.5)), _X23)
_case("maximum_reduce_where_initial", lambda m: (lambda a: m.numpy.maximum.reduce(a, where=a > 0, initial=0.0)),
      _X23)
_case("maximum_reduce_where", lambda m: (lambda a: m.numpy.maximum.reduce(a, where=a > 0)), _X23)
_case("bitwise_and_reduce_float", lambda m: (lambda a: m.numpy.bitwise_and.reduce(a)), _X23)
_case("add_reduce_axis_out_of_bounds", lambda m: (lambda a: m.numpy.add.reduce(a, axis=3)), _X23)
_case("negative_reduce", lambda m: (lambda a: m.numpy.negative.reduce(a)), _X23)
_case("negative_outer", lambda m: (lambda a: m.numpy.negative.outer(a, a)), _X23)
_case("subtract_reduce", lambda m: (lambda a: m.numpy.subtract.reduce(a)), _X23)
_case("subtract_reduce_initial", lambda m: (lambda a: m.numpy.subtract.reduce(a, initial=1.0)), _X23)
_case("subtract_reduce_where", lambda m: (lambda a: m.numpy.subtract.reduce(a, where=a > 0)), _X23)
_case("subtract_reduce_empty", lambda m: (lambda a: m.numpy.subtract.reduce(a)),
      lambda: [np.zeros((0, 2), np.float32)])
_case("subtract_reduce_tuple", lambda m: (lambda a: m.numpy.subtract.reduce(a, axis=(0, 1))), _X23)
for _name in ("add", "multiply", "subtract", "maximum", "logaddexp", "logical_and", "bitwise_xor"):
    _make = _I23 if _name == "bitwise_xor" else _X23
    _case(f"{_name}_accumulate", lambda m, n=_name: (lambda a: getattr(m.numpy, n).accumulate(a)), _make)
    _case(f"{_name}_accumulate_axis1", lambda m, n=_name: (lambda a: getattr(m.numpy, n).accumulate(a, axis=1)),
          _make)
    _case(f"{_name}_outer", lambda m, n=_name: (lambda a, b: getattr(m.numpy, n).outer(a, b)),
          lambda n=_name: [rand((2, 3), "int8" if n == "bitwise_xor" else "float32", 1),
                           rand((2,), "int8" if n == "bitwise_xor" else "float32", 2)])
_case("add_accumulate_int8", lambda m: (lambda a: m.numpy.add.accumulate(a)), _I23)
_case("add_accumulate_bool", lambda m: (lambda a: m.numpy.add.accumulate(a)), _B23)
_case("add_accumulate_dtype", lambda m: (lambda a: m.numpy.add.accumulate(a, dtype=np.float32)), _I23)
_case("add_accumulate_none", lambda m: (lambda a: m.numpy.add.accumulate(a, axis=None)), _X23)
_case("add_accumulate_out", lambda m: (lambda a: m.numpy.add.accumulate(a, out=a)), _X23)
_case("add_outer_scalar", lambda m: (lambda a: m.numpy.add.outer(a, 2.0)), lambda: [np.float32(1)])
for _name in ("add", "subtract", "multiply", "maximum", "minimum", "logaddexp", "bitwise_or"):
    _case(f"{_name}_at", lambda m, n=_name: (lambda a: getattr(m.numpy, n).at(a, np.array([0, 0, 2]), 2,
                                                                             inplace=False)),
          lambda n=_name: [rand((4,), "int32" if n == "bitwise_or" else "float32", 1)])
_case("negative_at", lambda m: (lambda a: m.numpy.negative.at(a, np.array([0, 2]), inplace=False)),
      lambda: [rand((4,), "float32", 1)])
_case("add_at_array_values", lambda m: (lambda a, b: m.numpy.add.at(a, np.array([1, 1]), b, inplace=False)),
      lambda: [rand((3,), "float32", 1), rand((2,), "float32", 2)])
_case("add_at_inplace", lambda m: (lambda a: m.numpy.add.at(a, np.array([0]), 1.0)),
      lambda: [rand((3,), "float32", 1)])
_case("add_at_missing_b", lambda m: (lambda a: m.numpy.add.at(a, np.array([0]), inplace=False)),
      lambda: [rand((3,), "float32", 1)])
_case("add_reduceat", lambda m: (lambda a: m.numpy.add.reduceat(a, np.array([0, 4, 1, 5]))),
      lambda: [rand((8,), "float32", 1)])
_case("maximum_reduceat_2d", lambda m: (lambda a: m.numpy.maximum.reduceat(a, np.array([0, 1]), axis=1)),
      lambda: [rand((2, 3), "float32", 1)])

# a user's ufunc: its function vectorized under jit[name=_call_vectorized], its methods by scans
def _fma(m):
    return m.numpy.ufunc(lambda x, y: x * y + 1, 2, 1, name="fma")


_case("user_ufunc_call", lambda m: (lambda a, b: _fma(m)(a, b)), lambda: [rand((3,), "float32", 1),
                                                                          rand((3,), "float32", 2)])
_case("user_ufunc_call_broadcast", lambda m: (lambda a: _fma(m)(a, 2.0)), lambda: [rand((2, 3), "float32", 1)])
_case("user_ufunc_reduce", lambda m: (lambda a: _fma(m).reduce(a)), lambda: [rand((3,), "float32", 1)])
_case("user_ufunc_accumulate", lambda m: (lambda a: _fma(m).accumulate(a)), lambda: [rand((3,), "float32", 1)])
_case("user_ufunc_outer", lambda m: (lambda a, b: _fma(m).outer(a, b)), lambda: [rand((2,), "float32", 1),
                                                                                 rand((3,), "float32", 2)])

# transformations
_case("jit_add", lambda m: m.jit(m.numpy.add), lambda: [rand((3,), "float32", 1), rand((3,), "float32", 2)])
_case("jit_floor_divide_int", lambda m: m.jit(m.numpy.floor_divide), _INT_SIGNS)
_case("vmap_hypot", lambda m: m.vmap(m.numpy.hypot), lambda: [rand((2, 3), "float32", 1), rand((2, 3), "float32", 2)])
_case("vmap_where", lambda m: m.vmap(m.numpy.where, in_axes=(0, 0, None)),
      lambda: [rand((2, 3), "bool", 1), rand((2, 3), "float32", 2), np.float32(0)])
_case("vmap_isclose", lambda m: m.vmap(m.numpy.isclose), lambda: [rand((2, 3), "float32", 1),
                                                                  rand((2, 3), "float32", 1)])
_case("vmap_add_reduce", lambda m: m.vmap(lambda a: m.numpy.add.reduce(a)), _X23)
_case("vmap_clip", lambda m: m.vmap(lambda a, lo: m.numpy.clip(a, lo, 1.0)),
      lambda: [rand((2, 3), "float32", 1), np.float32([0.0, 0.5])])
_GRAD_AT = {
    "abs": lambda: [np.float32(0.0)],
    "sqrt": lambda: [np.float32(4.0)],
    "sinc": lambda: [np.float32(0.0)],
    "sinc_nonzero": lambda: [np.float32(0.7)],
    "i0": lambda: [np.float32(0.5)],
    "sign": lambda: [np.float32(0.0)],
    "round": lambda: [np.float32(1.3)],
    "trunc": lambda: [np.float32(1.3)],
    "log10": lambda: [np.float32(2.0)],
    "log2": lambda: [np.float32(2.0)],
    "deg2rad": lambda: [np.float32(2.0)],
    "cbrt": lambda: [np.float32(8.0)],
    "reciprocal": lambda: [np.float32(2.0)],
    "fabs": lambda: [np.float32(-2.0)],
    "nan_to_num": lambda: [np.float32(2.0)],
    "spacing": lambda: [np.float32(2.0)],
    "arccosh": lambda: [np.float32(2.0)],
}
for _name, _args in _GRAD_AT.items():
    _fn_name = _name.removesuffix("_nonzero")
    _case(f"grad_{_name}", lambda m, n=_fn_name: m.grad(lambda x: getattr(m.numpy, n)(x)), _args)
_case("grad_frexp_mantissa", lambda m: m.grad(lambda x: m.numpy.frexp(x)[0]), lambda: [np.float32(3.0)])
_case("grad_modf", lambda m: m.grad(lambda x: m.numpy.modf(x)[0]), lambda: [np.float32(3.5)])
_BINARY_GRAD_AT = {
    "maximum_tie": ("maximum", lambda: [np.float32(1.0), np.float32(1.0)]),
    "minimum_tie": ("minimum", lambda: [np.float32(1.0), np.float32(1.0)]),
    "fmax_tie": ("fmax", lambda: [np.float32(1.0), np.float32(1.0)]),
    "fmin": ("fmin", lambda: [np.float32(1.0), np.float32(2.0)]),
    "hypot": ("hypot", lambda: [np.float32(3.0), np.float32(4.0)]),
    "hypot_zero": ("hypot", lambda: [np.float32(0.0), np.float32(0.0)]),
    "logaddexp": ("logaddexp", lambda: [np.float32(1.0), np.float32(2.0)]),
    "logaddexp_equal": ("logaddexp", lambda: [np.float32(1.0), np.float32(1.0)]),
    "logaddexp_neginf": ("logaddexp", lambda: [np.float32(-np.inf), np.float32(-np.inf)]),
    "logaddexp2": ("logaddexp2", lambda: [np.float32(1.0), np.float32(2.0)]),
    "arctan2": ("arctan2", lambda: [np.float32(1.0), np.float32(2.0)]),
    "power": ("power", lambda: [np.float32(1.5), np.float32(2.5)]),
    "copysign": ("copysign", lambda: [np.float32(1.5), np.float32(-2.5)]),
    "remainder": ("remainder", lambda: [np.float32(5.5), np.float32(2.0)]),
    "fmod": ("fmod", lambda: [np.float32(5.5), np.float32(2.0)]),
    "floor_divide": ("floor_divide", lambda: [np.float32(5.5), np.float32(2.0)]),
    "heaviside": ("heaviside", lambda: [np.float32(0.0), np.float32(0.5)]),
    "divide": ("divide", lambda: [np.float32(1.5), np.float32(2.5)]),
    "ldexp": ("ldexp", lambda: [np.float32(1.5), np.int32(2)]),
    "float_power": ("float_power", lambda: [np.float32(1.5), np.float32(2.5)]),
}
for _label, (_name, _args) in _BINARY_GRAD_AT.items():
    _case(f"grad_{_label}", lambda m, n=_name: m.grad(lambda x, y: getattr(m.numpy, n)(x, y)), _args)
    if _name not in ("ldexp",):
        _case(f"grad1_{_label}", lambda m, n=_name: m.grad(lambda x, y: getattr(m.numpy, n)(x, y), argnums=1),
              _args)
for _label, _bounds in {"below": -2.0, "lower": -1.0, "inside": 0.5, "upper": 1.0, "above": 2.0}.items():
    _case(f"grad_clip_{_label}", lambda m: m.grad(lambda x: m.numpy.clip(x, -1.0, 1.0)),
          lambda b=_bounds: [np.float32(b)])
_case("grad_clip_bounds", lambda m: m.grad(lambda lo, x: m.numpy.clip(x, lo, 1.0)),
      lambda: [np.float32(-1.0), np.float32(-1.0)])
_case("grad_where", lambda m: m.grad(lambda x: m.numpy.where(x > 0, x * x, -x)), lambda: [np.float32(1.5)])
_case("grad_logaddexp_reduce", lambda m: m.grad(lambda a: m.numpy.logaddexp.reduce(a)),
      lambda: [rand((3,), "float32", 1)])
_case("grad_maximum_reduce", lambda m: m.grad(lambda a: m.numpy.maximum.reduce(a)),
      lambda: [np.float32([1.0, 3.0, 3.0])])

if __name__ == "__main__":
    jnp_golden.write(CASES, "ufuncs_golden.json")
