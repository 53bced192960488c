"""lax.linalg's eigh, eig, svd, schur, hessenberg and tridiagonal: jaxprs, values and errors (and those of their
jvp, grad and vmap) against JAX 0.10.2 goldens; the decompositions' defining identities checked in NumPy over
float32/float64/complex64/complex128, batched and empty matrices; derivatives against finite differences."""

import importlib

import numpy as np
import pytest

import jaxle_core
from jaxle_core.config import enable_x64
from jaxle_core.lax import linalg
from jaxle_core.test_util import check_grads

SHARED = importlib.import_module("make_reductions_golden")
GEN, GOLDEN = SHARED.load_suite("decompositions")


@pytest.mark.parametrize("name", sorted(GEN.CASES))
def test_matches_jax(name):
    SHARED.assert_text_matches(SHARED.run_text_case(jaxle_core, GEN.CASES[name]), GOLDEN[name])


@pytest.mark.parametrize("name", sorted(GEN.X64_CASES))
def test_matches_jax_with_x64(name):
    with enable_x64(True):
        SHARED.assert_text_matches(SHARED.run_text_case(jaxle_core, GEN.X64_CASES[name]), GOLDEN[name])


DTYPES = ["float32", "float64", "complex64", "complex128"]
SHAPES = [(3, 3), (2, 4, 4), (0, 0), (0, 2, 2)]


def _tolerance(dtype):
    return 1e-4 if dtype in ("float32", "complex64") else 1e-10


def _matrix(shape, dtype, seed=0):
    return SHARED.rand(shape, dtype, seed)


def _adjoint(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _close(actual, expected, dtype):
    tol = _tolerance(dtype)
    np.testing.assert_allclose(np.asarray(actual), expected, rtol=tol, atol=tol * 10)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_eigh_diagonalizes_hermitian_matrices(shape, dtype):
    a = _matrix(shape, dtype)
    with enable_x64(True):
        v, w = (np.asarray(r) for r in linalg.eigh(a))
    hermitian = (a + _adjoint(a)) / 2
    assert v.dtype == np.dtype(dtype) and w.dtype == np.finfo(dtype).dtype
    assert np.all(np.diff(w, axis=-1) >= 0)
    _close((v * w[..., None, :]) @ _adjoint(v), hermitian, dtype)
    _close(_adjoint(v) @ v, np.broadcast_to(np.eye(shape[-1]), shape), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_eig_finds_left_and_right_eigenvectors(shape, dtype):
    a = _matrix(shape, dtype, 1)
    with enable_x64(True):
        w, vl, vr = (np.asarray(r) for r in linalg.eig(a))
    assert w.dtype == vl.dtype == vr.dtype == np.result_type(dtype, np.complex64)
    _close(a @ vr, vr * w[..., None, :], dtype)
    _close(_adjoint(vl) @ a, w[..., :, None] * _adjoint(vl), dtype)
    _close(np.linalg.norm(vr, axis=-2), np.ones(w.shape), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3), (0, 2), (2, 0)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_reconstructs_and_matches_numpy(shape, dtype, full_matrices):
    a = _matrix(shape, dtype, 2)
    with enable_x64(True):
        u, s, vh = (np.asarray(r) for r in linalg.svd(a, full_matrices=full_matrices))
        values = np.asarray(linalg.svd(a, compute_uv=False))
    k = min(shape[-2:])
    _close(values, np.linalg.svd(a, compute_uv=False) if k else np.zeros(shape[:-2] + (0,)), dtype)
    _close(s, values, dtype)
    _close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, dtype)
    if full_matrices:
        _close(_adjoint(u) @ u, np.broadcast_to(np.eye(shape[-2]), u.shape), dtype)
        _close(vh @ _adjoint(vh), np.broadcast_to(np.eye(shape[-1]), vh.shape), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_schur_is_a_unitary_similarity_to_a_quasi_triangular_form(shape, dtype):
    a = _matrix(shape, dtype, 3)
    with enable_x64(True):
        t, z = (np.asarray(r) for r in linalg.schur(a))
    _close(z @ t @ _adjoint(z), a, dtype)
    below = -2 if dtype.startswith("float") else -1  # the real form keeps 2x2 blocks on the diagonal
    np.testing.assert_array_equal(np.tril(t, below), 0)


def _householder_product(vectors, taus):
    """``H_0 H_1 ... H_{k-1}`` with ``H_i = I - tau_i v_i v_i^H``: the unitary factor of a packed reduction."""
    q = np.eye(vectors.shape[0], dtype=vectors.dtype)
    for v, tau in zip(vectors.T, taus):
        q = q @ (np.eye(len(v), dtype=v.dtype) - tau * np.outer(v, np.conj(v)))
    return q


def _reflectors(packed, first_row):
    """The Householder vectors stored below row ``first_row + i`` of column ``i`` of ``packed``, with their
    implicit leading 1."""
    n = packed.shape[-1]
    vectors = np.zeros((n, n - 1), packed.dtype)
    for i in range(n - 1):
        vectors[i + first_row, i] = 1
        vectors[i + first_row + 1:, i] = packed[i + first_row + 1:, i]
    return vectors


@pytest.mark.parametrize("dtype", DTYPES)
def test_hessenberg_packs_a_unitary_reduction(dtype):
    a = _matrix((2, 4, 4), dtype, 4)
    with enable_x64(True):
        packed, taus = (np.asarray(r) for r in linalg.hessenberg(a))
    for x, p, tau in zip(a, packed, taus):
        q = _householder_product(_reflectors(p, 1), tau)
        _close(q @ np.triu(p, -1) @ _adjoint(q), x, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_tridiagonal_packs_a_unitary_reduction(dtype):
    a = _matrix((2, 4, 4), dtype, 5)
    a = (a + _adjoint(a)) / 2
    with enable_x64(True):
        packed, d, e, taus = (np.asarray(r) for r in linalg.tridiagonal(a))
    assert d.dtype == e.dtype == np.finfo(dtype).dtype
    for x, p, diag, off, tau in zip(a, packed, d, e, taus):
        q = _householder_product(_reflectors(p, 1), tau)
        t = np.diag(diag) + np.diag(off, -1) + np.diag(off, 1)
        _close(q @ t @ _adjoint(q), x, dtype)


def test_vmap_decomposes_each_matrix():
    a = _matrix((3, 2, 3), "float32", 6)
    w = np.asarray(jaxle_core.vmap(lambda x: linalg.eig(x, compute_left_eigenvectors=False)[0], in_axes=1)(a))
    for i in range(2):
        np.testing.assert_allclose(np.sort_complex(w[i]), np.sort_complex(np.linalg.eigvals(a[:, i])), rtol=1e-5,
                                   atol=1e-5)


def _sign_free_squares(x):
    return x * jaxle_core.lax.conj(x) if np.issubdtype(x.dtype, np.complexfloating) else x * x


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eigh_derivatives_match_finite_differences(dtype):
    with enable_x64(True):
        a = _matrix((3, 3), dtype, 7) + np.diag([0.0, 3.0, 6.0]).astype(dtype)
        check_grads(lambda x: linalg.eigh(x)[1], (a,), order=2, modes=("fwd", "rev"))
        check_grads(lambda x: _sign_free_squares(linalg.eigh(x)[0]), (a,), order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4)])
def test_svd_derivatives_match_finite_differences(dtype, shape):
    with enable_x64(True):
        a = _matrix(shape, dtype, 8)
        check_grads(lambda x: linalg.svd(x, compute_uv=False), (a,), order=2, modes=("fwd", "rev"))
        check_grads(lambda x: [_sign_free_squares(f) for f in linalg.svd(x, full_matrices=False)[::2]], (a,),
                    order=1, modes=("fwd", "rev"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (5, 3)])
def test_qdwh_is_the_polar_decomposition(shape, dtype):
    import scipy.linalg

    a = _matrix(shape, dtype, 9)
    with enable_x64(True):
        u, h, iterations, converged = (np.asarray(r) for r in linalg.qdwh(a))
    expected_u, expected_h = scipy.linalg.polar(a)
    assert u.dtype == h.dtype == np.dtype(dtype) and converged and 0 < iterations <= 10
    _close(u, expected_u, dtype)
    _close(h, expected_h, dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eig_derivatives_match_finite_differences(dtype):
    with enable_x64(True):
        a = _matrix((3, 3), dtype, 10) + np.diag([0.0, 3.0, 6.0]).astype(dtype)
        check_grads(lambda x: linalg.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0],
                    (a,), order=1, modes=("fwd", "rev"))
        check_grads(lambda x: linalg.eig(x, enable_eigvec_derivs=True)[1:], (a,), order=1, modes=("fwd",))
