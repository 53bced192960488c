"""Result dtypes and weak types of jnp functions over a grid of input dtypes, x64 off and on, against the table
recorded with JAX 0.10.2 (golden/make_result_dtypes_golden.py). One test per function lists every mismatch."""

import contextlib
import warnings

import jnp_golden
import make_result_dtypes_golden as grid
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp

GOLDEN = jnp_golden.load("result_dtypes_golden.json")
_MODES = ("x32", "x64")
_TRACED_PYTHON_SCALARS = ("py_int", "py_float", "py_complex")

# Known differences from JAX 0.10.2, combination by combination (docs/numpy.md lists them).
KNOWN_DIFFERENCES = {
    # JAX treats a traced Python scalar given axis=0 as a 1-d array (a NumPy scalar raises, as jaxle does)
    **{f"{name}:axis": {f"{mode} {key}" for mode in _MODES for key in _TRACED_PYTHON_SCALARS}
       for name in ("cumsum", "cumprod", "nancumsum", "nancumprod")},
}


def _row(name: str) -> list:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex-to-real casts warn, as JAX's do
        if name.startswith("const:"):
            return grid.record_constant_function(jnp, jaxle_core.eval_shape, np, name[len("const:"):])
        return grid.record_function(jnp, jaxle_core.eval_shape, name)


@pytest.mark.parametrize("name", sorted(GOLDEN["x32"]))
def test_result_dtypes_match_jax(name):
    failures = []
    for mode, setting in (("x32", contextlib.nullcontext), ("x64", lambda: jaxle_core.config.enable_x64(True))):
        with setting():
            row = _row(name)
        expected = GOLDEN[mode][name].split(" ")
        for key, got, want in zip(grid.grid_keys(name), row, expected, strict=True):
            if got != want and f"{mode} {key}" not in KNOWN_DIFFERENCES.get(name, ()):
                failures.append(f"{mode} {key}: jaxle {got}, JAX {want}")
    assert not failures, f"{name}: {len(failures)} mismatches\n" + "\n".join(failures)
