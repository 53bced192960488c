"""Golden records of ``jax.scipy.linalg``'s LAPACK-backed functions in float64 and complex128 (64-bit types
enabled; see scipy_golden.py).

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_scipy_linalg_x64_golden.py jax
"""

import importlib
import sys

import numpy as np
import scipy_golden
from make_scipy_linalg_golden import _convolution_matrix, case

_RNG = np.random.default_rng(8)
A = _RNG.standard_normal((3, 3))
C = A + 1j * _RNG.standard_normal((3, 3))
B = _RNG.standard_normal((3, 2))


def _spd(a):
    return a @ a.conj().T + 3 * np.eye(3)


CASES = {}
for label, matrix in (("f64", A), ("c128", C)):
    spd, rhs = _spd(matrix), B.astype(matrix.dtype)
    CASES.update({
        f"linalg.cholesky_{label}": case("linalg.cholesky", spd),
        f"linalg.cho_solve_{label}": lambda m, spd=spd, rhs=rhs: (
            lambda c, b: m.scipy.linalg.cho_solve((c, True), b), [m.scipy.linalg.cholesky(spd, lower=True), rhs]),
        f"linalg.solve_triangular_{label}": case("linalg.solve_triangular", matrix, rhs, trans=2, lower=True),
        f"linalg.lu_{label}": case("linalg.lu", matrix),
        f"linalg.lu_solve_{label}": lambda m, matrix=matrix, rhs=rhs: (
            lambda a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b, trans=1), [matrix, rhs]),
        f"linalg.lu_solve_conj_{label}": lambda m, matrix=matrix, rhs=rhs: (
            lambda a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b, trans=2), [matrix, rhs]),
        f"linalg.lu_solve_vectors_{label}": lambda m, matrix=matrix, rhs=rhs: (
            lambda a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b),
            [np.stack([matrix, matrix.T]), rhs[:, 0].copy()]),
        f"linalg.solve_{label}": case("linalg.solve", matrix, rhs),
        f"linalg.qr_{label}": case("linalg.qr", matrix, mode="economic"),
        f"linalg.svd_{label}": case("linalg.svd", matrix),
        f"linalg.eigh_{label}": case("linalg.eigh", spd),
        f"linalg.schur_{label}": case("linalg.schur", matrix, output="complex"),
        f"linalg.hessenberg_{label}": case("linalg.hessenberg", matrix, calc_q=True),
        f"linalg.det_{label}": case("linalg.det", matrix),
        f"linalg.inv_{label}": case("linalg.inv", matrix),
        f"linalg.qr_multiply_{label}": case("linalg.qr_multiply", matrix, rhs.T.copy(), conjugate=True),
        f"linalg.qr_multiply_pivoting_{label}": case("linalg.qr_multiply", matrix, rhs, mode="left", pivoting=True),
        f"linalg.expm_upper_{label}": case("linalg.expm", np.triu(2 * matrix), upper_triangular=True),
    })
    CASES.update({
        f"linalg.solve_sylvester_{label}": case("linalg.solve_sylvester", matrix, spd[:2, :2], rhs),
        f"linalg.solve_sylvester_eigen_{label}": case("linalg.solve_sylvester", spd, spd[:2, :2], rhs, method="eigen"),
        f"linalg.funm_{label}": lambda m, matrix=matrix: (lambda a: m.scipy.linalg.funm(a, m.numpy.exp), [matrix]),
        f"linalg.eigh_tridiagonal_{label}": case("linalg.eigh_tridiagonal", np.diag(spd).copy(),
                                                 np.diag(spd, 1).copy(), eigvals_only=True),
    })
    # One scale per Pade degree (3, 5, 7, 9, 13) and one that needs squarings.
    CASES.update({f"linalg.expm_{label}_{scale}": case("linalg.expm", scale * matrix)
                  for scale in (0.004, 0.08, 0.3, 0.7, 1.5, 6.0)})

# The constructors whose arithmetic depends on the default float type.
CASES.update({
    "linalg.dft_c128": lambda m: (lambda: m.scipy.linalg.dft(6, scale="sqrtn"), []),
    "linalg.invhilbert_f64": lambda m: (lambda: m.scipy.linalg.invhilbert(6), []),
    "linalg.pascal_f64": lambda m: (lambda: m.scipy.linalg.pascal(6), []),
    "linalg.invpascal_f64": lambda m: (lambda: m.scipy.linalg.invpascal(6), []),
    "linalg.helmert_f64": lambda m: (lambda: m.scipy.linalg.helmert(5, full=True), []),
    "linalg.companion_f64": case("linalg.companion", A),
    "linalg.fiedler_companion_f64": case("linalg.fiedler_companion", A[0].copy()),
    "linalg.convolution_matrix_c128": _convolution_matrix(C[0].copy(), 4, mode="same"),
})

if __name__ == "__main__":
    importlib.import_module(f"{sys.argv[1]}.scipy.linalg")
    scipy_golden.write_x64(CASES, "scipy_linalg_x64_golden.json")
