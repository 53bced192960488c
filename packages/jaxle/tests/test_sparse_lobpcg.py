"""sparse.linalg.lobpcg_standard against NumPy's eigh and SciPy's lobpcg on small well-conditioned problems, and
against JAX 0.10.2 (golden/sparse_lobpcg_golden.json from golden/make_sparse_lobpcg_golden.py: eigenvalues found,
errors)."""

import json
import pathlib
import sys

import numpy as np
import pytest
import scipy.sparse.linalg

import jaxle
from jaxle.experimental import sparse
from jaxle.experimental.sparse import linalg

sys.path.insert(0, str(pathlib.Path(__file__).parent / "golden"))

import make_sparse_lobpcg_golden as golden  # noqa: E402 - found through the path set just above

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "sparse_lobpcg_golden.json").read_text())


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_lobpcg_golden(name):
    got, expected = golden.run_case(jaxle, name), GOLDEN[name]
    assert ("error" in got) == ("error" in expected), got
    if "error" in expected:
        assert got["error"] == expected["error"]
        return
    assert got["dtype"] == expected["dtype"]
    np.testing.assert_allclose(got["theta"], expected["theta"], rtol=1e-4)


@pytest.mark.parametrize("n,k,seed", [(20, 3, 0), (30, 2, 1), (40, 4, 2)])
def test_lobpcg_matches_eigh_and_scipy(n, k, seed):
    A, X = golden.spectrum_matrix(n, seed), golden.start_block(n, k, seed)
    theta, U, iterations = jaxle.jit(linalg.lobpcg_standard)(A, X)
    top = np.linalg.eigvalsh(A.astype(np.float64))[::-1][:k]
    np.testing.assert_allclose(theta, top, rtol=1e-5)
    reference = scipy.sparse.linalg.lobpcg(A.astype(np.float64), X.astype(np.float64), largest=True, tol=1e-8,
                                           maxiter=200)[0]
    np.testing.assert_allclose(theta, np.sort(reference)[::-1], rtol=1e-5)
    U = np.asarray(U)
    np.testing.assert_allclose(U.T @ U, np.eye(k), atol=1e-5)  # orthonormal eigenvectors
    np.testing.assert_allclose(A @ U, U * np.asarray(theta), atol=1e-3)
    assert iterations.dtype == np.int32 and 0 < int(iterations) <= 100


def test_lobpcg_of_a_sparse_operator():
    rng = np.random.default_rng(3)
    n = 30
    # a symmetric tridiagonal matrix held as BCOO, applied as a function
    diagonal, off = np.linspace(1, 4, n), rng.uniform(0.1, 0.3, n - 1)
    dense = (np.diag(diagonal) + np.diag(off, 1) + np.diag(off, -1)).astype(np.float32)
    mat = sparse.BCOO.fromdense(dense)
    theta, _, iterations = linalg.lobpcg_standard(lambda x: mat @ x, golden.start_block(n, 2, 3), m=200)
    np.testing.assert_allclose(theta, np.linalg.eigvalsh(dense.astype(np.float64))[::-1][:2], rtol=1e-5)
    assert 0 < int(iterations) <= 200
