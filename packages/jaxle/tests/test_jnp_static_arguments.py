"""jnp functions with static arguments run compiled when eager, and still take the unhashable forms NumPy and JAX
accept (an axis given as a list), with NumPy's results."""

import sys

import numpy as np
import pytest

import jaxle.numpy as jnp

X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "any", "all", "average"])
@pytest.mark.parametrize("axis", [[-1], [0, 2], (0, 1), 1])
def test_axis_as_list_or_tuple(name, axis):
    expected = getattr(np, name)(X, axis=tuple(axis) if isinstance(axis, list) else axis)
    np.testing.assert_allclose(np.asarray(getattr(jnp, name)(jnp.asarray(X), axis=axis)), expected, rtol=1e-6)
    positional = getattr(jnp, name)(jnp.asarray(X), axis)
    np.testing.assert_allclose(np.asarray(positional), expected, rtol=1e-6)


def _python_functions_run(function, *args, **kwargs):
    """``function(*args, **kwargs)``, and the names of the Python functions the call runs."""
    names = []
    sys.setprofile(lambda frame, event, arg: names.append(frame.f_code.co_name) if event == "call" else None)
    try:
        result = function(*args, **kwargs)
    finally:
        sys.setprofile(None)
    return result, names


@pytest.mark.parametrize("name, keywords", [
    ("max", {"initial": -np.inf}), ("max", {"where": X > 5, "initial": 1.5}), ("min", {"initial": 30.0}),
    ("min", {"initial": 4, "where": X < 20, "axis": 1}), ("sum", {"where": X > 5}), ("sum", {"initial": 2.5}),
    ("prod", {"where": X < 4, "initial": 2.0, "keepdims": True}), ("any", {"where": X > 30}),
    ("all", {"where": X > 10, "axis": 2})])
def test_initial_and_where_run_compiled_when_eager(name, keywords):
    # As JAX's jitted reductions take them: traced arguments of one compiled program, not operation by operation.
    given = {k: jnp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in keywords.items()}
    operand = X > 12 if name in ("any", "all") else X
    expected = getattr(np, name)(operand, **keywords)
    for order in (given, dict(reversed(given.items()))):  # C++ keys keywords by name, whatever their order
        for _ in range(2):
            result, functions = _python_functions_run(getattr(jnp, name), jnp.asarray(operand), **order)
            np.testing.assert_allclose(np.asarray(result), expected, rtol=1e-6)
            assert result.dtype == expected.dtype
    assert "_reduce" not in functions


def test_an_initial_int_beyond_int32_gets_jaxs_overflow_error():
    # JAX 0.10.2 parses initial= as an argument of its jitted reduction, and refuses the int there.
    with pytest.raises(OverflowError, match="An overflow was encountered while parsing an argument to a jitted "
                                            "computation, whose argument path is initial. Got <class 'int'> with "
                                            "value 1099511627776"):
        jnp.min(jnp.asarray(X), initial=2**40)
