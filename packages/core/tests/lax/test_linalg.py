"""lax.linalg's factorizations and solves on the reference backend: jaxprs, values and errors against JAX 0.10.2
goldens, values against NumPy and SciPy (float32/float64/complex, batched, empty)."""

import importlib

import numpy as np
import pytest
import scipy.linalg
from make_fft_golden import assert_case_matches

import jaxle_core
from jaxle_core import lax
from jaxle_core.config import enable_x64

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("linalg")
linalg = lax.linalg


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    assert_case_matches(jaxle_core, GEN.CASES[name], GOLDEN[name])


@pytest.mark.parametrize("name", sorted(GEN.X64_CASES))
def test_matches_jax_with_x64(name):
    with enable_x64(True):
        assert_case_matches(jaxle_core, GEN.X64_CASES[name], GOLDEN[name])


DTYPES = ["float32", "float64", "complex64", "complex128"]


def _tolerance(dtype):
    return 1e-4 if dtype in ("float32", "complex64") else 1e-10


def _batched(shape, dtype, seed=0):
    return GEN.rand(shape, dtype, seed)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (0, 2, 2), (0, 0)])
def test_cholesky_matches_numpy(dtype, shape):
    x = GEN.spd(shape, dtype) if shape[-1] else np.zeros(shape, dtype)
    with enable_x64(True):
        out = np.asarray(linalg.cholesky(x))
    assert out.dtype == np.dtype(dtype)
    np.testing.assert_allclose(out, np.linalg.cholesky(x) if x.size else x, rtol=_tolerance(dtype),
                               atol=_tolerance(dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (2, 5, 3), (3, 5), (0, 3), (2, 0, 0)])
def test_lu_reconstructs_the_permuted_matrix(dtype, shape):
    x = _batched(shape, dtype)
    with enable_x64(True):
        factors, pivots, permutation = (np.asarray(v) for v in linalg.lu(x))
    m, n = shape[-2:]
    k = min(m, n)
    lower = np.tril(factors[..., :, :k], -1) + np.eye(m, k, dtype=dtype)
    upper = np.triu(factors[..., :k, :])
    rows = np.take_along_axis(x, permutation[..., None].astype(np.int64), axis=-2)
    np.testing.assert_allclose(lower @ upper, rows, rtol=_tolerance(dtype), atol=_tolerance(dtype))
    assert pivots.shape == shape[:-2] + (k,) and pivots.dtype == np.int32
    if x.ndim == 2 and x.size and m == n:
        _, scipy_pivots = scipy.linalg.lu_factor(x)
        np.testing.assert_array_equal(pivots, scipy_pivots)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (2, 3, 5), (3, 0)])
@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("pivoting", [False, True])
def test_qr_matches_scipy(dtype, shape, full_matrices, pivoting):
    x = _batched(shape, dtype, 1)
    with enable_x64(True):
        outs = [np.asarray(v) for v in linalg.qr(x, full_matrices=full_matrices, pivoting=pivoting)]
    q, r = outs[:2]
    mode = "full" if full_matrices else "economic"
    for index in np.ndindex(*shape[:-2]):
        expected = scipy.linalg.qr(x[index], mode=mode, pivoting=pivoting)
        tol = _tolerance(dtype)
        if x.size:
            np.testing.assert_allclose(q[index], expected[0], rtol=tol, atol=tol)
            np.testing.assert_allclose(r[index], expected[1], rtol=tol, atol=tol)
        if pivoting:
            np.testing.assert_array_equal(outs[2][index], expected[2])
    k = min(shape[-2:])
    assert q.shape == shape[:-2] + (shape[-2], shape[-2] if full_matrices else k)


@pytest.mark.parametrize("dtype", DTYPES)
def test_householder_product_and_ormqr_apply_the_orthogonal_factor(dtype):
    x = _batched((2, 5, 3), dtype, 2)
    with enable_x64(True):
        for index in range(2):
            factored, taus = scipy.linalg.lapack.get_lapack_funcs(("geqrf",), (x[index],))[0](x[index])[:2]
            q = scipy.linalg.qr(x[index], mode="economic")[0]
            np.testing.assert_allclose(np.asarray(linalg.householder_product(factored, taus)), q,
                                       rtol=_tolerance(dtype), atol=_tolerance(dtype))
            full_q = scipy.linalg.qr(x[index])[0]
            c = _batched((5, 2), dtype, 3)
            for left, transpose in [(True, False), (True, True), (False, False), (False, True)]:
                operand = c if left else c.T
                op_q = full_q.conj().T if transpose else full_q
                expected = op_q @ operand if left else operand @ op_q
                got = linalg.ormqr(factored, taus, operand, left=left, transpose=transpose)
                np.testing.assert_allclose(np.asarray(got), expected, rtol=_tolerance(dtype), atol=_tolerance(dtype))


@pytest.mark.parametrize("dtype", DTYPES + ["float16"])
@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize(("transpose_a", "conjugate_a"), [(False, False), (True, False), (True, True),
                                                          (False, True)])
def test_triangular_solve_matches_scipy(dtype, left_side, lower, transpose_a, conjugate_a):
    a = GEN.upper((2, 3, 3), dtype)
    a = np.swapaxes(a, -1, -2) if lower else a
    b = _batched((2, 3, 2) if left_side else (2, 2, 3), dtype, 4)
    with enable_x64(True):
        x = np.asarray(linalg.triangular_solve(a, b, left_side=left_side, lower=lower, transpose_a=transpose_a,
                                               conjugate_a=conjugate_a)).astype(np.complex128)
    op = a.astype(np.complex128)
    op = op.conj() if conjugate_a else op
    op = np.swapaxes(op, -1, -2) if transpose_a else op
    product = op @ x if left_side else x @ op
    tol = 1e-2 if dtype == "float16" else _tolerance(dtype)
    np.testing.assert_allclose(product, b, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", DTYPES)
def test_tridiagonal_solve_matches_a_dense_solve(dtype):
    dl, d, du = (_batched((2, 5), dtype, s) for s in range(3))
    d = d + 4
    b = _batched((2, 5, 3), dtype, 3)
    with enable_x64(True):
        x = np.asarray(linalg.tridiagonal_solve(dl, d, du, b))
    for index in range(2):
        dense = np.diag(d[index]) + np.diag(dl[index, 1:], -1) + np.diag(du[index, :-1], 1)
        np.testing.assert_allclose(x[index], np.linalg.solve(dense, b[index]), rtol=_tolerance(dtype),
                                   atol=_tolerance(dtype))


def test_cholesky_update_is_the_factor_of_the_updated_matrix():
    with enable_x64(True):
        a = GEN.spd((5, 5), "float64")
        w = _batched((5,), "float64", 3)
        r = np.asarray(linalg.cholesky_update(np.linalg.cholesky(a).T, w))
        np.testing.assert_allclose(r, np.linalg.cholesky(a + np.outer(w, w)).T, rtol=1e-10, atol=1e-10)


def test_symmetric_product_matches_numpy():
    with enable_x64(True):
        a, c = _batched((2, 4, 3), "float64"), _batched((2, 4, 4), "float64", 1)
        out = np.asarray(linalg.symmetric_product(a, c, alpha=1.5, beta=-0.5))
        np.testing.assert_allclose(out, 1.5 * a @ np.swapaxes(a, -1, -2) - 0.5 * c, rtol=1e-12)


def test_lu_pivots_to_permutation_applies_the_swaps_in_order():
    pivots = np.array([[3, 3, 2], [0, 2, 2]], np.int32)
    out = np.asarray(linalg.lu_pivots_to_permutation(pivots, 4))
    for row, expected in zip(pivots, out):
        order = list(range(4))
        for i, p in enumerate(row):
            order[i], order[p] = order[p], order[i]
        assert list(expected) == order
