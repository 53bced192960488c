"""The LAPACK-backed jnp.linalg functions, roots and polyfit against NumPy over float32/float64/complex, batches and
zero-size matrices, under jit and vmap, with gradients checked numerically and JAX's errors for half precision."""

import jnp_golden
import numpy as np
import pytest

import jaxle_core
import jaxle_numpy as jnp
from jaxle_core.test_util import check_grads

DTYPES = ["float32", "float64", "complex64", "complex128"]


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def _close(got, expected, dtype):
    np.testing.assert_allclose(np.asarray(got), expected, rtol=_tol(dtype), atol=_tol(dtype))


def _matrix(shape, dtype, seed):
    return jnp_golden.rand(shape, dtype, seed)


def _spd(n, dtype, seed, batch=()):
    x = _matrix(batch + (n, n), dtype, seed)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


@pytest.fixture(autouse=True)
def _x64():
    with jaxle_core.config.enable_x64(True):
        yield


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [(), (2,)])
def test_factorizations_reconstruct_their_matrix(dtype, batch):
    a = _spd(3, dtype, 1, batch)
    lower = jnp.linalg.cholesky(a)
    _close(lower, np.linalg.cholesky(a), dtype)
    _close(jnp.linalg.cholesky(a, upper=True), np.conj(np.swapaxes(np.linalg.cholesky(a), -1, -2)), dtype)
    m = _matrix(batch + (4, 3), dtype, 2)
    q, r = jnp.linalg.qr(m)
    _close(np.asarray(q) @ np.asarray(r), m, dtype)
    _close(np.abs(np.asarray(r)), np.abs(np.linalg.qr(m)[1]), dtype)
    u, s, vh = jnp.linalg.svd(m, full_matrices=False)
    _close(s, np.linalg.svd(m, compute_uv=False), dtype)
    _close((np.asarray(u) * np.asarray(s)[..., None, :]) @ np.asarray(vh), m, dtype)
    _close(jnp.linalg.svdvals(m), np.linalg.svd(m, compute_uv=False), dtype)
    w, v = jnp.linalg.eigh(a)
    _close(w, np.linalg.eigvalsh(a), dtype)
    _close(np.asarray(v) @ (np.asarray(w)[..., :, None] * np.conj(np.swapaxes(np.asarray(v), -1, -2))), a, dtype)
    _close(jnp.linalg.eigvalsh(a), np.linalg.eigvalsh(a), dtype)
    general = _matrix(batch + (3, 3), dtype, 3)
    w, v = jnp.linalg.eig(general)
    _close(np.asarray(general) @ np.asarray(v), np.asarray(v) * np.asarray(w)[..., None, :], dtype)
    _close(np.sort_complex(np.asarray(jnp.linalg.eigvals(general)).ravel()),
           np.sort_complex(np.linalg.eigvals(general).ravel()), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("batch", [(), (2,)])
def test_solvers_match_numpy(dtype, batch):
    a = _matrix(batch + (4, 4), dtype, 4) + 4 * np.eye(4, dtype=dtype)
    b = _matrix(batch + (4, 2), dtype, 5)
    _close(jnp.linalg.solve(a, b), np.linalg.solve(a, b), dtype)
    vector = b.reshape(-1, 2)[:4, 0]  # one right-hand side vector, broadcast over the batch
    _close(jnp.linalg.solve(a, vector), np.linalg.solve(a, vector), dtype)
    _close(jnp.linalg.inv(a), np.linalg.inv(a), dtype)
    _close(jnp.linalg.det(a), np.linalg.det(a), dtype)
    _close(jnp.linalg.det(a[..., :3, :3]), np.linalg.det(a[..., :3, :3]), dtype)
    _close(jnp.linalg.det(a[..., :2, :2]), np.linalg.det(a[..., :2, :2]), dtype)
    sign, logabsdet = jnp.linalg.slogdet(a)
    expected_sign, expected_log = np.linalg.slogdet(a)
    _close(sign, expected_sign, dtype)
    _close(logabsdet, expected_log, dtype)
    _close(jnp.linalg.pinv(a[..., :3]), np.linalg.pinv(a[..., :3]), dtype)
    _close(jnp.linalg.matrix_power(a, -2), np.linalg.matrix_power(a, -2), dtype)
    _close(jnp.linalg.norm(a, 2, axis=(-2, -1)), np.linalg.norm(a, 2, axis=(-2, -1)), dtype)
    _close(jnp.linalg.norm(a, "nuc", axis=(-2, -1)), np.linalg.norm(a, "nuc", axis=(-2, -1)), dtype)
    _close(jnp.linalg.cond(a), np.linalg.cond(a), dtype)
    _close(jnp.linalg.cond(a, p=1), np.linalg.cond(a, p=1), dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_lstsq_matches_numpy(dtype, shape):
    a = _matrix(shape, dtype, 6)
    b = _matrix((shape[0], 2), dtype, 7)
    x, residuals, rank, s = jnp.linalg.lstsq(a, b)
    expected = np.linalg.lstsq(a, b, rcond=None)
    _close(x, expected[0], dtype)
    assert int(rank) == expected[2]
    _close(s, expected[3], dtype)
    if shape[0] > shape[1]:
        _close(residuals, expected[1], dtype)
        _close(jnp.linalg.lstsq(a, b, numpy_resid=True)[1], expected[1], dtype)
    else:
        assert jnp.linalg.lstsq(a, b, numpy_resid=True)[1].shape == (0,)


def test_rank_of_rank_deficient_matrices():
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.float32)
    assert int(jnp.linalg.matrix_rank(a)) == 2
    assert int(jnp.linalg.matrix_rank(np.eye(4))) == 4
    assert int(jnp.linalg.matrix_rank(a, hermitian=False, tol=10.0)) == np.sum(np.linalg.svd(a, compute_uv=False) > 10)
    assert float(jnp.linalg.det(a)) == 0.0
    sign, logabsdet = jnp.linalg.slogdet(a)
    assert float(sign) == 0.0 and float(logabsdet) == -np.inf


def test_tensor_solvers_match_numpy():
    a = _matrix((2, 3, 6), "float64", 8)
    b = _matrix((2, 3), "float64", 9)
    _close(jnp.linalg.tensorsolve(a, b), np.linalg.tensorsolve(a, b), "float64")
    _close(jnp.linalg.tensorinv(a, ind=2), np.linalg.tensorinv(a, ind=2), "float64")


@pytest.mark.parametrize("function", [jnp.linalg.inv, jnp.linalg.det, jnp.linalg.cholesky, jnp.linalg.svdvals,
                                      jnp.linalg.eigvalsh, lambda a: jnp.linalg.qr(a)[1],
                                      lambda a: jnp.linalg.slogdet(a)[1]])
def test_zero_size_matrices(function):
    out = function(np.zeros((2, 0, 0), np.float32))
    assert out.shape[0] == 2 and out.size == (2 if out.ndim == 1 else 0)


def test_under_jit_and_vmap():
    a = _spd(3, "float64", 10, (4,))
    b = _matrix((4, 3), "float64", 11)
    _close(jaxle_core.vmap(jnp.linalg.solve)(a, b), np.linalg.solve(a, b[..., None])[..., 0], "float64")
    _close(jaxle_core.vmap(jnp.linalg.det)(a), np.linalg.det(a), "float64")
    _close(jaxle_core.jit(jnp.linalg.inv)(a), np.linalg.inv(a), "float64")
    _close(jaxle_core.vmap(lambda m: jnp.linalg.eigh(m)[0])(a), np.linalg.eigvalsh(a), "float64")
    _close(jaxle_core.jit(jnp.linalg.pinv)(a), np.linalg.pinv(a), "float64")


@pytest.mark.parametrize("name, function, order", [
    ("det", jnp.linalg.det, 2),
    ("det_4x4", jnp.linalg.det, 1),  # second order through the adjugate is slow to check; det covers it
    ("slogdet", lambda a: jnp.linalg.slogdet(a)[1], 1),
    ("inv", jnp.linalg.inv, 2),
    ("solve", lambda a: jnp.linalg.solve(a, np.arange(3.0)), 2),
    ("cholesky", lambda a: jnp.linalg.cholesky(a @ a.T + 3 * jnp.eye(a.shape[0])), 2),
    ("eigh", lambda a: jnp.linalg.eigh(a + a.T)[0], 2),
    ("svd", lambda a: jnp.linalg.svd(a, compute_uv=False), 2),
    ("pinv", jnp.linalg.pinv, 2),
])
def test_gradients(name, function, order):
    size = 4 if name == "det_4x4" else 3
    a = _matrix((size, size), "float64", 12) + 3 * np.eye(size)
    check_grads(function, (a,), order=order, modes=["fwd", "rev"], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("function", [jnp.linalg.cholesky, jnp.linalg.inv, jnp.linalg.svd, jnp.linalg.eigh,
                                      jnp.linalg.qr, jnp.linalg.eigvals])
def test_half_precision_is_refused(function):
    with pytest.raises(NotImplementedError, match="Unsupported dtype float16"):
        function(np.eye(3, dtype=np.float16))


def test_errors():
    with pytest.raises(ValueError, match=r"Argument to inv must have shape \[..., n, n\], got \(2, 3\)."):
        jnp.linalg.inv(np.ones((2, 3)))
    with pytest.raises(ValueError, match="UPLO must be one of None, 'L', or 'U', got X"):
        jnp.linalg.eigh(np.eye(2), UPLO="X")
    with pytest.raises(ValueError, match="Unsupported QR decomposition mode 'foo'"):
        jnp.linalg.qr(np.eye(2), mode="foo")
    with pytest.raises(TypeError, match="jnp.linalg.solve requires ndarray or scalar arguments"):
        jnp.linalg.solve([[1.0]], [1.0])


@pytest.mark.parametrize("coefficients", [[1.0, -6.0, 11.0, -6.0], [0.0, 0.0, 2.0, 1.0], [1.0, 0.0, 1.0],
                                          [3.0], [1j, 2.0, 1.0 - 1j]])
def test_roots_match_numpy(coefficients):
    p = np.array(coefficients)
    got = np.sort_complex(np.asarray(jnp.roots(p)))
    np.testing.assert_allclose(got, np.sort_complex(np.roots(p)), rtol=1e-6, atol=1e-6)
    kept = np.asarray(jaxle_core.jit(lambda c: jnp.roots(c, strip_zeros=False))(p))
    leading = len(p) - len(np.trim_zeros(p, "f"))
    assert np.isnan(kept[len(kept) - leading:]).all() if leading else len(kept) == len(p) - 1


@pytest.mark.parametrize("deg", [0, 1, 3])
def test_polyfit_matches_numpy(deg):
    x = np.linspace(-1, 1, 7)
    y = np.stack([np.cos(3 * x), x ** 3], axis=1)
    w = np.linspace(1, 2, 7)
    _close(jnp.polyfit(x, y, deg), np.polyfit(x, y, deg), "float64")
    got, expected = jnp.polyfit(x, y[:, 0], deg, w=w, cov=True), np.polyfit(x, y[:, 0], deg, w=w, cov=True)
    _close(got[0], expected[0], "float64")
    _close(got[1], expected[1], "float64")
    full, expected_full = jnp.polyfit(x, y[:, 1], deg, full=True), np.polyfit(x, y[:, 1], deg, full=True)
    for g, e in zip(full, expected_full):
        _close(g, e, "float64")


def _cofactors(a):
    """The matrix of cofactors (the gradient of det), from the minors."""
    n = a.shape[0]
    return np.array([[(-1) ** (i + j) * np.linalg.det(np.delete(np.delete(a, i, 0), j, 1)) for j in range(n)]
                     for i in range(n)])


@pytest.mark.parametrize("a", [
    np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]]),  # rank 3
    np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0], [3.0, 6.0, 9.0, 12.0], [1.0, 0.0, 0.0, 1.0]]),  # rank 2
    np.zeros((4, 4)),
])
def test_det_gradient_of_singular_matrices_is_the_cofactor_matrix(a):
    np.testing.assert_allclose(np.asarray(jaxle_core.grad(jnp.linalg.det)(a)), _cofactors(a), atol=1e-9)
