"""Write jnp_linalg_lapack_golden.json: the LAPACK-backed ``jnp.linalg`` functions (decompositions, solvers, the
singular-value ones) and ``roots``/``polyfit`` as the named module runs them — jaxprs, values, weak types, errors.

    /work/jaxpeer/bin/python packages/numpy-api/tests/golden/make_jnp_linalg_lapack_golden.py jax
"""

import importlib

import jnp_golden
import numpy as np
from jnp_golden import rand


def linalg_case(name, *arrays, **kwargs):
    """``jnp.linalg.<name>(*arrays, **kwargs)`` with the arrays traced."""
    return lambda m: (lambda *a: getattr(m.numpy.linalg, name)(*a, **kwargs), list(arrays))


def const_case(fn):
    """``fn(jnp.linalg)`` with nothing traced (Python-level arguments, errors)."""
    return lambda m: (lambda: fn(m.numpy.linalg), [])


def jnp_of(linalg):
    """The numpy namespace whose ``linalg`` is ``linalg`` (roots and polyfit live beside it)."""
    return importlib.import_module(linalg.__name__.rsplit(".", 1)[0])


def roots_case(p):
    """``jnp.roots`` of the constant coefficients ``p`` (the leading zeros are stripped, which needs them
    concrete)."""
    return const_case(lambda linalg: jnp_of(linalg).roots(p))


def spd(n, dtype, seed, batch=()):
    """A well-conditioned Hermitian positive definite matrix (or a stack of them)."""
    x = rand(batch + (n, n), dtype, seed)
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


F32, C64 = "float32", "complex64"
SQ = rand((3, 3), F32, 1)
SQ4 = rand((4, 4), F32, 2)
BSQ = rand((2, 4, 4), F32, 3)
M34 = rand((3, 4), F32, 4)
M43 = rand((4, 3), F32, 5)
CSQ = rand((3, 3), C64, 6)
C34 = rand((3, 4), C64, 7)
SPD = spd(3, F32, 8)
CSPD = spd(3, C64, 9)
BSPD = spd(3, F32, 10, (2,))
I33 = rand((3, 3), "int32", 11)
V3 = rand((3,), F32, 12)
V4 = rand((4,), F32, 13)
SINGULAR = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.float32)
EMPTY = np.zeros((0, 0), np.float32)

CASES = {
    "cholesky": linalg_case("cholesky", SPD),
    "cholesky_upper": linalg_case("cholesky", SPD, upper=True),
    "cholesky_complex_upper": linalg_case("cholesky", CSPD, upper=True, symmetrize_input=False),
    "cholesky_batched": linalg_case("cholesky", BSPD),
    "cholesky_int": linalg_case("cholesky", np.array([[4, 2], [2, 3]], np.int32)),
    "cholesky_not_positive_definite": linalg_case("cholesky", -SPD),
    "cholesky_list_error": const_case(lambda la: la.cholesky([[1.0]])),
    "qr": linalg_case("qr", M34),
    "qr_tall": linalg_case("qr", M43),
    "qr_r": linalg_case("qr", M43, mode="r"),
    "qr_complete": linalg_case("qr", M43, mode="complete"),
    "qr_complex": linalg_case("qr", C34),
    "qr_int": linalg_case("qr", I33, mode="r"),
    "qr_batched": linalg_case("qr", BSQ),
    "qr_bad_mode": linalg_case("qr", SQ, mode="foo"),
    "qr_raw": linalg_case("qr", M34, mode="raw"),
    "qr_raw_complex_batched": linalg_case("qr", rand((2, 4, 3), C64, 32), mode="raw"),
    "svd": linalg_case("svd", M34),
    "svd_reduced": linalg_case("svd", M43, full_matrices=False),
    "svd_values": linalg_case("svd", M34, compute_uv=False),
    "svd_complex": linalg_case("svd", C34, full_matrices=False),
    "svd_hermitian": linalg_case("svd", SPD - 4 * np.eye(3, dtype=np.float32), hermitian=True),
    "svd_hermitian_values": linalg_case("svd", SPD - 4 * np.eye(3, dtype=np.float32), hermitian=True,
                                        compute_uv=False),
    "svd_hermitian_complex": linalg_case("svd", CSPD, hermitian=True),
    "svd_batched": linalg_case("svd", BSQ, compute_uv=False),
    "svdvals": linalg_case("svdvals", M43),
    "eigh": linalg_case("eigh", SPD),
    "eigh_upper_unsymmetrized": linalg_case("eigh", SQ, UPLO="U", symmetrize_input=False),
    "eigh_complex": linalg_case("eigh", CSPD),
    "eigh_batched": linalg_case("eigh", BSPD),
    "eigh_bad_uplo": linalg_case("eigh", SPD, UPLO="X"),
    "eigvalsh": linalg_case("eigvalsh", SPD),
    "eigvalsh_upper": linalg_case("eigvalsh", SQ, UPLO="U"),
    "eig_values": linalg_case("eigvals", SQ4),
    "eig_values_int": linalg_case("eigvals", I33),
    "eig_non_square": linalg_case("eig", M34),
    "eig": linalg_case("eig", SQ4),
    "eig_complex_batched": linalg_case("eig", rand((2, 3, 3), C64, 33)),
    "svd_subset": linalg_case("svd", M43, full_matrices=False, subset_by_index=(0, 2)),
    "svd_float16_error": linalg_case("svd", SQ.astype(np.float16)),
    "cholesky_float16_error": linalg_case("cholesky", SPD.astype(np.float16)),
    "lstsq_numpy_resid_traced_error": linalg_case("lstsq", M43, V4, numpy_resid=True),
    "cond_inf": linalg_case("cond", SQ4, p=np.inf),
    "norm_nuc_complex": linalg_case("norm", C34, ord="nuc"),
    "matrix_rank_hermitian": linalg_case("matrix_rank", SPD, hermitian=True),
    "slogdet_empty": linalg_case("slogdet", EMPTY),
    "det_empty": linalg_case("det", EMPTY),
    "inv_empty": linalg_case("inv", EMPTY),
    "solve_empty": linalg_case("solve", EMPTY, np.zeros((0,), np.float32)),
    "inv": linalg_case("inv", SQ),
    "inv_batched": linalg_case("inv", BSQ),
    "inv_int": linalg_case("inv", I33),
    "inv_non_square": linalg_case("inv", M34),
    "inv_vector": linalg_case("inv", V3),
    "solve_vector": linalg_case("solve", SQ, V3),
    "solve_matrix": linalg_case("solve", SQ, M34),
    "solve_batched": linalg_case("solve", BSQ, V4),
    "solve_complex": linalg_case("solve", CSQ, rand((3,), C64, 14)),
    "solve_mismatch": linalg_case("solve", SQ, V4),
    "solve_vector_a": linalg_case("solve", V3, V3),
    "solve_batched_vector_error": linalg_case("solve", BSQ, rand((2, 4), F32, 15)),
    "det_2x2": linalg_case("det", SQ[:2, :2]),
    "det_3x3": linalg_case("det", SQ),
    "det_3x3_batched": linalg_case("det", rand((2, 3, 3), F32, 16)),
    "det_4x4": linalg_case("det", SQ4),
    "det_batched": linalg_case("det", BSQ),
    "det_complex": linalg_case("det", CSQ),
    "det_int": linalg_case("det", I33),
    "det_singular": linalg_case("det", np.array([[1, 2, 3, 4], [2, 4, 6, 8], [0, 1, 0, 1], [1, 0, 0, 1]], np.float32)),
    "det_non_square": linalg_case("det", M34),
    "slogdet": linalg_case("slogdet", SQ),
    "slogdet_batched": linalg_case("slogdet", BSQ),
    "slogdet_complex": linalg_case("slogdet", CSQ),
    "slogdet_singular": linalg_case("slogdet", SINGULAR),
    "slogdet_bad_method": linalg_case("slogdet", SQ, method="foo"),
    "slogdet_qr": linalg_case("slogdet", SQ4, method="qr"),
    "slogdet_qr_complex": linalg_case("slogdet", CSQ, method="qr"),
    "slogdet_qr_batched": linalg_case("slogdet", BSQ, method="qr"),
    "slogdet_qr_non_square": linalg_case("slogdet", M34, method="qr"),
    "pinv": linalg_case("pinv", M34),
    "pinv_rtol": linalg_case("pinv", M43, rtol=0.1),
    "pinv_hermitian": linalg_case("pinv", SPD, hermitian=True),
    "pinv_both_tolerances": linalg_case("pinv", M34, rtol=0.1, rcond=0.1),
    "matrix_rank": linalg_case("matrix_rank", M34),
    "matrix_rank_singular": linalg_case("matrix_rank", SINGULAR),
    "matrix_rank_tol": linalg_case("matrix_rank", M34, tol=0.5),
    "matrix_rank_vector": linalg_case("matrix_rank", V3),
    "cond": linalg_case("cond", SQ),
    "cond_minus_2": linalg_case("cond", SQ, p=-2),
    "cond_fro": linalg_case("cond", SQ, p="fro"),
    "cond_1": linalg_case("cond", SQ4, p=1),
    "cond_non_square": linalg_case("cond", M34),
    "cond_non_square_p": linalg_case("cond", M34, p=1),
    "lstsq": linalg_case("lstsq", M43, V4),
    "lstsq_wide_matrix_rhs": linalg_case("lstsq", M34, rand((3, 2), F32, 17)),
    "lstsq_rcond": linalg_case("lstsq", M43, V4, rcond=0.5),
    "lstsq_mismatch": linalg_case("lstsq", M43, V3),
    "norm_2": linalg_case("norm", M34, ord=2),
    "norm_minus_2_keepdims": linalg_case("norm", M34, ord=-2, keepdims=True),
    "norm_nuc_axes": linalg_case("norm", rand((3, 2, 4), F32, 18), ord="nuc", axis=(2, 0)),
    "matrix_norm_2": linalg_case("matrix_norm", BSQ, ord=2),
    "matrix_power_minus_1": linalg_case("matrix_power", SQ, n=-1),
    "matrix_power_minus_3": linalg_case("matrix_power", SQ, n=-3),
    "tensorinv": linalg_case("tensorinv", rand((2, 3, 6), F32, 19), ind=1),
    "tensorinv_bad": linalg_case("tensorinv", M34, ind=1),
    "tensorinv_zero_ind": linalg_case("tensorinv", SQ, ind=0),
    "tensorsolve": linalg_case("tensorsolve", rand((2, 3, 6), F32, 20), rand((2, 3), F32, 21)),
    "tensorsolve_axes": linalg_case("tensorsolve", rand((6, 2, 3), F32, 22), rand((2, 3), F32, 23), axes=(0,)),
    "tensorsolve_bad": linalg_case("tensorsolve", rand((2, 3, 5), F32, 24), rand((2, 3), F32, 25)),
    "roots": roots_case(np.array([1.0, -6.0, 11.0, -6.0], np.float32)),
    "roots_leading_zeros": roots_case(np.array([0.0, 0.0, 1.0, 2.0, -3.0], np.float32)),
    "roots_int": roots_case(np.array([2, -3, 1], np.int32)),
    "roots_complex": roots_case(rand((4,), C64, 26)),
    "roots_constant": const_case(lambda la: jnp_of(la).roots(np.array([3.0], np.float32))),
    "roots_keep_zeros_traced": lambda m: (lambda p: m.numpy.roots(p, strip_zeros=False),
                                          [np.array([0.0, 1.0, 2.0, -3.0], np.float32)]),
    "roots_keep_zeros_all_zero": lambda m: (lambda p: m.numpy.roots(p, strip_zeros=False),
                                            [np.zeros(3, np.float32)]),
    "roots_traced_error": lambda m: (m.numpy.roots, [np.array([0.0, 1.0, 2.0], np.float32)]),
    "roots_2d_error": const_case(lambda la: jnp_of(la).roots(np.ones((2, 2), np.float32))),
    "polyfit": lambda m: (lambda x, y: m.numpy.polyfit(x, y, 2), [np.linspace(-1, 1, 6).astype(np.float32),
                                                               rand((6,), F32, 27)]),
    "polyfit_full": lambda m: (lambda x, y: m.numpy.polyfit(x, y, 1, full=True),
                               [np.linspace(0, 1, 5).astype(np.float32), rand((5,), F32, 28)]),
    "polyfit_weights_cov": lambda m: (lambda x, y, w: m.numpy.polyfit(x, y, 1, w=w, cov=True),
                                      [np.linspace(0, 1, 6).astype(np.float32), rand((6,), F32, 29),
                                       np.linspace(1, 2, 6).astype(np.float32)]),
    "polyfit_2d_y": lambda m: (lambda x, y: m.numpy.polyfit(x, y, 2), [np.linspace(-1, 1, 5).astype(np.float32),
                                                                    rand((5, 2), F32, 30)]),
    "polyfit_negative_degree": lambda m: (lambda x, y: m.numpy.polyfit(x, y, -1),
                                          [np.linspace(-1, 1, 5).astype(np.float32), rand((5,), F32, 31)]),
}


def grad_case(name, *arrays, **kwargs):
    """``grad`` of the real part of the sum of ``jnp.linalg.<name>``'s ``output`` (or only) result."""
    output = kwargs.pop("output", None)

    def build(m):
        def scalar(a):
            out = getattr(m.numpy.linalg, name)(a, **kwargs)
            return m.numpy.real(out if output is None else out[output]).sum()
        return m.grad(scalar), list(arrays)
    return build


def jvp_case(name, a, t, **kwargs):
    """``jvp`` of ``jnp.linalg.<name>`` at ``a`` along ``t``."""
    return lambda m: (lambda a, t: m.jvp(lambda x: getattr(m.numpy.linalg, name)(x, **kwargs), (a,), (t,)), [a, t])


# The derivative rules of pinv and slogdet, staged as JAX stages them.
CASES.update({
    "grad_pinv": grad_case("pinv", M34),
    "grad_pinv_tall": grad_case("pinv", M43),
    "grad_pinv_hermitian": grad_case("pinv", SPD, hermitian=True),
    "grad_pinv_batched": grad_case("pinv", BSQ),
    "jvp_pinv": jvp_case("pinv", M34, rand((3, 4), F32, 32)),
    "jvp_pinv_complex": jvp_case("pinv", C34, rand((3, 4), C64, 33)),
    "grad_slogdet": grad_case("slogdet", SQ, output=1),
    "grad_slogdet_batched": grad_case("slogdet", BSQ, output=1),
    "grad_slogdet_qr": grad_case("slogdet", SQ4, output=1, method="qr"),
    "jvp_slogdet": jvp_case("slogdet", SQ, rand((3, 3), F32, 34)),
    "jvp_slogdet_batched": jvp_case("slogdet", BSQ, rand((2, 4, 4), F32, 35)),
    "jvp_slogdet_complex": jvp_case("slogdet", CSQ, rand((3, 3), C64, 36)),
    "jvp_slogdet_qr": jvp_case("slogdet", SQ4, rand((4, 4), F32, 37), method="qr"),
})

if __name__ == "__main__":
    jnp_golden.write(CASES, "jnp_linalg_lapack_golden.json")
