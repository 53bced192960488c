"""Golden table of result dtypes and weak types of jnp functions over a grid of input dtypes, recorded with JAX 0.10.2
(x64 off, then on):

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_result_dtypes_golden.py jax

Only ``eval_shape`` runs, so a record is the short dtype of each result (``"f32"``; ``"f32*"`` when weakly typed;
several results joined by ``,``) or the error's type (``"!TypeError"``); a function's row is its records in grid
order, separated by spaces. The grid keys name array dtypes or Python
scalars (``py_bool``, ``py_int``, ``py_float``, ``py_complex``), which enter weakly typed as JAX reads them.
test_result_dtypes.py replays the table with jaxle.
"""

from __future__ import annotations

import importlib
import json
import sys

import jnp_golden
import make_ufuncs_golden

PYTHON_SCALARS = {"py_bool": True, "py_int": 1, "py_float": 1.0, "py_complex": 1j}
ARRAY_DTYPES = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "float16", "bfloat16", "float32",
                "float64", "complex64"]
UNARY_GRID = ARRAY_DTYPES + list(PYTHON_SCALARS)
BINARY_GRID = ["bool", "uint8", "int32", "float16", "bfloat16", "float32", "complex64", "py_int", "py_float",
               "py_complex"]


def operand(key: str, shape: tuple = (2,)):
    """The grid entry ``key`` as a NumPy array of ``shape`` or as its Python scalar."""
    if key in PYTHON_SCALARS:
        return PYTHON_SCALARS[key]
    return jnp_golden.rand(shape, key, 1)


def _method(name: str, *extra, **kwargs):
    return lambda jnp, *xs: getattr(jnp, name)(*xs, *extra, **kwargs)


# name -> (arity, shape of array operands, caller(jnp, *operands)); arity 1 walks UNARY_GRID, 2 every pair of
# BINARY_GRID. Names with a suffix after ":" are variants of one function.
FUNCTIONS: dict = {}
for _name in make_ufuncs_golden.UNARY:
    FUNCTIONS[_name] = (1, (2,), _method(_name))
for _name in make_ufuncs_golden.BINARY:
    FUNCTIONS[_name] = (2, (2,), _method(_name))
FUNCTIONS.update({
    "clip": (1, (2,), _method("clip", 0, 1)),
    "clip:min": (2, (2,), lambda jnp, x, lo: jnp.clip(x, lo)),
    "clip:max": (2, (2,), lambda jnp, x, hi: jnp.clip(x, max=hi)),
    "where": (2, (2,), lambda jnp, x, y: jnp.where(jnp.array([True, False]), x, y)),
    "where:scalar_bool": (2, (2,), lambda jnp, x, y: jnp.where(True, x, y)),
    "isclose": (2, (2,), _method("isclose")),
    "allclose": (2, (2,), _method("allclose")),
    "array_equal": (2, (2,), _method("array_equal")),
    "array_equiv": (2, (2,), _method("array_equiv")),
    "nan_to_num": (1, (2,), _method("nan_to_num")),
    "round:decimals": (1, (2,), _method("round", 1)),
    "real_if_close": (1, (2,), _method("real_if_close")),
    "conjugate": (1, (2,), _method("conjugate")),
})
for _name in ["sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "argmin", "argmax", "all", "any",
              "ptp", "count_nonzero", "median", "average", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
              "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmedian", "cumsum", "cumprod", "cumulative_sum",
              "cumulative_prod", "nancumsum", "nancumprod"]:
    FUNCTIONS[_name] = (1, (2, 2), _method(_name))
    FUNCTIONS[f"{_name}:axis"] = (1, (2, 2), _method(_name, axis=0))
for _name in ["sum", "prod", "mean", "var", "cumsum", "nansum"]:
    FUNCTIONS[f"{_name}:dtype_float32"] = (1, (2, 2), _method(_name, dtype="float32"))
for _name in ["percentile", "quantile", "nanpercentile", "nanquantile"]:
    FUNCTIONS[_name] = (2, (2,), _method(_name))
FUNCTIONS.update({
    "average:weights": (2, (2,), lambda jnp, x, w: jnp.average(x, weights=w)),
    "sum:initial": (2, (2,), lambda jnp, x, i: jnp.sum(x, initial=i)),
    "max:initial": (2, (2,), lambda jnp, x, i: jnp.max(x, initial=i)),
    "mean:where": (1, (2,), lambda jnp, x: jnp.mean(x, where=jnp.array([True, False]))),
    # products, polynomials, signals
    "dot": (2, (2,), _method("dot")),
    "vdot": (2, (2,), _method("vdot")),
    "vecdot": (2, (2,), _method("vecdot")),
    "inner": (2, (2,), _method("inner")),
    "outer": (2, (2,), _method("outer")),
    "matmul": (2, (2, 2), _method("matmul")),
    "matvec": (2, (2, 2), lambda jnp, a, b: jnp.matvec(a, b[0] if getattr(b, "ndim", 0) else b)),
    "tensordot": (2, (2, 2), _method("tensordot", 1)),
    "kron": (2, (2,), _method("kron")),
    "cross": (2, (3,), _method("cross")),
    "einsum": (2, (2,), lambda jnp, a, b: jnp.einsum("i,i->i", a, b)),
    "trace": (1, (2, 2), _method("trace")),
    "convolve": (2, (2,), _method("convolve")),
    "correlate": (2, (2,), _method("correlate")),
    "polyval": (2, (2,), _method("polyval")),
    "polyadd": (2, (2,), _method("polyadd")),
    "polymul": (2, (2,), _method("polymul")),
    "polyder": (1, (3,), _method("polyder")),
    "polyint": (1, (3,), _method("polyint")),
    # manipulation
    "reshape": (1, (2, 2), _method("reshape", (4,))),
    "ravel": (1, (2, 2), _method("ravel")),
    "transpose": (1, (2, 2), _method("transpose")),
    "expand_dims": (1, (2,), _method("expand_dims", 0)),
    "flip": (1, (2,), _method("flip")),
    "roll": (1, (2,), _method("roll", 1)),
    "tile": (1, (2,), _method("tile", 2)),
    "repeat": (1, (2,), _method("repeat", 2)),
    "pad": (1, (2,), _method("pad", 1)),
    "pad:constant": (2, (2,), lambda jnp, x, c: jnp.pad(x, 1, constant_values=c)),
    "diagonal": (1, (2, 2), _method("diagonal")),
    "concatenate": (2, (2,), lambda jnp, a, b: jnp.concatenate([jnp.atleast_1d(a), jnp.atleast_1d(b)])),
    "stack": (2, (2,), lambda jnp, a, b: jnp.stack([a, b])),
    "hstack": (2, (2,), lambda jnp, a, b: jnp.hstack([a, b])),
    "append": (2, (2,), _method("append")),
    "insert": (2, (2,), lambda jnp, a, b: jnp.insert(a, 1, b)),
    "astype:float32": (1, (2,), lambda jnp, x: jnp.astype(jnp.asarray(x), "float32")),
    # sorting and sets
    "sort": (1, (2,), _method("sort")),
    "argsort": (1, (2,), _method("argsort")),
    "partition": (1, (3,), _method("partition", 1)),
    "searchsorted": (2, (2,), _method("searchsorted")),
    "isin": (2, (2,), _method("isin")),
    "unique:size": (1, (2,), _method("unique", size=2)),
    "union1d:size": (2, (2,), lambda jnp, a, b: jnp.union1d(a, b, size=2)),
    # statistics
    "diff": (1, (3,), _method("diff")),
    "ediff1d": (1, (3,), _method("ediff1d")),
    "gradient": (1, (3,), _method("gradient")),
    "cov": (1, (2, 3), _method("cov")),
    "corrcoef": (1, (2, 3), _method("corrcoef")),
    "trapezoid": (1, (3,), _method("trapezoid")),
    "interp": (2, (2,), lambda jnp, x, fp: jnp.interp(x, jnp.array([0.0, 1.0]), fp)),
    "digitize": (2, (2,), _method("digitize")),
    "histogram": (1, (3,), lambda jnp, x: jnp.histogram(x, bins=2, range=(0, 1))),
    "unwrap": (1, (3,), _method("unwrap")),
    # creation from traced or constant operands
    "array": (1, (2,), _method("array")),
    "asarray": (1, (2,), _method("asarray")),
    "zeros_like": (1, (2,), _method("zeros_like")),
    "ones_like": (1, (2,), _method("ones_like")),
    "full_like": (2, (2,), _method("full_like")),
    "full": (1, (2,), lambda jnp, x: jnp.full((2,), x)),
    "atleast_1d": (1, (2,), _method("atleast_1d")),
    "copy": (1, (2,), _method("copy")),
})

# Creation from Python scalars with dtype=None: the grid entry is a constant the function closes over.
CONSTANT_FUNCTIONS: dict = {
    "array": lambda jnp, c: jnp.array(c),
    "array:list": lambda jnp, c: jnp.array([c, c]),
    "asarray": lambda jnp, c: jnp.asarray(c),
    "full": lambda jnp, c: jnp.full((2,), c),
    "arange": lambda jnp, c: jnp.arange(c),
    "arange:start_stop": lambda jnp, c: jnp.arange(0, c),
    "linspace": lambda jnp, c: jnp.linspace(0, c, 3),
    "logspace": lambda jnp, c: jnp.logspace(0, c, 3),
    "geomspace": lambda jnp, c: jnp.geomspace(c, 4, 3),
    "zeros_like": lambda jnp, c: jnp.zeros_like(c),
    "full_like": lambda jnp, c: jnp.full_like(jnp.zeros(2, "int8"), c),
}
CONSTANT_GRID = list(PYTHON_SCALARS) + ["py_int_large", "np_float64", "np_int64", "np_float32"]
_CONSTANTS = {**PYTHON_SCALARS, "py_int_large": 2 ** 40}


def constant(key: str, np_module):
    """A constant grid entry: a Python scalar or a NumPy scalar of the dtype named after ``np_``."""
    if key in _CONSTANTS:
        return _CONSTANTS[key]
    return getattr(np_module, key[3:])(2)


_SHORT_KINDS = {"bfloat": "bf", "float": "f", "complex": "c", "uint": "u", "int": "i"}


def short_dtype(name: str) -> str:
    """``float32`` -> ``f32``, ``bfloat16`` -> ``bf16``, ``bool`` -> ``b``: keeps the golden table small."""
    if name == "bool":
        return "b"
    for kind, short in _SHORT_KINDS.items():
        if name.startswith(kind):
            return short + name[len(kind):]
    return name


def describe(result) -> str:
    """``"f32*"``-style record of eval_shape's results (``*``: weakly typed; comma-joined when several)."""
    leaves = result if isinstance(result, (tuple, list)) else [result]
    parts = []
    for leaf in leaves:
        if isinstance(leaf, (tuple, list)):
            parts.append(describe(leaf))
        else:
            parts.append(short_dtype(leaf.dtype.name) + ("*" if leaf.weak_type else ""))
    return ",".join(parts)


def _record(eval_shape, fn, *args) -> str:
    try:
        return describe(eval_shape(fn, *args))
    except Exception as error:  # noqa: BLE001 - the error's type is what we record
        return "!" + type(error).__name__


def combos(arity: int) -> list:
    """Grid keys of every operand combination for an arity."""
    if arity == 1:
        return [(key,) for key in UNARY_GRID]
    return [(a, b) for a in BINARY_GRID for b in BINARY_GRID]


def record_function(jnp, eval_shape, name: str) -> list:
    """One entry of FUNCTIONS: its records in the order of ``combos(arity)``."""
    arity, shape, caller = FUNCTIONS[name]
    return [_record(eval_shape, lambda *xs: caller(jnp, *xs), *[operand(key, shape) for key in keys])
            for keys in combos(arity)]


def record_constant_function(jnp, eval_shape, np_module, name: str) -> list:
    """One entry of CONSTANT_FUNCTIONS: its records in the order of CONSTANT_GRID."""
    caller = CONSTANT_FUNCTIONS[name]
    return [_record(eval_shape, lambda k=key: caller(jnp, constant(k, np_module))) for key in CONSTANT_GRID]


def grid_keys(name: str) -> list:
    """The combo labels (``"int8,py_float"``) of a table row, in record order."""
    if name.startswith("const:"):
        return CONSTANT_GRID
    return [",".join(keys) for keys in combos(FUNCTIONS[name][0])]


def record_all(jnp, eval_shape, np_module) -> dict:
    """Every function's row (records separated by spaces) under the current x64 setting."""
    table = {name: record_function(jnp, eval_shape, name) for name in FUNCTIONS}
    table.update({f"const:{name}": record_constant_function(jnp, eval_shape, np_module, name)
                  for name in CONSTANT_FUNCTIONS})
    return {name: " ".join(row) for name, row in table.items()}


def main() -> None:
    import numpy as np

    jax = importlib.import_module(sys.argv[1])
    jnp = importlib.import_module(f"{sys.argv[1]}.numpy")
    tables = {"x32": record_all(jnp, jax.eval_shape, np)}
    jax.config.update("jax_enable_x64", True)
    tables["x64"] = record_all(jnp, jax.eval_shape, np)
    path = jnp_golden.HERE / "result_dtypes_golden.json"
    path.write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n")
    print(f"{sum(len(t) for t in tables.values())} tables -> {path}")


if __name__ == "__main__":
    main()
