"""Golden records of a sample of ``jax.scipy.linalg``, ``fft``, ``ndimage``, ``integrate`` and ``cluster``
functions (see scipy_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_linalg_golden.py jax
"""

import importlib
import sys

import numpy as np
import scipy_golden

_RNG = np.random.default_rng(7)
A = _RNG.standard_normal((3, 3)).astype(np.float32)
SPD = (A @ A.T + 3 * np.eye(3)).astype(np.float32)
B = _RNG.standard_normal(3).astype(np.float32)
SIGNAL = _RNG.standard_normal(6).astype(np.float32)
A2 = _RNG.standard_normal((2, 2)).astype(np.float32)
C32 = _RNG.standard_normal((3, 2)).astype(np.float32)
DIAGONAL = _RNG.standard_normal(5).astype(np.float32)
OFF_DIAGONAL = _RNG.standard_normal(4).astype(np.float32)
BATCH_B = np.linspace(-2.0, 3.0, 48, dtype=np.float32)  # right-hand sides with batch dimensions


def case(path, *args, **kwargs):
    """``m.scipy.<path>(*args, **kwargs)`` with ``args`` traced."""
    def build(m):
        target = m.scipy
        for part in path.split("."):
            target = getattr(target, part)
        return (lambda *a: target(*a, **kwargs)), list(args)
    return build


def _convolution_matrix(a, n, **kwargs):
    """``convolution_matrix(a, n, **kwargs)`` with ``a`` traced (``n`` is static)."""
    return lambda m: (lambda a: m.scipy.linalg.convolution_matrix(a, n, **kwargs), [a])


CASES = {
    "linalg.cholesky": case("linalg.cholesky", SPD),
    "linalg.cholesky_lower": case("linalg.cholesky", SPD, lower=True),
    "linalg.cho_solve": lambda m: (lambda c, b: m.scipy.linalg.cho_solve((c, False), b), [SPD, B]),
    **{f"linalg.cho_solve_batch{len(shape) - 2}": lambda m, shape=shape: (
        lambda c, b: m.scipy.linalg.cho_solve((c, False), b), [SPD, BATCH_B[:np.prod(shape)].reshape(shape)])
       for shape in [(2, 3, 4), (2, 2, 3, 4)]},
    "linalg.cho_solve_batched_factor": lambda m: (lambda c, b: m.scipy.linalg.cho_solve((c, True), b),
                                                  [np.stack([SPD, 2 * SPD]), BATCH_B[:12].reshape(3, 4)]),
    "linalg.solve_triangular_batch2": case("linalg.solve_triangular", A, BATCH_B[:48].reshape(2, 2, 3, 4)),
    "linalg.solve_triangular": case("linalg.solve_triangular", A, B),
    "linalg.solve_triangular_lower_t": case("linalg.solve_triangular", A, B, trans=1, lower=True),
    "linalg.lu_factor": case("linalg.lu_factor", A),
    "linalg.lu": case("linalg.lu", A),
    "linalg.lu_solve": lambda m: (lambda a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b), [A, B]),
    "linalg.solve": case("linalg.solve", A, B),
    "linalg.solve_pos": case("linalg.solve", SPD, B, assume_a="pos"),
    "linalg.qr": case("linalg.qr", A),
    "linalg.qr_r_tall": case("linalg.qr", A[:, :2], mode="r"),
    "linalg.qr_r_tall_pivoting": case("linalg.qr", A[:, :2], mode="r", pivoting=True),
    "linalg.svd": case("linalg.svd", A),
    "linalg.eigh": case("linalg.eigh", SPD),
    "linalg.schur": case("linalg.schur", A),
    "linalg.hessenberg": case("linalg.hessenberg", A),
    "linalg.det": case("linalg.det", A),
    "linalg.inv": case("linalg.inv", A),
    "linalg.expm": case("linalg.expm", A),
    "linalg.expm_small": case("linalg.expm", 0.1 * A),
    "linalg.expm_scaled": case("linalg.expm", 6 * A),
    "linalg.expm_frechet": case("linalg.expm_frechet", A, SPD),
    "linalg.expm_frechet_only": case("linalg.expm_frechet", 0.1 * A, SPD, compute_expm=False),
    "linalg.expm_batched": case("linalg.expm", np.stack([A, 0.1 * SPD])),
    "linalg.expm_frechet_batched": case("linalg.expm_frechet", np.stack([A, 0.1 * SPD]), np.stack([SPD, A])),
    "linalg.expm_frechet_bad_shape": case("linalg.expm_frechet", A, SPD[:2]),
    "linalg.polar": case("linalg.polar", A),
    "linalg.polar_left_wide": case("linalg.polar", A[:2], side="left"),
    "linalg.polar_svd_left": case("linalg.polar", A + 1j * SPD, side="left", method="svd"),
    "linalg.polar_svd_batched": case("linalg.polar", np.stack([A, SPD]), method="svd"),
    "linalg.polar_qdwh_left_square": case("linalg.polar", A, side="left"),
    "linalg.sqrtm": case("linalg.sqrtm", SPD),
    "linalg.sqrtm_complex": case("linalg.sqrtm", A + 1j * SPD),
    "linalg.block_diag": case("linalg.block_diag", A, B),
    "linalg.toeplitz": case("linalg.toeplitz", B),
    "linalg.toeplitz_row": case("linalg.toeplitz", B, SIGNAL[:4].copy()),
    "linalg.toeplitz_batched": case("linalg.toeplitz", A),
    "linalg.lu_solve_matrix": lambda m: (lambda a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b, trans=1),
                                         [A, SPD[:, :2].copy()]),
    "linalg.lu_solve_batched": lambda m: (lambda a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b),
                                          [np.stack([A, SPD]), SPD[:, :2].copy()]),
    "linalg.hilbert": lambda m: (lambda: m.scipy.linalg.hilbert(3), []),
    "linalg.schur_bad_output": case("linalg.schur", A, output="x"),
    "linalg.qr_bad_mode": case("linalg.qr", A, mode="x"),
    "linalg.eigh_eigvals": case("linalg.eigh", SPD, eigvals=(0, 1)),
    "linalg.expm_not_square": case("linalg.expm", B),
    "linalg.solve_bad_assume_a": case("linalg.solve", A, B, assume_a="x"),
    "linalg.solve_sylvester": case("linalg.solve_sylvester", A, A2 + 3 * np.eye(2, dtype=np.float32), C32),
    "linalg.solve_sylvester_eigen": case("linalg.solve_sylvester", A, A2 + 3 * np.eye(2, dtype=np.float32), C32,
                                         method="eigen"),
    "linalg.solve_sylvester_complex": case("linalg.solve_sylvester", A + 1j * SPD, A2, C32),
    "linalg.solve_sylvester_batched": case("linalg.solve_sylvester", np.stack([A, SPD]), A2, C32),
    "linalg.solve_sylvester_singular": case("linalg.solve_sylvester", SPD, -SPD, SPD),
    "linalg.solve_sylvester_bad_method": case("linalg.solve_sylvester", A, A2, C32, method="x"),
    "linalg.solve_sylvester_bad_shape": case("linalg.solve_sylvester", A, A2, C32.T),
    "linalg.funm": lambda m: (lambda a: m.scipy.linalg.funm(a, m.numpy.sin), [A]),
    "linalg.funm_disp": lambda m: (lambda a: m.scipy.linalg.funm(a, lambda x: m.numpy.exp(x) + 1, disp=False), [SPD]),
    "linalg.funm_complex": lambda m: (lambda a: m.scipy.linalg.funm(a, m.numpy.cos), [A + 1j * SPD]),
    "linalg.funm_not_square": lambda m: (lambda a: m.scipy.linalg.funm(a, m.numpy.cos), [C32]),
    "linalg.rsf2csf": lambda m: (lambda a: m.scipy.linalg.rsf2csf(*m.scipy.linalg.schur(a)), [A]),
    "linalg.rsf2csf_bad_shape": case("linalg.rsf2csf", A, C32),
    "linalg.eigh_tridiagonal": case("linalg.eigh_tridiagonal", DIAGONAL, OFF_DIAGONAL, eigvals_only=True),
    "linalg.eigh_tridiagonal_select": case("linalg.eigh_tridiagonal", DIAGONAL, OFF_DIAGONAL, eigvals_only=True,
                                           select="i", select_range=(1, 3)),
    "linalg.eigh_tridiagonal_tol": case("linalg.eigh_tridiagonal", DIAGONAL, OFF_DIAGONAL, eigvals_only=True,
                                        tol=1e-3),
    "linalg.eigh_tridiagonal_complex": case("linalg.eigh_tridiagonal", DIAGONAL + 0j, OFF_DIAGONAL + 1j,
                                            eigvals_only=True),
    "linalg.eigh_tridiagonal_one": case("linalg.eigh_tridiagonal", DIAGONAL[:1], OFF_DIAGONAL[:0], eigvals_only=True),
    "linalg.eigh_tridiagonal_int": case("linalg.eigh_tridiagonal", np.arange(3), np.arange(2), eigvals_only=True),
    "linalg.eigh_tridiagonal_mixed": case("linalg.eigh_tridiagonal", DIAGONAL, OFF_DIAGONAL + 0j, eigvals_only=True),
    "linalg.eigh_tridiagonal_empty_range": case("linalg.eigh_tridiagonal", DIAGONAL, OFF_DIAGONAL, eigvals_only=True,
                                                select="i", select_range=(3, 1)),
    "linalg.eigh_tridiagonal_bad_select": case("linalg.eigh_tridiagonal", DIAGONAL, OFF_DIAGONAL, eigvals_only=True,
                                               select="x"),
    "linalg.hankel": case("linalg.hankel", B),
    "linalg.hankel_row": case("linalg.hankel", SIGNAL, B),
    "linalg.hankel_batched": case("linalg.hankel", A, B),
    "linalg.hankel_scalar": case("linalg.hankel", B[0]),
    "linalg.circulant": case("linalg.circulant", SIGNAL),
    "linalg.circulant_batched": case("linalg.circulant", A),
    "linalg.companion": case("linalg.companion", SIGNAL),
    "linalg.companion_batched": case("linalg.companion", A),
    "linalg.companion_int": case("linalg.companion", np.array([1, -3, 2], np.int32)),
    "linalg.companion_short": case("linalg.companion", SIGNAL[:1]),
    "linalg.fiedler": case("linalg.fiedler", SIGNAL),
    "linalg.fiedler_companion": case("linalg.fiedler_companion", SIGNAL),
    "linalg.fiedler_companion_two": case("linalg.fiedler_companion", SIGNAL[:2]),
    "linalg.fiedler_companion_one": case("linalg.fiedler_companion", SIGNAL[:1]),
    "linalg.fiedler_companion_batched": case("linalg.fiedler_companion", A),
    "linalg.fiedler_companion_empty": case("linalg.fiedler_companion", SIGNAL[:0]),
    "linalg.convolution_matrix": _convolution_matrix(B, 5),
    "linalg.convolution_matrix_same": _convolution_matrix(SIGNAL, 4, mode="same"),
    "linalg.convolution_matrix_valid": _convolution_matrix(B, 5, mode="valid"),
    "linalg.convolution_matrix_batched": _convolution_matrix(A, 2, mode="same"),
    "linalg.convolution_matrix_bad_n": _convolution_matrix(B, 0),
    "linalg.convolution_matrix_bad_mode": _convolution_matrix(B, 3, mode="x"),
    "linalg.leslie": case("linalg.leslie", SIGNAL[:4], B),
    "linalg.leslie_batched": case("linalg.leslie", A, A[:, :2]),
    "linalg.leslie_bad_shape": case("linalg.leslie", SIGNAL[:4], SIGNAL[:2]),
    "linalg.dft": lambda m: (lambda: m.scipy.linalg.dft(5), []),
    "linalg.dft_sqrtn": lambda m: (lambda: m.scipy.linalg.dft(6, scale="sqrtn"), []),
    "linalg.dft_n": lambda m: (lambda: m.scipy.linalg.dft(3, scale="n"), []),
    "linalg.dft_bad_dtype": lambda m: (lambda: m.scipy.linalg.dft(3, dtype=np.float32), []),
    "linalg.invhilbert": lambda m: (lambda: m.scipy.linalg.invhilbert(5), []),
    "linalg.pascal": lambda m: (lambda: m.scipy.linalg.pascal(5), []),
    "linalg.pascal_lower": lambda m: (lambda: m.scipy.linalg.pascal(4, kind="lower"), []),
    "linalg.pascal_upper": lambda m: (lambda: m.scipy.linalg.pascal(4, kind="upper"), []),
    "linalg.pascal_bad_kind": lambda m: (lambda: m.scipy.linalg.pascal(4, kind="x"), []),
    "linalg.invpascal": lambda m: (lambda: m.scipy.linalg.invpascal(5), []),
    "linalg.invpascal_lower": lambda m: (lambda: m.scipy.linalg.invpascal(4, kind="lower"), []),
    "linalg.invpascal_upper": lambda m: (lambda: m.scipy.linalg.invpascal(4, kind="upper"), []),
    "linalg.hadamard": lambda m: (lambda: m.scipy.linalg.hadamard(4), []),
    "linalg.hadamard_float": lambda m: (lambda: m.scipy.linalg.hadamard(8, dtype=np.float32), []),
    "linalg.hadamard_bad_n": lambda m: (lambda: m.scipy.linalg.hadamard(6), []),
    "linalg.helmert": lambda m: (lambda: m.scipy.linalg.helmert(5), []),
    "linalg.helmert_full": lambda m: (lambda: m.scipy.linalg.helmert(4, full=True), []),
    "linalg.helmert_bad_n": lambda m: (lambda: m.scipy.linalg.helmert(0), []),
    "linalg.qr_multiply": case("linalg.qr_multiply", A, SPD[:2].copy()),
    "linalg.qr_multiply_left": case("linalg.qr_multiply", A, SPD[:, :2].copy(), mode="left"),
    "linalg.qr_multiply_tall_left": case("linalg.qr_multiply", C32, SPD[:2, :2].copy(), mode="left"),
    "linalg.qr_multiply_tall_right_vector": case("linalg.qr_multiply", C32, B),
    "linalg.qr_multiply_wide_left_vector": case("linalg.qr_multiply", C32.T.copy(), B[:2].copy(), mode="left"),
    "linalg.qr_multiply_pivoting": case("linalg.qr_multiply", A, SPD[:2].copy(), pivoting=True),
    "linalg.qr_multiply_conjugate": case("linalg.qr_multiply", A + 1j * SPD, SPD[:2].copy(), conjugate=True),
    "linalg.qr_multiply_conjugate_left_pivoting": case("linalg.qr_multiply", A + 1j * SPD, B, mode="left",
                                                       conjugate=True, pivoting=True),
    "linalg.qr_multiply_batched": case("linalg.qr_multiply", np.stack([A, SPD]), SPD[:2].copy()),
    "linalg.qr_multiply_bad_mode": case("linalg.qr_multiply", A, B, mode="x"),
    "linalg.qr_multiply_bad_shape": case("linalg.qr_multiply", A, SPD[:2].copy(), mode="left"),
    "linalg.expm_upper": case("linalg.expm", np.triu(A), upper_triangular=True),
    "linalg.expm_upper_scaled": case("linalg.expm", np.triu(6 * SPD), upper_triangular=True),
    "linalg.expm_upper_batched": case("linalg.expm", np.triu(np.stack([A, 0.1 * SPD])), upper_triangular=True),
    "fft.dct": case("fft.dct", SIGNAL),
    "fft.idct_ortho": case("fft.idct", SIGNAL, norm="ortho"),
    "fft.dct_type1": case("fft.dct", SIGNAL, type=1),
    "fft.dct_axis0_n": case("fft.dct", A, n=2, axis=0, norm="ortho"),
    "fft.dct_complex": case("fft.dct", SIGNAL + 1j * SIGNAL[::-1]),
    "fft.idct": case("fft.idct", SIGNAL, n=7),
    "fft.dctn": case("fft.dctn", A),
    "fft.dctn_ortho_s": case("fft.dctn", A, s=(2, 4), norm="ortho"),
    "fft.dctn_3d": case("fft.dctn", np.stack([A, SPD])),
    "fft.idctn": case("fft.idctn", A, norm="ortho"),
    "integrate.trapezoid": case("integrate.trapezoid", SIGNAL),
    "ndimage.map_coordinates": lambda m: (
        lambda x, i, j: m.scipy.ndimage.map_coordinates(x, [i, j], order=1), [A, B, B[::-1].copy()]),
    "ndimage.map_coordinates_reflect": lambda m: (
        lambda x, i, j: m.scipy.ndimage.map_coordinates(x, [i, j], order=1, mode="reflect"), [A, 3 * B, B - 2]),
    "ndimage.map_coordinates_mirror_nearest": lambda m: (
        lambda x, i: m.scipy.ndimage.map_coordinates(x, [i], order=0, mode="mirror"), [SIGNAL, 4 * SIGNAL]),
    "ndimage.map_coordinates_int": lambda m: (
        lambda x, i: m.scipy.ndimage.map_coordinates(x, [i], order=1, mode="wrap"),
        [np.arange(6, dtype=np.int32), 4 * SIGNAL]),
    "cluster.vq": case("cluster.vq.vq", A, A[:2].copy()),
    "cluster.vq_1d": case("cluster.vq.vq", SIGNAL, B),
}

if __name__ == "__main__":
    for submodule in ("linalg", "fft", "ndimage", "integrate", "cluster.vq"):
        importlib.import_module(f"{sys.argv[1]}.scipy.{submodule}")
    scipy_golden.write(CASES, "scipy_linalg_golden.json")
