"""``jax.scipy.linalg``, ``fft``, ``ndimage``, ``integrate`` and ``cluster``: values against SciPy (float32,
float64 and complex), gradients, jit/vmap, and JAX 0.10.2's jaxprs, values and errors for a sample
(golden/make_scipy_linalg_golden.py)."""

import sys

import numpy as np
import pytest
import scipy.cluster.vq
import scipy.fft
import scipy.linalg
import scipy.ndimage

import jaxle_numpy as jnp
from jaxle_core import config, jit, vmap
from jaxle_core.test_util import check_grads
from jaxle_numpy.scipy import fft, integrate, linalg, ndimage
from jaxle_numpy.scipy.cluster import vq

sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent / "golden"))
import jnp_golden  # noqa: E402
import make_scipy_linalg_x64_golden  # noqa: E402
import scipy_golden  # noqa: E402
from make_scipy_linalg_golden import CASES  # noqa: E402

GOLDEN = jnp_golden.load("scipy_linalg_golden.json")
X64_GOLDEN = jnp_golden.load("scipy_linalg_x64_golden.json")

@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    scipy_golden.assert_case_matches(CASES[name], GOLDEN[name])


@pytest.mark.parametrize("name", sorted(make_scipy_linalg_x64_golden.CASES))
def test_golden_x64(name):
    with config.enable_x64(True):
        scipy_golden.assert_case_matches(make_scipy_linalg_x64_golden.CASES[name], X64_GOLDEN[name])


_RNG = np.random.default_rng(0)
_A = _RNG.standard_normal((4, 4))
_SPD = _A @ _A.T + 4 * np.eye(4)
_B = _RNG.standard_normal(4)
DTYPES = [np.float32, np.float64, np.complex64]


def _tol(dtype) -> float:
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


def _close(actual, expected, dtype, scale=1.0) -> None:
    if not isinstance(expected, tuple):
        actual, expected = (actual,), (expected,)
    assert len(actual) == len(expected)
    for a, e in zip(actual, expected):
        np.testing.assert_allclose(np.asarray(a), e, rtol=_tol(dtype) * scale, atol=_tol(dtype) * scale)


def _operands(dtype):
    a, spd, b = _A.astype(dtype), _SPD.astype(dtype), _B.astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * _A.T.astype(dtype)
        spd = a @ a.conj().T + 4 * np.eye(4, dtype=dtype)
    return a, spd, b


@pytest.mark.parametrize("dtype", DTYPES)
def test_factorizations_against_scipy(dtype):
    with config.enable_x64(dtype == np.float64):
        a, spd, b = _operands(dtype)
        for lower in (False, True):
            _close(linalg.cholesky(spd, lower=lower), scipy.linalg.cholesky(spd, lower=lower), dtype)
            _close(linalg.cho_solve(linalg.cho_factor(spd, lower=lower), b),
                   scipy.linalg.cho_solve(scipy.linalg.cho_factor(spd, lower=lower), b), dtype)
        _close(linalg.lu(a), scipy.linalg.lu(a), dtype)
        _close(linalg.lu(a[:, :3]), scipy.linalg.lu(a[:, :3]), dtype)
        _close(linalg.lu(a[:3]), scipy.linalg.lu(a[:3]), dtype)
        _close(linalg.lu(a, permute_l=True), scipy.linalg.lu(a, permute_l=True), dtype)
        _close(linalg.lu_factor(a), scipy.linalg.lu_factor(a), dtype)
        for trans in (0, 1, 2):
            _close(linalg.lu_solve(linalg.lu_factor(a), b, trans=trans),
                   scipy.linalg.lu_solve(scipy.linalg.lu_factor(a), b, trans=trans), dtype)
        _close(linalg.lu_solve(linalg.lu_factor(a), a), scipy.linalg.lu_solve(scipy.linalg.lu_factor(a), a), dtype)
        q, r = linalg.qr(a)
        _close(q @ r, a, dtype)
        assert linalg.qr(a, mode="r")[0].shape == (4, 4) and linalg.qr(a[:, :2], mode="economic")[0].shape == (4, 2)
        q, r, p = linalg.qr(a, pivoting=True)
        _close(q @ r, a[:, np.asarray(p)], dtype)
        u, s, vh = linalg.svd(a)
        _close(s, scipy.linalg.svd(a)[1], dtype)
        _close((u * s) @ vh, a, dtype)
        w, v = linalg.eigh(spd)
        _close(w, scipy.linalg.eigh(spd)[0], dtype, scale=10)
        _close((v * w) @ np.conj(np.asarray(v)).T, spd, dtype, scale=10)
        _close(linalg.eigh(spd, eigvals_only=True), scipy.linalg.eigh(spd, eigvals_only=True), dtype, scale=10)
        for output in ("real", "complex"):
            t, z = linalg.schur(a, output=output)
            _close(z @ t @ np.conj(np.asarray(z)).T, a, dtype)
        h, q = linalg.hessenberg(a, calc_q=True)
        _close(q @ h @ np.conj(np.asarray(q)).T, a, dtype)
        _close(np.tril(np.asarray(h), -2), np.zeros((4, 4)), dtype)
        _close(linalg.polar(a), scipy.linalg.polar(a), dtype, scale=10)
        _close(linalg.polar(a, "left", method="svd"), scipy.linalg.polar(a, "left"), dtype)
        a43, c = a[:, :3], _RNG.standard_normal((2, 4)).astype(dtype)
        _close(linalg.qr_multiply(a43, c), scipy.linalg.qr_multiply(a43, c), dtype)
        _close(linalg.qr_multiply(a43, c.T[:3], mode="left"), scipy.linalg.qr_multiply(a43, c.T[:3], mode="left"),
               dtype)


def test_real_schur_to_complex_schur():
    with config.enable_x64(True):
        t, z = linalg.rsf2csf(*linalg.schur(_A))
        np.testing.assert_allclose(z @ t @ np.asarray(z).conj().T, _A, atol=1e-10)
        np.testing.assert_allclose(np.tril(np.asarray(t), -1), 0, atol=1e-10)


def _numpy_normal(seed, shape, dtype):
    """A stand-in for the jaxle-random sampler the meta-package registers: NumPy's normal draws for a seed."""
    return jnp.asarray(np.random.default_rng(seed).standard_normal(shape), dtype)


def test_eigh_tridiagonal_against_scipy(monkeypatch):
    d, e = _RNG.standard_normal(5), _RNG.standard_normal(4)
    with config.enable_x64(True):
        _close(linalg.eigh_tridiagonal(d, e, eigvals_only=True), scipy.linalg.eigh_tridiagonal(d, e, True),
               np.float64)
        with pytest.raises(RuntimeError, match="import jaxle"):  # no sampler registered without the meta-package
            linalg.eigh_tridiagonal(d, e)
        monkeypatch.setattr(linalg.tridiagonal, "_random", (lambda seed: seed, _numpy_normal))
        _close(np.abs(linalg.eigh_tridiagonal(d, e)[1]), np.abs(scipy.linalg.eigh_tridiagonal(d, e)[1]), np.float64)
        # a cluster of equal eigenvalues: its vectors come out orthonormal, spanning the eigenspace
        values, vectors = linalg.eigh_tridiagonal(np.array([2.0, 2.0, 2.0, 5.0]), np.array([0.0, 0.0, 1.0]))
        vectors = np.asarray(vectors)
        np.testing.assert_allclose(vectors.T @ vectors, np.eye(4), atol=1e-12)
        matrix = np.diag([2.0, 2.0, 2.0, 5.0]) + np.diag([0.0, 0.0, 1.0], 1) + np.diag([0.0, 0.0, 1.0], -1)
        np.testing.assert_allclose(matrix @ vectors, vectors * np.asarray(values), atol=1e-12)
        _close(linalg.eigh_tridiagonal(d, e, eigvals_only=True, select="i", select_range=(1, 3)),
               scipy.linalg.eigh_tridiagonal(d, e, True, select="i", select_range=(1, 3)), np.float64)
    with pytest.raises(NotImplementedError, match="select='v'"):
        linalg.eigh_tridiagonal(d, e, eigvals_only=True, select="v", select_range=(0, 1))


@pytest.mark.parametrize("dtype", DTYPES)
def test_solves_against_scipy(dtype):
    with config.enable_x64(dtype == np.float64):
        a, spd, b = _operands(dtype)
        for trans in (0, 1, 2, "C"):
            for lower in (False, True):
                _close(linalg.solve_triangular(a, b, trans=trans, lower=lower),
                       scipy.linalg.solve_triangular(a, b, trans=trans, lower=lower), dtype, scale=10)
        _close(linalg.solve(a, b), scipy.linalg.solve(a, b), dtype)
        _close(linalg.solve(spd, a, assume_a="pos"), scipy.linalg.solve(spd, a, assume_a="pos"), dtype)
        _close(linalg.inv(a), scipy.linalg.inv(a), dtype)
        _close(linalg.det(a), scipy.linalg.det(a), dtype)
        _close(linalg.solve_sylvester(a, spd, np.outer(b, b)), scipy.linalg.solve_sylvester(a, spd, np.outer(b, b)),
               dtype, scale=10)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matrix_functions_against_scipy(dtype):
    with config.enable_x64(dtype == np.float64):
        a, spd, _ = _operands(dtype)
        for scale in (0.01, 1.0, 6.0):
            _close(linalg.expm(scale * a) / np.abs(scipy.linalg.expm(scale * a)).max(),
                   scipy.linalg.expm(scale * a) / np.abs(scipy.linalg.expm(scale * a)).max(), dtype, scale=10)
        _close(linalg.expm(np.stack([a, 2 * a])), np.stack([scipy.linalg.expm(a), scipy.linalg.expm(2 * a)]), dtype,
               scale=10)
        _close(linalg.expm_frechet(a, spd), scipy.linalg.expm_frechet(a, spd), dtype, scale=50)
        _close(linalg.sqrtm(spd), scipy.linalg.sqrtm(spd), dtype, scale=10)
        _close(linalg.funm(a, jnp.sin), scipy.linalg.funm(a, np.sin), dtype, scale=10)


def test_matrix_exponential_errors_and_limits():
    with pytest.raises(ValueError, match="square matrix"):
        linalg.expm(np.ones(3))
    assert np.isnan(np.asarray(linalg.expm(1e6 * _A.astype(np.float32), max_squarings=2))).all()


def test_special_matrices_against_scipy():
    b = _B
    with config.enable_x64(True):
        pairs = [
            (linalg.block_diag(_A, b, 3.0), scipy.linalg.block_diag(_A, b, 3.0)),
            (linalg.toeplitz(b), scipy.linalg.toeplitz(b)),
            (linalg.toeplitz(b, b[:3] + 1), scipy.linalg.toeplitz(b, b[:3] + 1)),
            (linalg.toeplitz(b + 1j), scipy.linalg.toeplitz(b + 1j)),
            (linalg.hankel(b), scipy.linalg.hankel(b)), (linalg.hankel(b, b[:3]), scipy.linalg.hankel(b, b[:3])),
            (linalg.circulant(b), scipy.linalg.circulant(b)), (linalg.companion(b), scipy.linalg.companion(b)),
            (linalg.fiedler(b), scipy.linalg.fiedler(b)), (linalg.dft(5), scipy.linalg.dft(5)),
            (linalg.dft(4, "n"), scipy.linalg.dft(4, "n")), (linalg.hilbert(4), scipy.linalg.hilbert(4)),
            (linalg.hadamard(8), scipy.linalg.hadamard(8)), (linalg.helmert(4), scipy.linalg.helmert(4)),
            (linalg.helmert(4, True), scipy.linalg.helmert(4, True)),
            (linalg.leslie(b, b[:3]), scipy.linalg.leslie(b, b[:3])),
            (linalg.invhilbert(5) / 1e3, scipy.linalg.invhilbert(5) / 1e3),
            *[(linalg.fiedler_companion(np.arange(1.0, k + 1)), scipy.linalg.fiedler_companion(np.arange(1.0, k + 1)))
              for k in range(2, 8)],
            *[(linalg.convolution_matrix(b[:3], n, mode), scipy.linalg.convolution_matrix(b[:3], n, mode))
              for mode in ("full", "same", "valid") for n in (2, 5)],
            *[(f(5, kind), getattr(scipy.linalg, f.__name__)(5, kind)) for f in (linalg.pascal, linalg.invpascal)
              for kind in ("symmetric", "lower", "upper")],
        ]
        for actual, expected in pairs:
            np.testing.assert_allclose(np.asarray(actual), expected, atol=1e-6)
    assert linalg.hadamard(4).dtype == np.int32 and linalg.dft(3).dtype == np.complex64
    with pytest.raises(ValueError, match="positive power of 2"):
        linalg.hadamard(3)


def test_gradients():
    a, spd = _A.astype(np.float64), _SPD.astype(np.float64)
    with config.enable_x64(True):
        check_grads(lambda x: linalg.cholesky(x @ x.T + 4 * np.eye(4)), (a,), order=1, modes=("rev",))
        check_grads(lambda x: linalg.solve_triangular(x, _B, lower=True), (spd,), order=1, modes=("fwd", "rev"))
        check_grads(lambda x: linalg.cho_solve((x, True), _B), (np.linalg.cholesky(spd),), order=1, modes=("rev",))
        check_grads(linalg.expm, (0.3 * a,), order=1, modes=("fwd", "rev"))
        check_grads(lambda x: linalg.solve(x @ x.T + 4 * np.eye(4), _B, assume_a="pos"), (a,), order=1,
                    modes=("fwd", "rev"))
        check_grads(lambda x: linalg.det(x), (a,), order=1, modes=("rev",))


def test_jit_and_vmap():
    stack = np.stack([_SPD, 2 * _SPD]).astype(np.float32)
    np.testing.assert_allclose(vmap(linalg.cholesky)(stack), np.stack([scipy.linalg.cholesky(m) for m in stack]),
                               rtol=1e-4)
    np.testing.assert_allclose(jit(linalg.lu_factor)(stack[0])[0], scipy.linalg.lu_factor(stack[0])[0], rtol=1e-4)
    np.testing.assert_allclose(vmap(lambda m: linalg.solve_triangular(m, _B.astype(np.float32)))(stack),
                               np.stack([scipy.linalg.solve_triangular(m, _B) for m in stack]), rtol=1e-4)


@pytest.mark.parametrize("norm", [None, "ortho"])
def test_dct_against_scipy(norm):
    x = _RNG.standard_normal((4, 5)).astype(np.float32)
    for n in (None, 3, 7):
        np.testing.assert_allclose(fft.dct(x, n=n, norm=norm), scipy.fft.dct(x, n=n, norm=norm), atol=1e-5)
        np.testing.assert_allclose(fft.idct(x, n=n, norm=norm, axis=0), scipy.fft.idct(x, n=n, norm=norm, axis=0),
                                   atol=1e-5)
    np.testing.assert_allclose(fft.dctn(x, norm=norm), scipy.fft.dctn(x, norm=norm), atol=1e-4)
    np.testing.assert_allclose(fft.idctn(x, s=(3, 6), norm=norm), scipy.fft.idctn(x, s=(3, 6), norm=norm), atol=1e-4)
    np.testing.assert_allclose(fft.idct(fft.dct(x, norm=norm), norm=norm), x, atol=1e-5)
    assert fft.dct(np.arange(6)).dtype == np.float32


@pytest.mark.parametrize("mode", ["constant", "nearest", "wrap", "mirror", "reflect"])
@pytest.mark.parametrize("order", [0, 1])
def test_map_coordinates_against_scipy(mode, order):
    image = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    points = [np.array([-0.7, 0.5, 1.2, 2.6, 3.3]), np.array([0.5, -1.3, 3.7, 2.2, 4.6])]
    scipy_mode = {"wrap": "grid-wrap", "constant": "grid-constant"}.get(mode, mode)
    np.testing.assert_allclose(ndimage.map_coordinates(image, points, order, mode=mode, cval=-1.0),
                               scipy.ndimage.map_coordinates(image, points, order=order, mode=scipy_mode, cval=-1.0),
                               atol=1e-5)


def test_map_coordinates_errors():
    with pytest.raises(ValueError, match="1 != 2"):
        ndimage.map_coordinates(np.ones((3, 4)), [np.zeros(1)], 1)
    with pytest.raises(NotImplementedError, match="order<=1"):
        ndimage.map_coordinates(np.ones((3, 4)), [np.zeros(1), np.zeros(1)], 3)


def test_trapezoid_and_vq():
    rng = np.random.default_rng(9)
    y = rng.standard_normal((3, 5)).astype(np.float32)
    np.testing.assert_allclose(integrate.trapezoid(y, dx=0.5, axis=0), np.trapezoid(y, dx=0.5, axis=0), rtol=1e-6,
                               atol=1e-6)
    obs, book = rng.random((6, 2)), rng.random((3, 2))
    codes, distances = vq.vq(obs, book)
    expected_codes, expected_distances = scipy.cluster.vq.vq(obs, book)
    np.testing.assert_array_equal(codes, expected_codes)
    np.testing.assert_allclose(distances, expected_distances, rtol=1e-6)
    with pytest.raises(ValueError, match="same rank"):
        vq.vq(np.ones((3, 2)), np.ones(3))
