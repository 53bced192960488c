"""Write elementwise_golden.json: what lax's elementwise and special functions return, stage and reject.

Run with the module whose behaviour is the reference, by name:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_elementwise_golden.py jax

The module must offer ``lax`` (with the elementwise and special functions) and ``make_jaxpr``.
Values are stored as raw bit patterns so that NaN payloads, -0.0 and bfloat16 survive JSON.
"""

import enum
import importlib
import itertools
import json
import pathlib
import sys

import ml_dtypes
import numpy as np

FLOATS = ["float16", "bfloat16", "float32"]
SIGNED = ["int8", "int16", "int32"]
UNSIGNED = ["uint8", "uint32"]
INTS = SIGNED + UNSIGNED
BOOL = ["bool"]
COMPLEX = ["complex64"]
INEXACT = FLOATS + COMPLEX
NUMBER = INTS + INEXACT
ANY = BOOL + NUMBER
ORDERED = BOOL + INTS + FLOATS

# op name -> (arity, dtypes the value table covers, kwargs variants)
OPS = {
    "add": (2, NUMBER), "sub": (2, NUMBER), "mul": (2, NUMBER), "div": (2, NUMBER), "rem": (2, INTS + FLOATS),
    "pow": (2, INEXACT), "neg": (1, NUMBER), "sign": (1, NUMBER), "floor": (1, FLOATS), "ceil": (1, FLOATS),
    "round": (1, FLOATS), "nextafter": (2, FLOATS), "is_finite": (1, FLOATS),
    "exp": (1, INEXACT), "exp2": (1, INEXACT), "log": (1, INEXACT), "log1p": (1, INEXACT), "expm1": (1, INEXACT),
    "tanh": (1, INEXACT), "logistic": (1, INEXACT), "sin": (1, INEXACT), "cos": (1, INEXACT), "tan": (1, INEXACT),
    "asin": (1, INEXACT), "acos": (1, INEXACT), "atan": (1, INEXACT), "atan2": (2, INEXACT),
    "sinh": (1, INEXACT), "cosh": (1, INEXACT), "asinh": (1, INEXACT), "acosh": (1, INEXACT),
    "atanh": (1, INEXACT), "sqrt": (1, INEXACT), "rsqrt": (1, INEXACT), "cbrt": (1, FLOATS),
    "abs": (1, SIGNED + INEXACT), "max": (2, ANY), "min": (2, ANY), "real": (1, COMPLEX), "imag": (1, COMPLEX),
    "complex": (2, ["float32"]), "conj": (1, ["float32", "complex64"]), "clz": (1, INTS),
    "population_count": (1, INTS), "bitwise_not": (1, BOOL + INTS), "bitwise_and": (2, BOOL + INTS),
    "bitwise_or": (2, BOOL + INTS), "bitwise_xor": (2, BOOL + INTS), "shift_left": (2, INTS),
    "shift_right_logical": (2, INTS), "shift_right_arithmetic": (2, INTS), "eq": (2, ANY), "ne": (2, ANY),
    "lt": (2, ORDERED), "le": (2, ORDERED), "gt": (2, ORDERED), "ge": (2, ORDERED), "square": (1, NUMBER),
    "reciprocal": (1, INEXACT),
    "erf": (1, FLOATS), "erfc": (1, FLOATS), "erf_inv": (1, FLOATS), "lgamma": (1, FLOATS),
    "digamma": (1, FLOATS), "bessel_i0e": (1, FLOATS), "bessel_i1e": (1, FLOATS),
    "igamma": (2, FLOATS), "igammac": (2, FLOATS), "igamma_grad_a": (2, ["float32"]),
    "random_gamma_grad": (2, ["float32"]), "polygamma": (2, ["float32"]), "zeta": (2, ["float32"]),
}
EXTRA_CALLS = [  # (op, dtype, kwargs)
    ("round", "float32", {"rounding_method": 1}), ("round", "float16", {"rounding_method": 1}),
    ("round", "bfloat16", {"rounding_method": 1}),
] + [("integer_pow", dt, {"y": y}) for dt in NUMBER for y in (0, 1, 2, 3, 5, 8, 13)] + [
    ("integer_pow", dt, {"y": y}) for dt in INEXACT for y in (-1, -2, -3)]

FLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 3.0, 7.25, -100.0, 1e-3, 1e-30,
                1e30, 60000.0, np.inf, -np.inf, np.nan, 1e-40]
BINARY_FLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.0, 7.25, 1e-3, 1e30, np.inf, -np.inf, np.nan]
INT_VALUES = [0, 1, -1, 2, -2, 3, 7, -7, 100, -100, 31, 32, 33, 8, 2**31 - 1, -2**31, 2**15 - 1, 2**7, 255, 65535]
BINARY_INT_VALUES = [0, 1, -1, 2, -3, 7, 8, 31, 32, 33, 100, 2**31 - 1, -2**31, 255]
COMPLEX_PARTS = [0.0, -0.0, 1.0, -1.5, 0.5, 3.0, np.inf, np.nan]
BINARY_COMPLEX = [complex(r, i) for r in (0.0, 1.0, -2.0, np.inf) for i in (0.0, -1.0, 0.5)] + [complex(np.nan, 1)]
GAMMA_A = [0.0, 1e-3, 0.1, 0.5, 1.0, 2.5, 10.0, 50.0, 300.0, -1.0, np.inf, np.nan]
GAMMA_X = [0.0, 1e-3, 0.1, 0.5, 1.0, 3.0, 10.0, 60.0, 400.0, -1.0, np.inf, np.nan]
SPECIAL_1 = [0.0, -0.0, 1e-3, 0.1, 0.5, -0.5, 0.999, -0.999, 1.0, -1.0, 1.5, 2.0, -2.5, -3.0, 3.7, 10.0, 30.0,
             -30.0, 200.0, np.inf, -np.inf, np.nan]
POLYGAMMA_M = [0.0, 1.0, 2.0, 3.0, 1.5, -1.0]
ZETA_X = [1.0, 1.5, 2.0, 3.0, 10.0, 0.5, np.inf]
ZETA_Q = [0.5, 1.0, 2.0, 10.0, -1.0, 0.0, -1.5]


def np_dtype(name):
    return np.dtype(getattr(ml_dtypes, name, None) or name)


def encode(x):
    x = np.asarray(x)
    bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    return {"dtype": x.dtype.name, "shape": list(x.shape), "bits": x.reshape(-1).view(bits).tolist()}


def as_dtype(values, dt):
    dt = np_dtype(dt)
    if dt == np.bool_:
        return np.array([False, True])
    if np.issubdtype(dt, np.integer):
        return np.array(values, np.int64).astype(dt)
    with np.errstate(over="ignore"):
        return np.array(values, np.float64 if dt.kind == "f" or dt == ml_dtypes.bfloat16 else np.complex128
                        ).astype(dt)


def unary_inputs(op, dt):
    if op in ("erf", "erfc", "erf_inv", "lgamma", "digamma", "bessel_i0e", "bessel_i1e"):
        return [as_dtype(SPECIAL_1, dt)]
    if dt == "complex64":
        return [as_dtype([complex(r, i) for r in COMPLEX_PARTS for i in COMPLEX_PARTS], dt)]
    if dt in INTS or dt == "bool":
        return [as_dtype(INT_VALUES, dt)]
    return [as_dtype(FLOAT_VALUES, dt)]


def binary_inputs(op, dt):
    if op in ("igamma", "igammac", "igamma_grad_a", "random_gamma_grad"):
        first, second = GAMMA_A, GAMMA_X
    elif op == "polygamma":
        first, second = POLYGAMMA_M, SPECIAL_1
    elif op == "zeta":
        first, second = ZETA_X, ZETA_Q
    elif dt == "complex64":
        first = second = BINARY_COMPLEX
    elif dt in INTS:
        first = second = BINARY_INT_VALUES
    elif dt == "bool":
        first = second = [False, True]
    else:
        first = second = BINARY_FLOAT_VALUES
    pairs = list(itertools.product(first, second))
    return [as_dtype([p[0] for p in pairs], dt), as_dtype([p[1] for p in pairs], dt)]


def norm_param(v):
    if isinstance(v, enum.Enum):
        return f"{type(v).__name__}.{v.name}"
    if isinstance(v, np.dtype):
        return f"dtype:{v.name}"
    if isinstance(v, type):
        return f"type:{np.dtype(v).name}"
    if isinstance(v, tuple):
        return [norm_param(e) for e in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return f"<{type(v).__name__}>"


# Abstract-evaluation cases: op, argument specs ("f32[2,3]", "*f32" for a weak Python scalar), kwargs.
PY_SCALARS = {"f32": 1.5, "i32": 3, "bool": True, "c64": 1j}
SHORT = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "i8": "int8", "i32": "int32", "u8": "uint8",
         "u32": "uint32", "bool": "bool", "c64": "complex64"}
AVAL_CASES = (
    [(op, ["f32[2,3]"] * OPS[op][0], {}) for op in OPS]
    + [(op, ["*f32"] * OPS[op][0], {}) for op in OPS]
    + [(op, [s] * OPS[op][0], {}) for op in OPS for s in ("i32[3]", "bool[]", "c64[1,2]", "u8[4]", "bf16[2]")]
    + [(op, ["f32[2,3]", "f32[1,3]"], {}) for op in OPS if OPS[op][0] == 2]
    + [(op, ["f32[3]", "*f32"], {}) for op in ("add", "max", "eq", "atan2", "pow", "nextafter", "igamma")]
    + [(op, ["f32[3]", "f32[]"], {}) for op in ("add", "lt", "complex")]
    + [(op, ["f32[3]", "f32[2]"], {}) for op in ("add", "sub", "eq", "pow")]
    + [(op, ["f32[3]", "f32[1,3]"], {}) for op in ("add", "mul", "ge")]
    + [(op, ["f32[3]", "f16[3]"], {}) for op in ("add", "rem", "max", "eq", "atan2", "pow", "igamma", "complex")]
    + [(op, ["f32[3]", "i32[3]"], {}) for op in ("add", "shift_left", "pow")]
    + [("pow", a, {}) for a in (["f32[2]", "*i32"], ["*f32", "i32[2]"], ["c64[2]", "i8[2]"], ["f16[]", "u8[]"],
                                ["i32[]", "i32[]"], ["c64[]", "f32[]"], ["*f32", "*f32"], ["*c64", "*i32"])]
    + [("integer_pow", [s], {"y": y}) for s in ("f32[3]", "i32[2]", "*f32", "bool[]", "c64[]") for y in (0, 1, 3, -2)]
    + [("round", [s], {"rounding_method": m}) for s in ("f32[3]", "*f32", "i32[]") for m in (0, 1)]
    + [("mul", ["i8[3]", "i8[3]"], {"out_dtype": "int32"}), ("mul", ["f32[]", "f16[]"], {"out_dtype": "float32"}),
       ("mul", ["*f32", "*f32"], {"out_dtype": "float16"})]
    + [("complex", a, {}) for a in (["f32[2]", "*f32"], ["f16[2]", "f16[2]"], ["*f32", "*f32"])]
    + [(op, [s], {}) for op in ("conj", "real", "imag", "abs") for s in ("f16[]", "*c64", "*f32", "i8[2]")]
    + [(op, [s], {}) for op in ("exp", "sin", "tanh") for s in ("f16[2]", "bf16[]")]
    + [(op, ["f32[2]"], {"accuracy": None}) for op in ("exp", "log", "sqrt", "cbrt", "tan", "logistic")]
)


def spec_arg(spec):
    if spec.startswith("*"):
        return PY_SCALARS[spec[1:]]
    short, _, dims = spec.partition("[")
    shape = tuple(int(d) for d in dims.rstrip("]").split(",") if d)
    return np.zeros(shape, np_dtype(SHORT[short]))


def aval_case(mod, op, specs, kwargs):
    fn = getattr(mod.lax, op)
    args = [spec_arg(s) for s in specs]
    try:
        closed = mod.make_jaxpr(lambda *xs: fn(*xs, **kwargs))(*args)
    except Exception as err:  # noqa: BLE001 - the error is the golden fact
        return {"error": type(err).__name__, "message": str(err).split("\n")[0]}
    out = closed.jaxpr.outvars[0].aval
    return {"eqns": [[e.primitive.name, {k: norm_param(v) for k, v in e.params.items()}] for e in closed.eqns],
            "out": [list(out.shape), np.dtype(out.dtype).name, bool(out.weak_type)]}


def value_case(mod, op, dt, kwargs):
    arity = 1 if op == "integer_pow" else OPS[op][0]
    inputs = unary_inputs(op, dt) if arity == 1 else binary_inputs(op, dt)
    out = np.asarray(getattr(mod.lax, op)(*inputs, **kwargs))
    return {"op": op, "kwargs": kwargs, "inputs": [encode(x) for x in inputs], "output": encode(out)}


def main(module_name):
    mod = importlib.import_module(module_name)
    mod.lax = importlib.import_module(f"{module_name}.lax")
    values = [value_case(mod, op, dt, {}) for op, (_, dts) in OPS.items() for dt in dts]
    values += [value_case(mod, op, dt, kw) for op, dt, kw in EXTRA_CALLS]
    avals = [{"op": op, "args": specs, "kwargs": kw, "result": aval_case(mod, op, specs, kw)}
             for op, specs, kw in AVAL_CASES]
    path = pathlib.Path(__file__).with_name("elementwise_golden.json")
    path.write_text(json.dumps({"values": values, "avals": avals}, separators=(",", ":")))
    print(f"wrote {path} ({len(values)} value cases, {len(avals)} aval cases)")


if __name__ == "__main__":
    main(sys.argv[1])
