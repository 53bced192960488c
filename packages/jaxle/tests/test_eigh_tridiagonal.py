"""``jax.scipy.linalg.eigh_tridiagonal`` with eigenvectors: jaxle-numpy's inverse iteration drawing its start
vectors through the jaxle-random sampler the meta-package registers, against JAX 0.10.2's jaxprs, errors and
(on XLA) bits (golden/make_eigh_tridiagonal_golden.py), and against SciPy."""

import json
import pathlib
import sys

import numpy as np
import pytest
import scipy.linalg

import jaxle as jax

_GOLDEN = pathlib.Path(__file__).parent / "golden"
sys.path.insert(0, str(_GOLDEN))
import make_eigh_tridiagonal_golden as generator  # noqa: E402 - found through the path set above
from make_eigh_tridiagonal_golden import jnp_golden  # noqa: E402

GOLDEN = json.loads((_GOLDEN / "eigh_tridiagonal_golden.json").read_text())
ALL_CASES = {**generator.CASES, **{f"x64_{name}": build for name, build in generator.X64_CASES.items()}}


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_golden_jaxprs_errors_and_bits(name):
    with jax.enable_x64(name.startswith("x64_")):
        actual = jnp_golden.run_case(jax, ALL_CASES[name])
        jnp_golden.assert_case_matches(actual, GOLDEN[name])
        if "values" in GOLDEN[name]:
            fn, args = ALL_CASES[name](jax)
            jnp_golden.assert_bit_for_bit(jnp_golden._leaves(fn(*args)), GOLDEN[name]["values"], name)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
def test_eigenpairs_against_scipy(dtype):
    rng = np.random.default_rng(3)
    d, e = rng.standard_normal(7).astype(dtype), rng.standard_normal(6).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        e = e + 1j * rng.standard_normal(6)
    with jax.enable_x64(dtype != np.float32):
        values, vectors = (np.asarray(x) for x in jax.jit(jax.scipy.linalg.eigh_tridiagonal)(d, e))
    matrix = np.diag(d) + np.diag(e, 1) + np.diag(np.conj(e), -1)
    tol = 1e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(values, scipy.linalg.eigh(matrix, eigvals_only=True), rtol=tol, atol=tol)
    np.testing.assert_allclose(matrix @ vectors, vectors * values[None, :], atol=10 * tol)
    np.testing.assert_allclose(np.conj(vectors).T @ vectors, np.eye(7), atol=10 * tol)
