"""Write linalg_golden.json: the jaxprs (full text), values and errors of lax.linalg's factorizations and solves, and
of their jvp, grad and vmap, as the named module computes them:

    /work/jaxpeer/bin/python packages/core/tests/golden/make_linalg_golden.py jax

Each case maps a name to ``build(module) -> (function, args)``, where ``module`` is jax or jaxle_core; the cases
of ``X64_CASES`` run with 64-bit types enabled.
"""

import importlib
import json
import sys

import numpy as np
from make_fft_golden import record_case, record_suite
from make_reductions_golden import HERE, rand


def spd(shape, dtype, seed=0):
    """Hermitian positive definite matrices ``m m^H + n I`` of ``shape``."""
    m = rand(shape, "complex128" if "complex" in dtype else "float64", seed)
    return (m @ np.conj(np.swapaxes(m, -1, -2)) + shape[-1] * np.eye(shape[-1])).astype(dtype)


def upper(shape, dtype, seed=0):
    """Well-conditioned upper triangular matrices (a dominant diagonal)."""
    m = np.triu(rand(shape, dtype, seed))
    return (m + 4 * np.eye(shape[-1], dtype=m.dtype)).astype(dtype)


def _call(name, *args, **params):
    def build(module):
        fn = getattr(module.lax.linalg, name)
        return (lambda *xs: fn(*xs, **params)), args
    return build


def _first(name, *args, **params):
    """The first result of ``name`` (whose other results are integers)."""
    def build(module):
        fn = getattr(module.lax.linalg, name)
        return (lambda *xs: fn(*xs, **params)[0]), args
    return build


def _leaves(outs):
    """The arrays of nested tuples and lists, in order."""
    if isinstance(outs, (tuple, list)):
        return [leaf for out in outs for leaf in _leaves(out)]
    return [outs]


def _jvp(build_fn):
    """The jvp of a case's function, tangents drawn like its (inexact) arguments."""
    def build(module):
        fn, args = build_fn(module)
        tangents = tuple(rand(np.shape(a), np.asarray(a).dtype.name, 7 + i) for i, a in enumerate(args))
        return (lambda *xs: _leaves(module.jvp(fn, xs[:len(args)], xs[len(args):]))), (*args, *tangents)
    return build


def _real_sum(module, ys):
    """A real scalar depending on every element of the (inexact) outputs ``ys``."""
    lax = module.lax
    total = 0.0
    for y in ys if isinstance(ys, (tuple, list)) else [ys]:
        if not np.issubdtype(y.dtype, np.inexact):
            continue
        axes = tuple(range(y.ndim))
        parts = [lax.real(y), lax.imag(y)] if np.issubdtype(y.dtype, np.complexfloating) else [y]
        for i, part in enumerate(parts):
            total = total + lax.reduce_sum(part * part * (i + 1.0), axes)
    return total


def _grad(build_fn, argnums=0):
    def build(module):
        fn, args = build_fn(module)
        return module.grad(lambda *xs: _real_sum(module, fn(*xs)), argnums=argnums), args
    return build


def _vmap(build_fn, in_axes=0, out_axes=0):
    def build(module):
        fn, args = build_fn(module)
        batched = module.vmap(fn, in_axes=in_axes, out_axes=out_axes)
        return (lambda *xs: _leaves(batched(*xs))), args
    return build


F32, C64 = "float32", "complex64"
A = rand((4, 4), F32, 1)
TALL = rand((5, 3), F32, 2)
WIDE = rand((3, 5), F32, 3)
B = rand((4, 3), F32, 4)
DL, D, DU = rand((4,), F32, 5), rand((4,), F32, 6) + 4, rand((4,), F32, 7)

CASES = {
    "cholesky": _call("cholesky", spd((4, 4), F32)),
    "cholesky-complex": _call("cholesky", spd((3, 3), C64)),
    "cholesky-batched": _call("cholesky", spd((2, 3, 3), F32)),
    "cholesky-no-symmetrize": _call("cholesky", spd((3, 3), F32), symmetrize_input=False),
    "cholesky-int": _call("cholesky", np.array([[4, 1], [1, 3]], np.int32)),
    "cholesky-not-positive": _call("cholesky", -spd((3, 3), F32)),
    "cholesky-empty": _call("cholesky", np.zeros((0, 0), np.float32)),
    "cholesky-empty-batch": _call("cholesky", np.zeros((0, 2, 2), np.float32)),
    "err-cholesky-float16": _call("cholesky", spd((3, 3), "float16")),
    "err-cholesky-bfloat16": _call("cholesky", spd((3, 3), "bfloat16")),
    "err-cholesky-not-square": _call("cholesky", rand((3, 4), F32), symmetrize_input=False),
    "err-cholesky-list": lambda module: ((lambda: module.lax.linalg.cholesky([[1.0, 0.0], [0.0, 1.0]])), ()),
    "err-lu-list": lambda module: ((lambda: module.lax.linalg.lu([[1.0, 0.0], [0.0, 1.0]])), ()),
    "err-triangular_solve-list": lambda module: ((lambda: module.lax.linalg.triangular_solve([[1.0]], [[1.0]])), ()),
    "err-cholesky-vector": _call("cholesky", rand((3,), F32), symmetrize_input=False),
    "err-cholesky-int-unsymmetrized": _call("cholesky", np.eye(3, dtype=np.int32), symmetrize_input=False),
    "cholesky_update": _call("cholesky_update", np.linalg.cholesky(spd((4, 4), F32)).T, rand((4,), F32, 2)),
    "cholesky_update-zero": _call("cholesky_update", np.linalg.cholesky(spd((3, 3), F32)).T, np.zeros(3, F32)),
    "err-cholesky_update-sizes": _call("cholesky_update", spd((3, 3), F32), rand((4,), F32)),
    "err-cholesky_update-int": _call("cholesky_update", np.eye(3, dtype=np.int32), np.ones(3, np.int32)),
    "err-cholesky_update-batched": _call("cholesky_update", spd((2, 3, 3), F32), rand((2, 3), F32)),
    "lu": _call("lu", A),
    "lu-complex": _call("lu", rand((3, 3), C64)),
    "lu-tall": _call("lu", TALL),
    "lu-wide-batched": _call("lu", rand((2, 3, 5), F32)),
    "lu-singular": _call("lu", np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)),
    "lu-no-rows": _call("lu", np.zeros((0, 3), np.float32)),
    "lu-no-columns": _call("lu", np.zeros((3, 0), np.float32)),
    "err-lu-float16": _call("lu", rand((3, 3), "float16")),
    "err-lu-int": _call("lu", np.eye(3, dtype=np.int32)),
    "err-lu-vector": _call("lu", rand((3,), F32)),
    "lu_pivots_to_permutation": _call("lu_pivots_to_permutation", np.array([2, 2, 3], np.int32),
                                      permutation_size=5),
    "lu_pivots_to_permutation-batched": _call("lu_pivots_to_permutation",
                                              np.array([[1, 2, 2], [2, 1, 2]], np.int32), permutation_size=3),
    "err-lu_pivots_to_permutation-size": _call("lu_pivots_to_permutation", np.zeros(3, np.int32),
                                               permutation_size=2),
    "err-lu_pivots_to_permutation-float": _call("lu_pivots_to_permutation", np.zeros(3, np.float32),
                                                permutation_size=3),
    "err-lu_pivots_to_permutation-scalar": _call("lu_pivots_to_permutation", np.int32(0), permutation_size=3),
    "qr": _call("qr", A),
    "qr-tall": _call("qr", TALL),
    "qr-tall-economic": _call("qr", TALL, full_matrices=False),
    "qr-wide": _call("qr", WIDE),
    "qr-wide-economic": _call("qr", WIDE, full_matrices=False),
    "qr-complex-batched": _call("qr", rand((2, 4, 3), C64)),
    "qr-pivoting": _call("qr", TALL, pivoting=True),
    "qr-pivoting-economic": _call("qr", WIDE, pivoting=True, full_matrices=False),
    "qr-no-columns": _call("qr", np.zeros((3, 0), np.float32)),
    "qr-no-rows-economic": _call("qr", np.zeros((0, 3), np.float32), full_matrices=False),
    "err-qr-float16": _call("qr", rand((3, 3), "float16")),
    "err-qr-int": _call("qr", np.eye(3, dtype=np.int32)),
    "householder_product": _call("householder_product", TALL, rand((3,), F32, 8)),
    "householder_product-batched": _call("householder_product", rand((2, 4, 3), C64), rand((2, 2), C64, 8)),
    "err-householder_product-wide": _call("householder_product", WIDE, rand((3,), F32)),
    "err-householder_product-taus": _call("householder_product", TALL, rand((4,), F32)),
    "err-householder_product-batch": _call("householder_product", rand((2, 4, 3), F32), rand((3,), F32)),
    "ormqr": _call("ormqr", TALL, rand((3,), F32, 8), rand((5, 2), F32, 9)),
    "ormqr-right-transpose": _call("ormqr", TALL, rand((3,), F32, 8), rand((2, 5), F32, 9), left=False,
                                   transpose=True),
    "ormqr-complex-transpose": _call("ormqr", rand((4, 2), C64), rand((2,), C64, 8), rand((4, 3), C64, 9),
                                     transpose=True),
    "err-ormqr-rows": _call("ormqr", TALL, rand((3,), F32), rand((3, 2), F32)),
    "triangular_solve": _call("triangular_solve", upper((4, 4), F32), B, left_side=True),
    "triangular_solve-right-lower": _call("triangular_solve", upper((4, 4), F32).T, B.T, lower=True),
    "triangular_solve-transpose-unit": _call("triangular_solve", upper((4, 4), F32), B, left_side=True,
                                             transpose_a=True, unit_diagonal=True),
    "triangular_solve-conjugate": _call("triangular_solve", upper((3, 3), C64), rand((3, 2), C64), left_side=True,
                                        conjugate_a=True),
    "triangular_solve-adjoint-batched": _call("triangular_solve", upper((2, 3, 3), C64), rand((2, 2, 3), C64),
                                              transpose_a=True, conjugate_a=True),
    "triangular_solve-vector": _call("triangular_solve", upper((4, 4), F32), rand((4,), F32), left_side=True),
    "triangular_solve-vector-right": _call("triangular_solve", upper((4, 4), F32), rand((4,), F32)),
    "triangular_solve-float16": _call("triangular_solve", upper((3, 3), "float16"), rand((3, 2), "float16"),
                                      left_side=True),
    "triangular_solve-empty": _call("triangular_solve", np.zeros((0, 0), np.float32), np.zeros((0, 2), np.float32),
                                    left_side=True),
    "err-triangular_solve-int": _call("triangular_solve", np.eye(3, dtype=np.int32), np.eye(3, dtype=np.int32)),
    "err-triangular_solve-not-square": _call("triangular_solve", rand((3, 2), F32), rand((3, 2), F32)),
    "err-triangular_solve-shapes": _call("triangular_solve", upper((3, 3), F32), rand((4, 2), F32), left_side=True),
    "err-triangular_solve-batch-rank": _call("triangular_solve", upper((3, 3), F32), rand((2, 3, 3), F32)),
    "err-triangular_solve-batch-size": _call("triangular_solve", upper((2, 3, 3), F32), rand((3, 3, 3), F32)),
    "tridiagonal_solve": _call("tridiagonal_solve", DL, D, DU, rand((4, 2), F32, 8)),
    "tridiagonal_solve-batched": _call("tridiagonal_solve", rand((2, 3), C64), rand((2, 3), C64) + 4,
                                       rand((2, 3), C64, 2), rand((2, 3, 1), C64, 3)),
    "tridiagonal_solve-singular": _call("tridiagonal_solve", np.zeros(3, F32), np.zeros(3, F32), np.zeros(3, F32),
                                        np.ones((3, 1), F32)),
    "err-tridiagonal_solve-float16": _call("tridiagonal_solve", *(np.ones(3, "float16"),) * 3,
                                           np.ones((3, 1), "float16")),
    "err-tridiagonal_solve-int": _call("tridiagonal_solve", *(np.ones(3, np.int32),) * 3, np.ones((3, 1), np.int32)),
    "err-tridiagonal_solve-vector": _call("tridiagonal_solve", DL, D, DU, rand((4,), F32)),
    "err-tridiagonal_solve-diagonals": _call("tridiagonal_solve", DL[:3], D, DU, rand((4, 1), F32)),
    "err-tridiagonal_solve-rhs": _call("tridiagonal_solve", DL, D, DU, rand((5, 1), F32)),
    "err-tridiagonal_solve-batch": _call("tridiagonal_solve", DL, D, DU, rand((2, 4, 1), F32)),
    "symmetric_product": _call("symmetric_product", WIDE, spd((3, 3), F32), alpha=0.5, beta=2.0),
    "symmetric_product-symmetrized": _call("symmetric_product", WIDE, rand((3, 3), F32), alpha=2.0, beta=0.5,
                                           symmetrize_output=True),
    "symmetric_product-batched": _call("symmetric_product", rand((2, 3, 2), F32), rand((2, 3, 3), F32)),
    "err-symmetric_product-shapes": _call("symmetric_product", rand((3, 2), F32), rand((2, 2), F32)),
    "err-symmetric_product-int": _call("symmetric_product", np.ones((3, 2), np.int32), np.ones((3, 3), np.int32)),
}

X64_CASES = {
    "x64-cholesky": _call("cholesky", spd((3, 3), "float64")),
    "x64-cholesky-complex": _call("cholesky", spd((3, 3), "complex128")),
    "x64-lu": _call("lu", rand((4, 3), "float64")),
    "x64-qr": _call("qr", rand((4, 3), "complex128")),
    "x64-triangular_solve": _call("triangular_solve", upper((3, 3), "float64"), rand((3, 2), "float64"),
                                  left_side=True, lower=False),
    "x64-triangular_solve-mixed": _call("triangular_solve", upper((3, 3), "float32"), rand((3, 2), "float64"),
                                        left_side=True),
    "err-x64-householder_product-dtypes": _call("householder_product", rand((3, 3), F32), rand((3,), "float64")),
    "err-x64-ormqr-dtypes": _call("ormqr", rand((3, 3), F32), rand((3,), F32), rand((3, 3), "float64")),
    "err-x64-tridiagonal_solve-dtypes": _call("tridiagonal_solve", DL, D.astype("float64"), DU, rand((4, 1), F32)),
    "err-x64-symmetric_product-dtypes": _call("symmetric_product", rand((3, 3), F32), rand((3, 3), "float64")),
    "err-x64-cholesky_update-dtypes": _call("cholesky_update", np.eye(3, dtype=F32), rand((3,), "float64")),
    "err-x64-triangular_solve-complex-real": _call("triangular_solve", upper((3, 3), C64), rand((3, 3), F32)),
    "x64-tridiagonal_solve": _call("tridiagonal_solve", *(rand((3,), "float64", s) + 3 * (s == 1) for s in range(3)),
                                   rand((3, 2), "float64")),
}

# Derivatives and batching.
SQUARE = rand((3, 3), F32, 5) + 3 * np.eye(3, dtype=np.float32)
CASES.update({
    "jvp-cholesky": _jvp(_call("cholesky", spd((3, 3), F32), symmetrize_input=False)),
    "jvp-cholesky-complex": _jvp(_call("cholesky", spd((2, 2), C64))),
    "jvp-cholesky-batched": _jvp(_call("cholesky", spd((2, 3, 3), F32))),
    "grad-cholesky": _grad(_call("cholesky", spd((3, 3), F32))),
    "jvp-triangular_solve": _jvp(_call("triangular_solve", upper((3, 3), F32), rand((3, 2), F32), left_side=True)),
    "jvp-triangular_solve-right-lower-unit": _jvp(_call("triangular_solve", upper((3, 3), F32).T,
                                                        rand((2, 3), F32), lower=True, unit_diagonal=True)),
    "jvp-triangular_solve-adjoint": _jvp(_call("triangular_solve", upper((2, 2), C64), rand((2, 2), C64),
                                               left_side=True, transpose_a=True, conjugate_a=True)),
    "grad-triangular_solve-a": _grad(_call("triangular_solve", upper((3, 3), F32), rand((3, 2), F32),
                                           left_side=True)),
    "grad-triangular_solve-b": _grad(_call("triangular_solve", upper((3, 3), F32), rand((3, 2), F32),
                                           left_side=True, transpose_a=True), argnums=1),
    "jvp-lu": _jvp(_first("lu", SQUARE)),
    "jvp-lu-tall": _jvp(_first("lu", TALL)),
    "jvp-lu-wide": _jvp(_first("lu", WIDE)),
    "jvp-lu-batched": _jvp(_first("lu", rand((2, 3, 3), F32))),
    "jvp-lu-batched-twice": _jvp(_first("lu", rand((2, 2, 3, 4), F32))),
    "jvp-lu-all": _jvp(_call("lu", SQUARE)),
    "grad-lu": _grad(_first("lu", SQUARE)),
    "jvp-qr": _jvp(_call("qr", SQUARE)),
    "jvp-qr-economic": _jvp(_call("qr", TALL, full_matrices=False)),
    "jvp-qr-tall": _jvp(_call("qr", TALL)),
    "jvp-qr-wide": _jvp(_call("qr", WIDE)),
    "jvp-qr-pivoting": _jvp(_call("qr", TALL, pivoting=True, full_matrices=False)),
    "jvp-qr-complex": _jvp(_call("qr", rand((3, 3), C64) + 3 * np.eye(3, dtype=np.complex64))),
    "jvp-qr-batched": _jvp(_call("qr", rand((2, 3, 3), F32))),
    "grad-qr": _grad(_call("qr", TALL, full_matrices=False)),
    "jvp-tridiagonal_solve": _jvp(_call("tridiagonal_solve", DL, D, DU, rand((4, 2), F32, 8))),
    "jvp-tridiagonal_solve-batched": _jvp(_call("tridiagonal_solve", rand((2, 3), F32), rand((2, 3), F32, 1) + 4,
                                                rand((2, 3), F32, 2), rand((2, 3, 2), F32, 3))),
    "grad-tridiagonal_solve-batched": _grad(_call("tridiagonal_solve", rand((2, 3), F32), rand((2, 3), F32, 1) + 4,
                                                  rand((2, 3), F32, 2), rand((2, 3, 2), F32, 3)), argnums=(0, 3)),
    "jvp-triangular_solve-batched": _jvp(_call("triangular_solve", upper((2, 3, 3), F32), rand((2, 3, 4), F32),
                                               left_side=True)),
    "grad-triangular_solve-batched": _grad(_call("triangular_solve", upper((2, 3, 3), C64), rand((2, 2, 3), C64),
                                                 lower=False, transpose_a=True), argnums=(0, 1)),
    "jvp-qr-wide-batched": _jvp(_call("qr", rand((2, 2, 4), F32))),
    "jvp-qr-tall-batched": _jvp(_call("qr", rand((2, 4, 2), C64))),
    "grad-tridiagonal_solve-b": _grad(_call("tridiagonal_solve", DL, D, DU, rand((4, 2), F32, 8)), argnums=3),
    "grad-tridiagonal_solve-d": _grad(_call("tridiagonal_solve", DL, D, DU, rand((4, 2), F32, 8)), argnums=1),
    "err-jvp-householder_product": _jvp(_call("householder_product", TALL, rand((3,), F32, 8))),
    "err-jvp-symmetric_product": _jvp(_call("symmetric_product", WIDE, spd((3, 3), F32))),
    "err-jvp-cholesky_update": _jvp(_call("cholesky_update", np.linalg.cholesky(spd((3, 3), F32)).T,
                                          rand((3,), F32))),
    "vmap-cholesky-1": _vmap(_call("cholesky", np.swapaxes(spd((2, 3, 3), F32), 0, 1)), 1),
    "vmap-lu": _vmap(_call("lu", rand((2, 3, 3), F32))),
    "vmap-qr-2": _vmap(_call("qr", rand((3, 3, 2), F32)), 2),
    "vmap-triangular_solve-b-only": _vmap(_call("triangular_solve", upper((3, 3), F32), rand((3, 2, 4), F32),
                                                left_side=True), (None, 1)),
    "vmap-triangular_solve-b-only-right": _vmap(_call("triangular_solve", upper((3, 3), F32), rand((2, 4, 3), F32)),
                                                (None, 0)),
    "vmap-triangular_solve-a-only": _vmap(_call("triangular_solve", upper((2, 3, 3), F32), rand((3, 4), F32),
                                                left_side=True), (0, None)),
    "vmap-triangular_solve-both": _vmap(_call("triangular_solve", np.swapaxes(upper((2, 3, 3), F32), 0, 1),
                                              rand((4, 3, 2), F32)), (1, 2)),
    "vmap-householder_product": _vmap(_call("householder_product", rand((2, 4, 3), F32), rand((3,), F32)),
                                      (0, None)),
    "vmap-ormqr": _vmap(_call("ormqr", TALL, rand((2, 3), F32), rand((5, 2, 2), F32)), (None, 0, 1)),
    "vmap-tridiagonal_solve": _vmap(_call("tridiagonal_solve", DL, rand((2, 4), F32) + 4, DU, rand((4, 2, 3), F32)),
                                    (None, 0, None, 1)),
    "vmap-symmetric_product": _vmap(_call("symmetric_product", rand((2, 3, 2), F32), rand((3, 3), F32)), (0, None)),
    "vmap-lu_pivots_to_permutation": _vmap(_call("lu_pivots_to_permutation", np.array([[2, 1], [1, 2], [2, 2]],
                                                                                         np.int32),
                                                 permutation_size=3), 1),
    "err-vmap-cholesky_update": _vmap(_call("cholesky_update", np.stack([np.linalg.cholesky(spd((3, 3), F32)).T] * 2),
                                            rand((2, 3), F32))),
    "vmap-jvp-cholesky": _vmap(_jvp(_call("cholesky", spd((2, 3, 3), F32)))),
    "grad-vmap-qr": _grad(_vmap(_call("qr", rand((2, 4, 3), F32), full_matrices=False))),
})
X64_CASES.update({
    "x64-jvp-cholesky": _jvp(_call("cholesky", spd((3, 3), "float64"))),
    "x64-jvp-lu": _jvp(_first("lu", rand((3, 3), "float64"))),
    "x64-jvp-qr": _jvp(_call("qr", rand((4, 3), "float64"))),
    "x64-jvp-tridiagonal_solve": _jvp(_call("tridiagonal_solve", *(rand((3,), "float64", s) + 3 * (s == 1)
                                                                    for s in range(3)), rand((3, 2), "float64"))),
})


def record(module) -> dict:
    return record_suite(module, record_case, CASES, X64_CASES)


if __name__ == "__main__":
    outcomes = record(importlib.import_module(sys.argv[1]))
    (HERE / "linalg_golden.json").write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
