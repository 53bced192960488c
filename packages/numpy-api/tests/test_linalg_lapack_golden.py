"""The LAPACK-backed jnp.linalg functions and roots/polyfit against JAX 0.10.2's golden records."""

import jnp_golden
import make_jnp_linalg_lapack_golden
import make_jnp_linalg_lapack_x64_golden
import pytest

import jaxle_core

GOLDEN = jnp_golden.load("jnp_linalg_lapack_golden.json")
X64_GOLDEN = jnp_golden.load("jnp_linalg_lapack_x64_golden.json")

# Cases whose staged jaxpr differs from JAX's, compared by values, dtypes and weak types (docs/numpy.md lists them).
_SOLVE = ("solve stages one custom_linear_solve over the right-hand side's columns; JAX maps it over them with vmap, "
          "which batches its LU solve")
VALUES_ONLY = {name: _SOLVE for name in (
    "solve_vector", "solve_matrix", "solve_batched", "solve_complex", "solve_empty", "inv", "inv_batched", "inv_int",
    "inv_empty", "matrix_power_minus_1", "matrix_power_minus_3", "cond_fro", "cond_1", "cond_inf", "tensorsolve",
    "tensorsolve_axes", "polyfit_weights_cov")}


X64_VALUES_ONLY = {name: _SOLVE for name in ("inv", "solve", "solve_complex")}


def _assert_matches(actual, expected, jaxpr_differs):
    if jaxpr_differs:
        assert "jaxpr" in actual and "jaxpr" in expected, (actual, expected)
        actual = {**actual, "jaxpr": expected["jaxpr"]}
    jnp_golden.assert_case_matches(actual, expected)


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_lapack_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_lapack_golden.CASES[name])
    _assert_matches(actual, GOLDEN[name], name in VALUES_ONLY)


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_lapack_x64_golden.CASES))
def test_golden_x64(name):
    with jaxle_core.config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_lapack_x64_golden.CASES[name])
    _assert_matches(actual, X64_GOLDEN[name], name in X64_VALUES_ONLY)
