"""The LAPACK-backed jnp.linalg functions and roots/polyfit against JAX 0.10.2's golden records."""

import re

import jnp_golden
import make_jnp_linalg_lapack_golden
import make_jnp_linalg_lapack_x64_golden
import pytest

import jaxle_core

GOLDEN = jnp_golden.load("jnp_linalg_lapack_golden.json")
X64_GOLDEN = jnp_golden.load("jnp_linalg_lapack_x64_golden.json")

# Solves whose staged jaxpr differs from JAX's in one place (docs/numpy.md lists it): custom_linear_solve's vecmat,
# the transpose of the matvec, ends with a reduce_sum over no axes in JAX (the transpose of the identity
# broadcast_in_dim its matvec binds); jaxle's has none. Everything else is compared character for character.
SOLVES = {"solve_vector", "solve_matrix", "solve_batched", "solve_complex", "solve_empty", "inv", "inv_batched",
          "inv_int", "inv_empty", "matrix_power_minus_1", "matrix_power_minus_3", "cond_fro", "cond_1", "cond_inf",
          "tensorsolve", "tensorsolve_axes", "polyfit_weights_cov"}
X64_SOLVES = {"inv", "solve", "solve_complex"}
_VECMAT_IDENTITY_SUM = re.compile(r"\n    d:(\S+) = reduce_sum\[axes=\(\) out_sharding=None\] c\n  in \(d,\) \}")


def _assert_matches(actual, expected, solve):
    if solve:
        assert "jaxpr" in expected and _VECMAT_IDENTITY_SUM.search(expected["jaxpr"]), expected
        expected = {**expected, "jaxpr": _VECMAT_IDENTITY_SUM.sub("\n  in (c,) }", expected["jaxpr"])}
    jnp_golden.assert_case_matches(actual, expected)


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_lapack_golden.CASES))
def test_golden(name):
    actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_lapack_golden.CASES[name])
    _assert_matches(actual, GOLDEN[name], name in SOLVES)


@pytest.mark.parametrize("name", sorted(make_jnp_linalg_lapack_x64_golden.CASES))
def test_golden_x64(name):
    with jaxle_core.config.enable_x64(True):
        actual = jnp_golden.run_case(jnp_golden.jaxle_namespace(), make_jnp_linalg_lapack_x64_golden.CASES[name])
    _assert_matches(actual, X64_GOLDEN[name], name in X64_SOLVES)
