"""Write decompositions_golden.json: the jaxprs (full text), values and errors of lax.linalg's eigh, eig, svd,
schur, hessenberg, tridiagonal and qdwh, and of the jvp, grad and vmap of those JAX differentiates and batches, as the
named module computes them:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_decompositions_golden.py jax

Each case maps a name to ``build(module) -> (function, args)``, where ``module`` is jax or jaxle_core; the cases
of ``X64_CASES`` run with 64-bit types enabled. Values are compared with a tolerance: the reference backend calls
the LAPACK routines JAX calls, through NumPy and SciPy.
"""

import importlib
import json
import sys

import numpy as np
from make_fft_golden import record_suite
from make_reductions_golden import HERE, rand, run_text_case


def _hermitian(n, dtype, batch=(), seed=0):
    """A Hermitian matrix (stack) with well separated eigenvalues, so eigenvectors are well defined."""
    a = rand((*batch, n, n), dtype, seed)
    return (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype) / 2 + np.diag(np.arange(n) * 3.0).astype(dtype)


def _resolve(module, params):
    """``params`` with ``Enum("EighImplementation.JACOBI")`` entries made members of the module's enum."""
    return {k: v.member(module) if isinstance(v, Enum) else v for k, v in params.items()}


class Enum(str):
    def member(self, module):
        enum_name, member = self.split(".")
        return getattr(getattr(module.lax.linalg, enum_name), member)


def _call(name, x, **params):
    def build(module):
        return (lambda a: getattr(module.lax.linalg, name)(a, **_resolve(module, params))), (x,)
    return build


def _jvp(name, x, **params):
    def build(module):
        def f(a, t):
            return module.jvp(lambda b: getattr(module.lax.linalg, name)(b, **params), (a,), (t,))
        return f, (x, rand(x.shape, x.dtype.name, 1))
    return build


def _vmap(name, x, in_axes, **params):
    def build(module):
        return module.vmap(lambda a: getattr(module.lax.linalg, name)(a, **params), in_axes=in_axes), (x,)
    return build


def _grad_eigh(x):
    def build(module):
        lax = module.lax

        def loss(a):
            v, w = lax.linalg.eigh(a)
            weights = np.arange(1.0, 1.0 + v.shape[-1] ** 2, dtype=w.dtype).reshape(v.shape)
            vv = lax.real(v * lax.conj(v)) if np.issubdtype(v.dtype, np.complexfloating) else v * v
            return lax.reduce_sum(w * w, tuple(range(w.ndim))) + lax.reduce_sum(vv * weights, tuple(range(v.ndim)))
        return module.grad(loss), (x,)
    return build


def _grad_svd(x, **params):
    def build(module):
        lax = module.lax

        def loss(a):
            u, s, vt = lax.linalg.svd(a, **params)
            weights = np.arange(1.0, 1.0 + u.shape[-2] * u.shape[-1], dtype=s.dtype).reshape(u.shape)
            uu = lax.real(u * lax.conj(u)) if np.issubdtype(u.dtype, np.complexfloating) else u * u
            return lax.reduce_sum(s * s, tuple(range(s.ndim))) + lax.reduce_sum(uu * weights, tuple(range(u.ndim)))
        return module.grad(loss), (x,)
    return build


_GENERAL = rand((3, 3), "float32", 2)
CASES = {
    # eigh
    "eigh": _call("eigh", _hermitian(3, "float32")),
    "eigh-complex": _call("eigh", _hermitian(3, "complex64")),
    "eigh-batch": _call("eigh", _hermitian(3, "float32", (2,))),
    "eigh-int": _call("eigh", np.array([[2, 1], [1, 3]], np.int32)),
    "eigh-upper-unsymmetrized": _call("eigh", _hermitian(3, "float32"), lower=False, symmetrize_input=False),
    "eigh-options": _call("eigh", _hermitian(3, "float32"), sort_eigenvalues=False, subset_by_index=(0, 3)),
    "eigh-empty": _call("eigh", np.ones((0, 0), np.float32)),
    "eigh-empty-batch": _call("eigh", np.ones((0, 2, 2), np.float32)),
    "err-eigh-float16": _call("eigh", np.eye(2, dtype=np.float16)),
    "err-eigh-non-square": _call("eigh", np.ones((2, 3), np.float32)),
    "err-eigh-non-square-unsymmetrized": _call("eigh", np.ones((2, 3), np.float32), symmetrize_input=False),
    "err-eigh-vector": _call("eigh", np.ones((3,), np.float32), symmetrize_input=False),
    "err-eigh-int-unsymmetrized": _call("eigh", np.ones((2, 2), np.int32), symmetrize_input=False),
    "err-eigh-subset": _call("eigh", _hermitian(3, "float32"), subset_by_index=(0, 1)),
    "err-eigh-jacobi": _call("eigh", _hermitian(3, "float32"), implementation=Enum("EighImplementation.JACOBI")),
    "eigh-qr": _call("eigh", _hermitian(3, "float32"), implementation=Enum("EighImplementation.QR")),
    "eig-lapack": _call("eig", _GENERAL, implementation=Enum("EigImplementation.LAPACK")),
    "svd-divide-and-conquer": _call("svd", rand((3, 3), "float32", 6),
                                    algorithm=Enum("SvdAlgorithm.DIVIDE_AND_CONQUER")),
    "err-svd-string-algorithm": _call("svd", rand((3, 3), "float32", 6), algorithm="QR"),
    "jvp-eigh": _jvp("eigh", _hermitian(3, "float32")),
    "jvp-eigh-complex-batch": _jvp("eigh", _hermitian(3, "complex64", (2,))),
    "jvp-eigh-unsymmetrized": _jvp("eigh", _hermitian(3, "float32"), symmetrize_input=False),
    "grad-eigh": _grad_eigh(_hermitian(3, "float32")),
    "grad-eigh-complex": _grad_eigh(_hermitian(2, "complex64")),
    "vmap-eigh": _vmap("eigh", np.moveaxis(_hermitian(3, "float32", (2,)), 0, 2), 2),
    # eig
    "eig": _call("eig", _GENERAL),
    "eig-complex": _call("eig", rand((3, 3), "complex64", 3)),
    "eig-batch": _call("eig", rand((2, 3, 3), "float32", 4)),
    "eig-right": _call("eig", _GENERAL, compute_left_eigenvectors=False),
    "eig-left": _call("eig", _GENERAL, compute_right_eigenvectors=False),
    "eig-values": _call("eig", _GENERAL, compute_left_eigenvectors=False, compute_right_eigenvectors=False),
    "eig-empty": _call("eig", np.ones((0, 0), np.float32)),
    "err-eig-float16": _call("eig", np.eye(2, dtype=np.float16)),
    "err-eig-non-square": _call("eig", np.ones((2, 3), np.float32)),
    "err-eig-vector": _call("eig", np.ones((3,), np.float32)),
    "err-eig-int": _call("eig", np.ones((2, 2), np.int32)),
    "err-eig-magma": _call("eig", _GENERAL, implementation=Enum("EigImplementation.MAGMA")),
    "jvp-eig-values": _jvp("eig", rand((3, 3), "float32", 26), compute_left_eigenvectors=False,
                           compute_right_eigenvectors=False),
    "jvp-eig-values-batch": _jvp("eig", rand((2, 3, 3), "float32", 27), compute_left_eigenvectors=False,
                                 compute_right_eigenvectors=False),
    "jvp-eig-vectors": _jvp("eig", rand((3, 3), "float32", 28), compute_left_eigenvectors=False,
                            enable_eigvec_derivs=True),
    "jvp-eig-vectors-complex-batch": _jvp("eig", rand((2, 3, 3), "complex64", 29), compute_left_eigenvectors=False,
                                          enable_eigvec_derivs=True),
    "jvp-eig-left-and-right": _jvp("eig", rand((3, 3), "float32", 28), enable_eigvec_derivs=True),
    "jvp-eig-left-complex-batch": _jvp("eig", rand((2, 3, 3), "complex64", 29), compute_right_eigenvectors=False,
                                       enable_eigvec_derivs=True),
    "err-jvp-eig-vectors": _jvp("eig", rand((3, 3), "float32", 28)),
    "grad-eig-values": lambda module: (module.grad(lambda a: module.lax.reduce_sum(module.lax.real(
        module.lax.linalg.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0]), (0,))),
        (rand((3, 3), "float32", 26),)),
    "vmap-eig": _vmap("eig", rand((3, 2, 3), "float32", 5), 1, compute_left_eigenvectors=False),
    # svd
    "svd": _call("svd", rand((3, 3), "float32", 6)),
    "svd-tall": _call("svd", rand((4, 3), "float32", 7)),
    "svd-wide-thin": _call("svd", rand((2, 4), "float32", 8), full_matrices=False),
    "svd-complex": _call("svd", rand((3, 2), "complex64", 9)),
    "svd-batch": _call("svd", rand((2, 3, 3), "float32", 10)),
    "svd-values": _call("svd", rand((4, 3), "float32", 7), compute_uv=False),
    "svd-qr": _call("svd", rand((4, 3), "float32", 7), algorithm=Enum("SvdAlgorithm.QR")),
    "svd-subset-all": _call("svd", rand((3, 3), "float32", 6), full_matrices=False, subset_by_index=(0, 3)),
    "svd-empty-rows": _call("svd", np.ones((0, 2), np.float32)),
    "svd-empty-columns-thin": _call("svd", np.ones((2, 0), np.float32), full_matrices=False),
    "err-svd-float16": _call("svd", np.eye(2, dtype=np.float16)),
    "err-svd-vector": _call("svd", np.ones((3,), np.float32)),
    "err-svd-int": _call("svd", np.ones((2, 2), np.int32)),
    "err-svd-subset-full": _call("svd", rand((3, 3), "float32", 6), subset_by_index=(0, 2)),
    "err-svd-subset": _call("svd", rand((3, 3), "float32", 6), full_matrices=False, subset_by_index=(0, 2)),
    "err-svd-jacobi": _call("svd", rand((3, 3), "float32", 6), algorithm=Enum("SvdAlgorithm.JACOBI")),
    "jvp-svd": _jvp("svd", rand((3, 3), "float32", 6)),
    "jvp-svd-values": _jvp("svd", rand((2, 4, 3), "float32", 11), compute_uv=False),
    "jvp-svd-tall": _jvp("svd", rand((4, 3), "float32", 7), full_matrices=False),
    "jvp-svd-wide-complex": _jvp("svd", rand((2, 3), "complex64", 12), full_matrices=False),
    "jvp-svd-complex-batch": _jvp("svd", rand((2, 3, 3), "complex64", 13), full_matrices=False),
    "err-jvp-svd-full-tall": _jvp("svd", rand((4, 3), "float32", 7)),
    "grad-svd": _grad_svd(rand((3, 3), "float32", 6)),
    "grad-svd-tall": _grad_svd(rand((4, 3), "float32", 7), full_matrices=False),
    "vmap-svd": _vmap("svd", rand((3, 2, 4), "float32", 14), 1, full_matrices=False),
    # schur
    "schur": _call("schur", _GENERAL),
    "schur-complex": _call("schur", rand((3, 3), "complex64", 3)),
    "schur-batch": _call("schur", rand((2, 3, 3), "float32", 4)),
    "schur-form-only": _call("schur", _GENERAL, compute_schur_vectors=False),
    "schur-empty": _call("schur", np.ones((0, 0), np.float32)),
    "err-schur-float16": _call("schur", np.eye(2, dtype=np.float16)),
    "err-schur-non-square": _call("schur", np.ones((2, 3), np.float32)),
    "err-schur-sort": _call("schur", _GENERAL, sort_eig_vals=True),
    "vmap-schur": _vmap("schur", rand((3, 2, 3), "float32", 5), 1),
    # hessenberg
    "hessenberg": _call("hessenberg", rand((4, 4), "float32", 15)),
    "hessenberg-complex": _call("hessenberg", rand((3, 3), "complex64", 16)),
    "hessenberg-batch": _call("hessenberg", rand((2, 3, 3), "float32", 17)),
    "hessenberg-empty-batch": _call("hessenberg", np.ones((0, 3, 3), np.float32)),
    "err-hessenberg-float16": _call("hessenberg", np.eye(2, dtype=np.float16)),
    "err-hessenberg-non-square": _call("hessenberg", np.ones((2, 3), np.float32)),
    "err-hessenberg-int": _call("hessenberg", np.ones((2, 2), np.int32)),
    "vmap-hessenberg": _vmap("hessenberg", rand((3, 2, 3), "float32", 5), 1),
    # tridiagonal
    "tridiagonal": _call("tridiagonal", _hermitian(4, "float32")),
    "tridiagonal-upper": _call("tridiagonal", _hermitian(4, "float32"), lower=False),
    "tridiagonal-complex": _call("tridiagonal", _hermitian(3, "complex64")),
    "tridiagonal-batch": _call("tridiagonal", _hermitian(3, "float32", (2,))),
    "err-tridiagonal-empty": _call("tridiagonal", np.ones((0, 0), np.float32)),
    "err-tridiagonal-float16": _call("tridiagonal", np.eye(2, dtype=np.float16)),
    "err-tridiagonal-non-square": _call("tridiagonal", np.ones((2, 3), np.float32)),
    "vmap-tridiagonal": _vmap("tridiagonal", rand((3, 2, 3), "float32", 5), 1),
    # qdwh (lax operations, jitted)
    "qdwh": _call("qdwh", rand((3, 3), "float32", 18)),
    "qdwh-tall": _call("qdwh", rand((4, 3), "float32", 19)),
    "qdwh-complex": _call("qdwh", rand((3, 2), "complex64", 20)),
    "qdwh-one-iteration": _call("qdwh", rand((3, 3), "float32", 18), max_iterations=1),
    "qdwh-eps": _call("qdwh", rand((3, 3), "float32", 18), eps=1e-3, max_iterations=5),
    "qdwh-hermitian": _call("qdwh", _hermitian(3, "float32"), is_hermitian=True),
    "qdwh-zero": _call("qdwh", np.zeros((2, 2), np.float32)),
    "qdwh-dynamic-shape": lambda module: (
        (lambda a: module.lax.linalg.qdwh(a, dynamic_shape=(3, 2))),
        (np.pad(rand((3, 2), "float32", 21), ((0, 0), (0, 1))),)),
    "err-qdwh-wide": _call("qdwh", rand((2, 3), "float32", 22)),
    "err-qdwh-int": _call("qdwh", np.ones((2, 2), np.int32)),
    "err-qdwh-vector": _call("qdwh", np.ones((3,), np.float32)),
}

X64_CASES = {
    "x64-qdwh": _call("qdwh", rand((3, 2), "float64", 23)),
    "x64-qdwh-complex": _call("qdwh", rand((2, 2), "complex128", 24)),
    "x64-qdwh-float32": _call("qdwh", rand((2, 2), "float32", 25)),
    "x64-eigh": _call("eigh", _hermitian(3, "float64")),
    "x64-eigh-complex": _call("eigh", _hermitian(3, "complex128")),
    "x64-eig": _call("eig", rand((3, 3), "float64", 2)),
    "x64-eig-complex": _call("eig", rand((3, 3), "complex128", 3)),
    "x64-svd": _call("svd", rand((4, 3), "float64", 7)),
    "x64-svd-complex": _call("svd", rand((2, 3), "complex128", 9)),
    "x64-schur": _call("schur", rand((3, 3), "float64", 2)),
    "x64-hessenberg-complex": _call("hessenberg", rand((3, 3), "complex128", 16)),
    "x64-tridiagonal": _call("tridiagonal", _hermitian(3, "float64")),
    "x64-jvp-eigh": _jvp("eigh", _hermitian(3, "float64")),
    "x64-jvp-svd": _jvp("svd", rand((3, 4), "float64", 8), full_matrices=False),
}


def record(module) -> dict:
    return record_suite(module, run_text_case, CASES, X64_CASES)


if __name__ == "__main__":
    outcomes = record(importlib.import_module(sys.argv[1]))
    (HERE / "decompositions_golden.json").write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
