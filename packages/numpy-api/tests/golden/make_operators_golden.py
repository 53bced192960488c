"""Golden cases for the Python operators of arrays and tracers (routed through jnp), recorded with JAX 0.10.2:

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_operators_golden.py jax
"""

import operator

import jnp_golden
import numpy as np
from jnp_golden import rand

BINARY = {"add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
          "floordiv": operator.floordiv, "mod": operator.mod, "pow": operator.pow, "divmod": divmod,
          "and": operator.and_, "or": operator.or_, "xor": operator.xor, "lshift": operator.lshift,
          "rshift": operator.rshift, "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
          "gt": operator.gt, "ge": operator.ge, "matmul": operator.matmul}
UNARY = {"neg": operator.neg, "pos": operator.pos, "abs": abs, "invert": operator.invert, "round": round,
         "round_digits": lambda x: round(x, 1)}

OPERANDS = {
    "f32": lambda: [rand((3,), "float32", 1), rand((3,), "float32", 2)],
    "i32": lambda: [rand((3,), "int32", 1), rand((3,), "int32", 2) % 3 + 1],
    "u8": lambda: [rand((3,), "uint8", 1), rand((3,), "uint8", 2) % 3 + 1],
    "bool": lambda: [rand((3,), "bool", 1), rand((3,), "bool", 2)],
    "c64": lambda: [rand((3,), "complex64", 1), rand((3,), "complex64", 2)],
    "i8_f16": lambda: [rand((3,), "int8", 1), rand((3,), "float16", 2)],
    "bcast": lambda: [rand((2, 3), "float32", 1), rand((3,), "float32", 2)],
}
SCALARS = {"int": 2, "float": 0.3, "bool": True, "complex": 1j, "np_float64": np.float64(2.5), "np_int8": np.int8(3)}

CASES = {}


def _case(name, fn_getter, args_maker):
    CASES[name] = lambda m: (fn_getter(m), args_maker())


for _op_name, _op in BINARY.items():
    for _kind, _maker in OPERANDS.items():
        if _op_name == "matmul" and _kind == "bcast":
            _maker = (lambda: [rand((2, 3), "float32", 1), rand((3, 2), "float32", 2)])
        # the left operand made an array, so that the eager call runs the array's operator (not NumPy's)
        _case(f"{_op_name}_{_kind}", lambda m, op=_op: (lambda x, y: op(m.numpy.asarray(x), y)), _maker)
    for _scalar_name, _scalar in SCALARS.items():
        if _op_name == "matmul":
            continue
        _case(f"{_op_name}_f32_{_scalar_name}", lambda m, op=_op, s=_scalar: (lambda x: op(x, s)),
              lambda: [rand((3,), "float32", 1)])
        _case(f"r{_op_name}_f32_{_scalar_name}", lambda m, op=_op, s=_scalar: (lambda x: op(s, x)),
              lambda: [rand((3,), "float32", 1)])
        _case(f"{_op_name}_i32_{_scalar_name}", lambda m, op=_op, s=_scalar: (lambda x: op(x, s)),
              lambda: [rand((3,), "int32", 1) % 4 + 1])
        _case(f"r{_op_name}_i32_{_scalar_name}", lambda m, op=_op, s=_scalar: (lambda x: op(s, x)),
              lambda: [rand((3,), "int32", 1) % 4 + 1])
for _op_name, _op in UNARY.items():
    for _kind in ("float32", "int32", "bool", "complex64", "uint8"):
        _case(f"{_op_name}_{_kind}", lambda m, op=_op: (lambda x: op(m.numpy.asarray(x))),
              lambda k=_kind: [rand((3,), k, 1)])

_case("numpy_array_left", lambda m: (lambda x: np.ones(3, np.float32) + x), lambda: [rand((3,), "float32", 1)])
_case("numpy_array_right", lambda m: (lambda x: x * np.arange(3)), lambda: [rand((3,), "float32", 1)])
_case("add_list", lambda m: (lambda x: x + [1.0]), lambda: [rand((2,), "float32", 1)])
_case("radd_tuple", lambda m: (lambda x: (1.0,) + x), lambda: [rand((2,), "float32", 1)])
_case("eq_string", lambda m: (lambda x: x == "a"), lambda: [rand((2,), "float32", 1)])
_case("ne_none", lambda m: (lambda x: x != None), lambda: [rand((2,), "float32", 1)])  # noqa: E711
_case("pow_negative_int", lambda m: (lambda x: x ** -2), lambda: [rand((2,), "int32", 1)])
_case("pow_bool_exponent", lambda m: (lambda x: x ** True), lambda: [rand((2,), "int32", 1)])
_case("matmul_scalar", lambda m: (lambda x: x @ 2.0), lambda: [rand((2,), "float32", 1)])
_case("chain", lambda m: (lambda x, y: (x * 2 + y) / 3 - x ** 2), lambda: [rand((3,), "float32", 1),
                                                                           rand((3,), "float32", 2)])
_case("jit_operators", lambda m: m.jit(lambda x, y: x // y + x % y), lambda: [rand((3,), "int32", 1),
                                                                              rand((3,), "int32", 2) % 3 + 1])
_case("vmap_operators", lambda m: m.vmap(lambda x: x * 0.5 + 1), lambda: [rand((2, 3), "float32", 1)])
_case("grad_operators", lambda m: m.grad(lambda x: x * x / 2.0 - abs(x) + x ** 3), lambda: [np.float32(1.5)])
_case("grad_abs_at_zero", lambda m: m.grad(lambda x: abs(x)), lambda: [np.float32(0.0)])

if __name__ == "__main__":
    jnp_golden.write(CASES, "operators_golden.json")
