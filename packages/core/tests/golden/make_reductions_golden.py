"""Write reductions_golden.json: jaxprs and values of lax reductions, as the named module computes them.

    /work/jaxpeer/bin/python packages/core/tests/golden/make_reductions_golden.py jax

The module must offer ``lax`` and ``make_jaxpr`` (jax and jaxle_core both do). The machinery here
(``record``, ``write``; ``run_text_case``, ``write_text_cases`` for cases built from the whole module and compared
by jaxpr text) is shared by the other lax golden generators beside this file; each one's ``CASES`` maps a case name
to ``build(lax) -> (function, args)``. The tests import the generators and run the same
cases with jaxle_core.
"""

import importlib
import json
import pathlib
import sys

import ml_dtypes
import numpy as np

HERE = pathlib.Path(__file__).parent


def rand(shape, dtype, seed=0):
    """Deterministic test data of ``dtype``: small integers, booleans, or normal floats."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(getattr(ml_dtypes, dtype, None) or dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        low = 0 if np.issubdtype(dtype, np.unsignedinteger) else -5
        return rng.integers(low, 6, shape).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _param(value):
    if hasattr(value, "eqns"):
        return ["jaxpr", [str(e.primitive) for e in value.eqns]]
    if callable(value) and not hasattr(value, "name"):
        return "<function>"
    return repr(value)


def _aval(aval):
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]{'w' if aval.weak_type else ''}"


def _value(x):
    x = np.asarray(x)
    entry = {"dtype": x.dtype.name, "shape": list(x.shape)}
    if x.dtype.names is not None:  # float0 (the tangent of integers and booleans, a structured dtype) has no values
        return {"dtype": "float0", "shape": list(x.shape)}
    if np.iscomplexobj(x):
        entry["real"] = x.real.astype(np.float64).tolist()
        entry["imag"] = x.imag.astype(np.float64).tolist()
    elif x.dtype == np.bool_ or np.issubdtype(x.dtype, np.integer):
        entry["values"] = x.tolist()
    else:
        entry["values"] = x.astype(np.float64).tolist()
    return entry


def run_case(module, build):
    """{'eqns': [[primitive, params, out avals]...], 'values': [...]} or {'error': ExceptionType}."""
    fn, args = build(module.lax)
    try:
        closed = module.make_jaxpr(fn)(*args)
        eqns = [[str(e.primitive), {k: _param(v) for k, v in e.params.items()}, [_aval(v.aval) for v in e.outvars]]
                for e in closed.jaxpr.eqns]
        outs = fn(*args)
    except Exception as error:  # noqa: BLE001 - the error type is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    return {"eqns": eqns, "values": [_value(o) for o in outs]}


def _tolerance(dtype_name):
    return {"float16": 1e-2, "bfloat16": 2e-2}.get(dtype_name, 1e-4)


def assert_matches(actual, expected):
    """Check one case's outcome against its golden: same error type, or same eqns and values (NaN-aware, with
    a tolerance for floats and the sign of zeros checked)."""
    if "error" in expected or "error" in actual:
        assert actual.get("error") == expected.get("error"), (actual, expected)
        return
    assert actual["eqns"] == expected["eqns"]
    assert len(actual["values"]) == len(expected["values"])
    for got, want in zip(actual["values"], expected["values"]):
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"])
        for part in ("values", "real", "imag"):
            if part not in want:
                continue
            g, w = np.asarray(got[part], np.float64), np.asarray(want[part], np.float64)
            tol = _tolerance(want["dtype"])
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, equal_nan=True)
            zeros = (g == 0) & (w == 0)
            np.testing.assert_array_equal(np.signbit(g[zeros]), np.signbit(w[zeros]))


def record(module, cases):
    return {name: run_case(module, build) for name, build in cases.items()}


def write(cases, filename):
    module = importlib.import_module(sys.argv[1])
    (HERE / filename).write_text(json.dumps(record(module, cases), indent=1, sort_keys=True) + "\n")


def run_text_case(module, build):
    """Like ``run_case`` with the module itself given to ``build`` (for jit, grad, vmap, ...) and the whole jaxpr
    text recorded: {'jaxpr': text, 'values': [...]} or {'error': ExceptionType, 'message': first line}."""
    fn, args = build(module)
    try:
        text = str(module.make_jaxpr(fn)(*args))
        outs = fn(*args)
    except Exception as error:  # noqa: BLE001 - the error is what we record
        return {"error": type(error).__name__, "message": str(error).split("\n")[0]}
    leaves = [leaf for out in (outs if isinstance(outs, (tuple, list)) else [outs])
              for leaf in (out if isinstance(out, (tuple, list)) else [out])]
    return {"jaxpr": text, "values": [_value(leaf) for leaf in leaves]}


def assert_text_matches(actual, expected):
    """One ``run_text_case`` outcome against its golden: the same error and message, or the same jaxpr text and
    values (as ``assert_matches`` compares them)."""
    if "error" in expected or "error" in actual:
        assert (actual.get("error"), actual.get("message")) == (expected.get("error"), expected.get("message"))
        return
    assert actual["jaxpr"] == expected["jaxpr"]
    assert_matches({"eqns": [], "values": actual["values"]}, {"eqns": [], "values": expected["values"]})


def write_text_cases(cases, filename):
    module = importlib.import_module(sys.argv[1])
    record = {name: run_text_case(module, build) for name, build in cases.items()}
    (HERE / filename).write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")


def _nan_data():
    return np.array([[1.0, np.nan, 3.0, -np.inf], [0.0, -0.0, 2.0, 2.0], [-0.0, 0.0, -1.0, np.inf]], np.float32)


CASES = {}
for _dtype in ["bool", "int8", "uint8", "int32", "float16", "bfloat16", "float32", "complex64"]:
    for _name in ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or",
                  "reduce_xor"]:
        for _axes in [(0,), (1,), (0, 1), ()]:
            CASES[f"{_name}-{_dtype}-{_axes}"] = (
                lambda lax, n=_name, d=_dtype, a=_axes: (lambda x: getattr(lax, n)(x, a), (rand((3, 4), d),)))
    for _name in ["argmax", "argmin"]:
        for _axis in [0, 1]:
            CASES[f"{_name}-{_dtype}-{_axis}"] = (
                lambda lax, n=_name, d=_dtype, a=_axis: (lambda x: getattr(lax, n)(x, a, np.int32),
                                                         (rand((3, 4), d),)))
for _name in ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "argmax", "argmin"]:
    for _axis in [0, 1]:
        if _name.startswith("arg"):
            CASES[f"{_name}-nan-{_axis}"] = lambda lax, n=_name, a=_axis: (
                lambda x: getattr(lax, n)(x, a, np.int32), (_nan_data(),))
        else:
            CASES[f"{_name}-nan-{_axis}"] = lambda lax, n=_name, a=_axis: (
                lambda x: getattr(lax, n)(x, (a,)), (_nan_data(),))
for _name in ["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or"]:
    for _dtype in ["float32", "int32", "uint8", "bool"]:
        CASES[f"{_name}-empty-{_dtype}"] = lambda lax, n=_name, d=_dtype: (
            lambda x: getattr(lax, n)(x, (1,)), (rand((2, 0), d),))
CASES.update({
    "reduce_sum-int8-overflow": lambda lax: (lambda x: lax.reduce_sum(x, (0,)), (np.full((4,), 100, np.int8),)),
    "reduce_sum-weak": lambda lax: (lambda: lax.reduce_sum(lax.broadcast(2.0, (3,)), (0,)), ()),
    "reduce_max-weak-scalar": lambda lax: (lambda: lax.reduce_max(2.0, ()), ()),
    "argmax-weak": lambda lax: (lambda: lax.argmax(lax.broadcast(2.0, (3,)), 0, np.int32), ()),
    "argmax-int16-index": lambda lax: (lambda x: lax.argmax(x, 1, np.int16), (rand((3, 4), "float32"),)),
    "argmax-int8-ties": lambda lax: (lambda x: lax.argmax(x, 0, np.int32), (np.array([1, 3, 3, 1], np.int8),)),
    "argmin-ties": lambda lax: (lambda x: lax.argmin(x, 0, np.int32), (np.array([2.0, 1.0, 1.0], np.float32),)),
    "err-reduce_sum-bool": lambda lax: (lambda x: lax.reduce_sum(x, (0,)), (rand((3,), "bool"),)),
    "err-reduce_or-float": lambda lax: (lambda x: lax.reduce_or(x, (0,)), (rand((3,), "float32"),)),
    "err-reduce_max-negative-axis": lambda lax: (lambda x: lax.reduce_max(x, (-1,)), (rand((3,), "float32"),)),
    "err-reduce_sum-axis-range": lambda lax: (lambda x: lax.reduce_sum(x, (2,)), (rand((3,), "float32"),)),
    "err-reduce_sum-duplicate": lambda lax: (lambda x: lax.reduce_sum(x, (0, 0)), (rand((3,), "float32"),)),
    "err-argmax-float-index": lambda lax: (lambda x: lax.argmax(x, 0, np.float32), (rand((3,), "float32"),)),
    "err-argmax-axis": lambda lax: (lambda x: lax.argmax(x, 1, np.int32), (rand((3,), "float32"),)),
    "err-argmax-empty": lambda lax: (lambda x: lax.argmax(x, 0, np.int32), (rand((0, 3), "float32"),)),
    # generic reduce: monoids become the specific primitives, anything else stages a `reduce`
    "reduce-add-0": lambda lax: (lambda x: lax.reduce(x, 0.0, lax.add, (0,)), (rand((3, 4), "float32"),)),
    "reduce-add-int-0": lambda lax: (lambda x: lax.reduce(x, 0, lax.add, (1,)), (rand((3, 4), "int32"),)),
    "reduce-mul-1": lambda lax: (lambda x: lax.reduce(x, 1.0, lax.mul, (0,)), (rand((3, 4), "float32"),)),
    "reduce-max-ninf": lambda lax: (lambda x: lax.reduce(x, -np.inf, lax.max, (0,)), (rand((3, 4), "float32"),)),
    "reduce-min-inf": lambda lax: (lambda x: lax.reduce(x, np.inf, lax.min, (1,)), (rand((3, 4), "float32"),)),
    "reduce-max-intmin": lambda lax: (lambda x: lax.reduce(x, np.int32(-2**31), lax.max, (0,)),
                                      (rand((3, 4), "int32"),)),
    "reduce-add-2": lambda lax: (lambda x: lax.reduce(x, 2.0, lax.add, (0,)), (rand((3, 4), "float32"),)),
    "reduce-max-0": lambda lax: (lambda x: lax.reduce(x, 0.0, lax.max, (1,)), (rand((3, 4), "float32"),)),
    "reduce-lambda": lambda lax: (lambda x: lax.reduce(x, 1.0, lambda a, b: a * b + 1.0, (0,)),
                                  (rand((3, 4), "float32"),)),
    "reduce-lambda-all-axes": lambda lax: (lambda x: lax.reduce(x, 0.0, lambda a, b: lax.max(a, b), (0, 1)),
                                           (rand((3, 4), "float32"),)),
    "reduce-pair": lambda lax: (
        lambda x, y: lax.reduce((x, y), (0.0, 1.0), lambda a, b: (lax.add(a[0], b[0]), lax.mul(a[1], b[1])), (1,)),
        (rand((3, 4), "float32"), rand((3, 4), "float32", 1))),
    "err-reduce-dtype": lambda lax: (lambda x: lax.reduce(x, np.int32(0), lax.mul, (0,)),
                                     (rand((3,), "float32"),)),
    # a reduction over no dimensions returns its operands, folding in no init value
    "reduce-lambda-no-dims": lambda lax: (lambda x: lax.reduce(x, 1.0, lambda a, b: a * 2.0 + b, ()),
                                          (rand((3, 4), "float32"),)),
    "reduce-pair-no-dims": lambda lax: (
        lambda x, y: lax.reduce((x, y), (1.0, np.int32(3)), lambda a, b: (a[0] * 2.0 + b[0], a[1] * b[1]), ()),
        (rand((2, 3), "float32"), rand((2, 3), "int32"))),
})
# narrow floats sum and multiply without the narrow accumulator saturating
for _dtype in ["float16", "bfloat16"]:
    CASES[f"reduce_sum-{_dtype}-3000-ones"] = lambda lax, d=_dtype: (
        lambda x: lax.reduce_sum(x, (0,)), (np.ones((3000, 2), np.dtype(getattr(ml_dtypes, d, d))),))
    CASES[f"reduce_prod-{_dtype}-overflowing-partial"] = lambda lax, d=_dtype: (
        lambda x: lax.reduce_prod(x, (1,)), (np.array([[300.0, 300.0, 1 / 256]] * 2, np.float32).astype(
            np.dtype(getattr(ml_dtypes, d, d))),))
# sums of two or more -0.0 terms are +0.0; a sum of one term is that term
for _dtype in ["float16", "bfloat16", "float32", "complex64"]:
    for _shape, _axes in [((2,), (0,)), ((5, 3), (0, 1)), ((1, 3), (0,)), ((3, 1), (1,)), ((2,), ())]:
        CASES[f"reduce_sum-negzero-{_dtype}-{_shape}-{_axes}"] = lambda lax, d=_dtype, s=_shape, a=_axes: (
            lambda x: lax.reduce_sum(x, a), (np.full(s, complex(-0.0, -0.0) if d == "complex64" else -0.0).astype(
                np.dtype(getattr(ml_dtypes, d, d))),))

if __name__ == "__main__":
    write(CASES, "reductions_golden.json")


def load_suite(family: str):
    """The generator module of ``family`` and the goldens it wrote, for a test module."""
    generator = importlib.import_module(f"make_{family}_golden")
    golden = json.loads((pathlib.Path(__file__).parent / f"{family}_golden.json").read_text())
    return generator, golden
