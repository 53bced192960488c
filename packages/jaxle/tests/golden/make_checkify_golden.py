"""Write checkify_golden.json: what ``jax.experimental.checkify`` reports (``error.get()``) and computes for user
checks, NaN, division and index checks, under jit and vmap, and the errors of checks outside checkify; replayed
by test_checkify.py.

    /work/jaxpeer/bin/python packages/jaxle/tests/golden/make_checkify_golden.py jax
"""

import importlib
import pathlib
import sys

import numpy as np
from golden_writer import write_golden


def _positive_log(m):
    checkify = importlib.import_module(m.__name__ + ".experimental.checkify")

    def f(x):
        checkify.check(x > 0, "x must be positive, got {}", x)
        return m.numpy.log(x)

    return f


def _two_checks(m):
    checkify = importlib.import_module(m.__name__ + ".experimental.checkify")

    def f(x, tree):
        checkify.check(x > 0, "first {x}", x=x)
        checkify.check(x > 1, "second {} {}", x, tree)
        return x

    return f


def _checkify(m):
    return importlib.import_module(m.__name__ + ".experimental.checkify")


F32, I32 = np.float32, np.int32
TREE = {"a": np.zeros(2, F32), "b": np.float32(np.nan)}

# name -> (checkified function of the module, arguments)
CASES = {
    "user_fails": lambda m: (_checkify(m).checkify(_positive_log(m)), [F32(-1.0)]),
    "user_holds_jit": lambda m: (m.jit(_checkify(m).checkify(_positive_log(m))), [F32(2.0)]),
    "user_first_of_two": lambda m: (_checkify(m).checkify(_two_checks(m)), [F32(0.5), TREE]),
    "user_vmap": lambda m: (m.vmap(_checkify(m).checkify(_positive_log(m))), [np.array([1.0, -1.0, -2.0], F32)]),
    "user_vmap_inside": lambda m: (_checkify(m).checkify(m.jit(m.vmap(_positive_log(m)))),
                                   [np.array([1.0, -2.0, -3.0], F32)]),
    "user_vmap_inside_holds": lambda m: (_checkify(m).checkify(m.vmap(_positive_log(m))),
                                         [np.array([1.0, 2.0], F32)]),
    "user_inside_jit": lambda m: (_checkify(m).checkify(lambda x: m.jit(_positive_log(m))(x)), [F32(-0.5)]),
    "nan_from_nan_input": lambda m: (_checkify(m).checkify(lambda x: x + 1, errors=_checkify(m).nan_checks),
                                     [F32(np.nan)]),
    "nan_log": lambda m: (_checkify(m).checkify(m.numpy.log, errors=_checkify(m).float_checks), [F32(-1.0)]),
    "nan_none": lambda m: (_checkify(m).checkify(m.numpy.log, errors=_checkify(m).all_checks), [F32(2.0)]),
    "div_float": lambda m: (_checkify(m).checkify(lambda x: x / 0.0, errors=_checkify(m).div_checks), [F32(1.0)]),
    "div_integer": lambda m: (_checkify(m).checkify(lambda x, y: x // y, errors=_checkify(m).div_checks),
                              [I32(1), I32(0)]),
    "rem_unchecked": lambda m: (_checkify(m).checkify(lambda x, y: x % y, errors=_checkify(m).div_checks),
                                [I32(1), I32(0)]),
    "index_negative": lambda m: (_checkify(m).checkify(lambda i: m.numpy.arange(3)[i],
                                                       errors=_checkify(m).index_checks), [I32(-5)]),
    "index_second_axis": lambda m: (_checkify(m).checkify(lambda i: m.numpy.arange(6).reshape(2, 3)[1, i],
                                                          errors=_checkify(m).index_checks), [I32(7)]),
    "index_dynamic_slice": lambda m: (_checkify(m).checkify(
        lambda i: m.lax.dynamic_slice(m.numpy.arange(6), (i,), (2,)), errors=_checkify(m).index_checks), [I32(5)]),
    "index_scatter": lambda m: (_checkify(m).checkify(lambda i: m.numpy.arange(3).at[i].set(1),
                                                      errors=_checkify(m).index_checks), [I32(7)]),
    "index_in_bounds": lambda m: (_checkify(m).checkify(lambda i: m.numpy.arange(3)[i],
                                                        errors=_checkify(m).index_checks), [I32(2)]),
    "user_not_enabled": lambda m: (_checkify(m).checkify(_positive_log(m), errors=_checkify(m).nan_checks),
                                   [F32(-1.0)]),
}

ERROR_CASES = {
    "check_outside_checkify": lambda m: _positive_log(m)(m.numpy.float32(-1.0)),
    "check_under_jit": lambda m: m.jit(_positive_log(m))(F32(1.0)),
    "throw": lambda m: _checkify(m).checkify(_positive_log(m))(m.numpy.float32(-3.0))[0].throw(),
    "python_bool_false": lambda m: _checkify(m).check(False, "plain {}", m.numpy.int32(3)),
    "numpy_bool_predicate": lambda m: _checkify(m).check(np.True_, "numpy"),
    "array_predicate": lambda m: _checkify(m).check(m.numpy.arange(2.0) > 0, "all"),
    "python_scalar_format_argument": lambda m: _checkify(m).checkify(_positive_log(m))(-1.0),
}


def run_case(m, name):
    fun, args = CASES[name](m)
    # arrays of the module: JAX's checkify leaves NumPy scalars untraced
    error, out = fun(*m.tree_util.tree_map(m.numpy.asarray, args))
    return {"get": error.get(), "out": np.asarray(out).tolist()}


def run_error_case(m, name):
    try:
        ERROR_CASES[name](m)
    except Exception as error:  # noqa: BLE001 - the golden records which exception a case raises
        return {"error": type(error).__name__, "message": str(error)}
    return {"error": None}


if __name__ == "__main__":
    module = importlib.import_module(sys.argv[1])
    golden = {name: run_case(module, name) for name in CASES}
    golden.update({name: run_error_case(module, name) for name in ERROR_CASES})
    out = pathlib.Path(__file__).parent / "checkify_golden.json"
    write_golden(golden, out, indent=0)
