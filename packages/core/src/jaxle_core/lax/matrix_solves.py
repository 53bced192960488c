"""Solves of structured linear systems: ``triangular_solve`` and ``tridiagonal_solve``.

The references call the routines XLA runs through SciPy: BLAS ``trsm`` (which, as on XLA, does not check for a
singular matrix) and LAPACK ``gtsv`` (NaNs where it reports a singular system).
"""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray, get_aval, is_array_like
from jaxle_core.core import Primitive
from jaxle_core.lax.linalg_support import (
    LAPACK_DTYPES,
    blas_function,
    check_lapack_dtype,
    check_operands,
    lapack_function,
    map_matrices,
    nan_matrix,
)
from jaxle_core.lax.standard import INEXACT
from jaxle_core.lax.structural import broadcast_in_dim, squeeze

__all__ = ["triangular_solve", "triangular_solve_p", "tridiagonal_solve", "tridiagonal_solve_p"]

# ---------------------------------------------------------------- triangular_solve

triangular_solve_p = Primitive("triangular_solve")


@triangular_solve_p.def_abstract_eval
def _triangular_solve_aval(a: ShapedArray, b: ShapedArray, *, left_side: bool, lower: bool, transpose_a: bool,
                           conjugate_a: bool, unit_diagonal: bool) -> ShapedArray:
    check_operands("triangular_solve", [a, b], [2, 2], INEXACT)
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"The first input to triangular_solve must be a square matrix. Got shape {a.shape[-2:]}.")
    if b.shape[-2 if left_side else -1] != a.shape[-1]:
        raise ValueError(f"Incompatible shapes for arguments to triangular_solve: {a.shape} and {b.shape}.")
    return ShapedArray(b.shape, b.dtype)


def _solve_matrix(a: np.ndarray, b: np.ndarray, left_side: bool, lower: bool, transpose_a: bool,
                  conjugate_a: bool, unit_diagonal: bool) -> tuple[np.ndarray]:
    if b.size == 0:
        return (b.copy(),)
    if conjugate_a and not transpose_a:  # BLAS conjugates only along with a transpose
        a = a.conj()
    trans = (2 if conjugate_a else 1) if transpose_a else 0
    solve = blas_function("trsm", a, b)
    return (solve(1.0, a, b, side=0 if left_side else 1, lower=int(lower), trans_a=trans, diag=int(unit_diagonal)),)


@triangular_solve_p.def_impl
def _triangular_solve_impl(a: np.ndarray, b: np.ndarray, **params) -> np.ndarray:
    out = _triangular_solve_aval(get_aval(a), get_aval(b), **params)
    if out.dtype not in LAPACK_DTYPES:  # float16, bfloat16: XLA's own solver, here trsm in float32
        a, b = a.astype(np.float32), b.astype(np.float32)
    return map_matrices(lambda x, y: _solve_matrix(x, y, **params), b.shape[:-2], [out], a, b)[0]


def triangular_solve(a, b, *, left_side: bool = False, lower: bool = False, transpose_a: bool = False,
                     conjugate_a: bool = False, unit_diagonal: bool = False):
    """Solve ``op(a) x = b`` (``x op(a) = b`` unless ``left_side``) for triangular ``a``, reading only its
    ``lower`` or upper triangle; ``op`` transposes and/or conjugates ``a``; ``unit_diagonal`` assumes ones on the
    diagonal. ``b`` may have one dimension fewer than ``a`` (a single right-hand side)."""
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a, unit_diagonal=unit_diagonal)
    if not (is_array_like(a) and is_array_like(b)):  # binding reports the operand that is not an array, as JAX
        return triangular_solve_p.bind(a, b, conjugate_a=conjugate_a, **params)
    a_aval, b_aval = get_aval(a), get_aval(b)
    a_ndim = a_aval.ndim
    conjugate_a = conjugate_a and np.issubdtype(a_aval.dtype, np.complexfloating)  # a no-op on real matrices
    vector = b_aval.ndim == a_ndim - 1
    if vector:
        new_dim = b_aval.ndim if left_side else b_aval.ndim - 1
        kept = tuple(d for d in range(b_aval.ndim + 1) if d != new_dim)
        shape = b_aval.shape[:new_dim] + (1,) + b_aval.shape[new_dim:]
        b = broadcast_in_dim(b, shape, kept)
    out = triangular_solve_p.bind(a, b, conjugate_a=conjugate_a, **params)
    return squeeze(out, (new_dim,)) if vector else out


# ---------------------------------------------------------------- tridiagonal_solve

tridiagonal_solve_p = Primitive("tridiagonal_solve")


@tridiagonal_solve_p.def_abstract_eval
def _tridiagonal_solve_aval(dl: ShapedArray, d: ShapedArray, du: ShapedArray, b: ShapedArray, *,
                            perturb_singular: bool) -> ShapedArray:
    check_operands("tridiagonal_solve", [dl, d, du, b], [1, 1, 1, 2], INEXACT)
    if not dl.shape == d.shape == du.shape:
        raise TypeError("tridiagonal_solve requires that all diagonal arguments have the same shape.")
    if d.shape != b.shape[:-1]:
        raise TypeError("tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the dimensions of "
                        "the diagonal arguments.")
    return ShapedArray(b.shape, b.dtype)


def _tridiagonal_solve_system(dl: np.ndarray, d: np.ndarray, du: np.ndarray, b: np.ndarray,
                              perturb_singular: bool) -> tuple[np.ndarray]:
    if b.size == 0:
        return (b.copy(),)
    # LAPACK's sub- and superdiagonals have n - 1 entries: dl[0] and du[-1] lie outside the matrix.
    *_, x, info = lapack_function("gtsv", d, b)(dl[1:], d, du[:-1], b)
    return (nan_matrix((b.shape, b.dtype)) if info != 0 else x,)


@tridiagonal_solve_p.def_impl
def _tridiagonal_solve_impl(dl: np.ndarray, d: np.ndarray, du: np.ndarray, b: np.ndarray, *,
                            perturb_singular: bool) -> np.ndarray:
    check_lapack_dtype(b.dtype)
    out = _tridiagonal_solve_aval(get_aval(dl), get_aval(d), get_aval(du), get_aval(b),
                                  perturb_singular=perturb_singular)
    return map_matrices(lambda *m: _tridiagonal_solve_system(*m, perturb_singular), b.shape[:-2], [out],
                        dl, d, du, b)[0]


def tridiagonal_solve(dl, d, du, b, *, perturb_singular: bool = False):
    """Solve the tridiagonal systems with diagonal ``d``, subdiagonal ``dl`` (``dl[..., 0]`` unused) and
    superdiagonal ``du`` (``du[..., -1]`` unused) for the columns of ``b``; NaNs where a system is singular."""
    return tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=perturb_singular)
