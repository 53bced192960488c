"""Cholesky and LU factorizations: ``cholesky``, ``cholesky_update``, ``lu`` and ``lu_pivots_to_permutation``.

Every primitive takes leading batch dimensions. The references call LAPACK through SciPy (``getrf``) or NumPy
(Cholesky), and report a failed factorization as JAX does: a matrix of NaNs.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.avals import ShapedArray, get_aval
from jaxle_core.core import Primitive
from jaxle_core.lax.elementwise import abs, add, div, max, mul, ne, neg, sqrt, sub  # noqa: A004
from jaxle_core.lax.linalg_support import (
    check_lapack_dtype,
    check_operands,
    lapack_function,
    map_matrices,
    nan_matrix,
    symmetrize,
    tril,
)
from jaxle_core.lax.slicing import dynamic_update_slice, slice  # noqa: A004
from jaxle_core.lax.standard import FLOATING, INEXACT, check_dtype
from jaxle_core.lax.structural import reshape, select_n

__all__ = [
    "cholesky", "cholesky_p", "cholesky_update", "cholesky_update_p", "lu", "lu_p", "lu_pivots_to_permutation",
    "lu_pivots_to_permutation_p",
]


# ---------------------------------------------------------------- cholesky

cholesky_p = Primitive("cholesky")


@cholesky_p.def_abstract_eval
def _cholesky_aval(x: ShapedArray) -> ShapedArray:
    check_operands("cholesky", [x], [2], INEXACT)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"The input to cholesky must be a square matrix. Got shape {x.shape[-2:]}.")
    return ShapedArray(x.shape, x.dtype)


def _cholesky_of_matrix(a: np.ndarray) -> tuple[np.ndarray]:
    """LAPACK's lower factor of ``a`` (which reads the lower triangle only), above the diagonal ``a`` unchanged."""
    lower = np.tril(a)
    hermitian = lower + np.tril(a, -1).conj().T
    try:
        factor = np.linalg.cholesky(hermitian)
    except np.linalg.LinAlgError:
        return (nan_matrix((a.shape, a.dtype)),)
    return (np.where(np.tri(*a.shape, dtype=bool), factor, a),)


@cholesky_p.def_impl
def _cholesky_impl(x: np.ndarray) -> np.ndarray:
    check_lapack_dtype(x.dtype)
    aval = get_aval(x)
    if x.size == 0:
        return x.copy()
    return map_matrices(_cholesky_of_matrix, x.shape[:-2], [aval], x)[0]


def cholesky(x, *, symmetrize_input: bool = True):
    """The lower Cholesky factor ``L`` of the Hermitian positive definite matrices ``x`` (``x = L L^H``); NaNs
    where a matrix is not positive definite. Only the lower triangle is read unless ``symmetrize_input``."""
    if symmetrize_input:
        if not hasattr(x, "ndim"):  # JAX reads the rank off the argument first, lists and Python scalars failing
            raise AttributeError(f"'{type(x).__name__}' object has no attribute 'ndim'")
        x = symmetrize(x)
    return tril(cholesky_p.bind(x))


# ---------------------------------------------------------------- cholesky_update

cholesky_update_p = Primitive("cholesky_update")


@cholesky_update_p.def_abstract_eval
def _cholesky_update_aval(r: ShapedArray, w: ShapedArray) -> ShapedArray:
    check_operands("cholesky_update", [r, w], [2, 1], (FLOATING,), exact_rank=True)
    if r.shape[0] != r.shape[1] or w.shape[0] != r.shape[0]:
        raise ValueError(f"Rank-1 update to Cholesky decomposition takes a square matrix and a vector of the same "
                         f"size as input. Got shapes {r.shape} and {w.shape} instead")
    return ShapedArray(r.shape, r.dtype)


def cholesky_update_sweep(r, w):
    """The update as a sweep of Givens rotations written with lax (what XLA runs, and the reference evaluates): at
    step ``k`` the rotation taking ``(r[k, k], w[k])`` to ``(norm, 0)``, scaled by the larger magnitude against
    overflow (the identity where ``w[k]`` is zero), turns row ``k`` of ``r`` and ``w``."""
    n = get_aval(r).shape[0]
    dtype = get_aval(r).dtype
    one, zero = np.array(1, dtype)[()], np.array(0, dtype)[()]
    for k in range(n):
        a = reshape(slice(r, (k, k), (k + 1, k + 1)), ())
        b = reshape(slice(w, (k,), (k + 1,)), ())
        scale = max(abs(a), abs(b))
        a_scaled, b_scaled = div(a, scale), div(b, scale)
        inverse_norm = div(one, sqrt(add(mul(a_scaled, a_scaled), mul(b_scaled, b_scaled))))
        rotate = ne(b, zero)
        c = select_n(rotate, one, mul(a_scaled, inverse_norm))
        s = select_n(rotate, zero, mul(neg(b_scaled), inverse_norm))
        row = reshape(slice(r, (k, 0), (k + 1, n)), (n,))
        new_row = sub(mul(c, row), mul(s, w))
        w = add(mul(c, w), mul(s, row))
        r = dynamic_update_slice(r, reshape(new_row, (1, n)), (np.int32(k), np.int32(0)))
    return r


@cholesky_update_p.def_impl
def _cholesky_update_impl(r: np.ndarray, w: np.ndarray) -> np.ndarray:
    return np.asarray(cholesky_update_sweep(r, w.astype(r.dtype)))


def cholesky_update(r_matrix, w_vector):
    """The upper Cholesky factor of ``R^T R + w w^T`` given the upper factor ``R`` of a matrix (a rank-1 update)."""
    return cholesky_update_p.bind(r_matrix, w_vector)


# ---------------------------------------------------------------- lu

lu_p = Primitive("lu")
lu_p.multiple_results = True


@lu_p.def_abstract_eval
def _lu_aval(x: ShapedArray) -> list[ShapedArray]:
    batch = check_operands("lu", [x], [2], INEXACT)
    m, n = x.shape[-2:]
    return [ShapedArray(x.shape, x.dtype), ShapedArray(batch + (min(m, n),), np.int32),
            ShapedArray(batch + (m,), np.int32)]


def permutation_of_pivots(pivots: np.ndarray, size: int) -> np.ndarray:
    """The row order that applying the row swaps ``i <-> pivots[i]`` in turn makes of ``range(size)``. A pivot
    out of range reads the nearest entry and is not written, as JAX's gather and scatter on XLA do."""
    permutation = np.arange(size, dtype=np.int32)
    for i, pivot in enumerate(pivots):
        pivot = pivot + size if pivot < 0 else pivot
        at_pivot = permutation[np.clip(pivot, 0, size - 1)]
        if 0 <= pivot < size:
            permutation[pivot] = permutation[i]
        permutation[i] = at_pivot
    return permutation


def _lu_of_matrix(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    m, n = a.shape
    if a.size == 0:
        return a, np.zeros(0, np.int32), np.arange(m, dtype=np.int32)
    factors, pivots, info = lapack_function("getrf", a)(a)
    if info < 0:
        factors = nan_matrix((a.shape, a.dtype))
    return factors, pivots, permutation_of_pivots(pivots, m)


@lu_p.def_impl
def _lu_impl(x: np.ndarray) -> list[np.ndarray]:
    check_lapack_dtype(x.dtype)
    return map_matrices(_lu_of_matrix, x.shape[:-2], _lu_aval(get_aval(x)), x)


def lu(x):
    """The LU factorization with partial pivoting of the matrices ``x``: ``(lu, pivots, permutation)``, where ``lu``
    holds the unit lower factor below the diagonal and the upper factor on and above it, ``pivots[i]`` is the row
    swapped with row ``i`` and ``permutation`` the resulting row order (``x[permutation] = L @ U``)."""
    return tuple(lu_p.bind(x))


# ---------------------------------------------------------------- lu_pivots_to_permutation

lu_pivots_to_permutation_p = Primitive("lu_pivots_to_permutation")

_INT32 = ("int32", lambda d: d == np.int32)


@lu_pivots_to_permutation_p.def_abstract_eval
def _lu_pivots_to_permutation_aval(pivots: ShapedArray, *, permutation_size: int) -> ShapedArray:
    batch = check_operands("lu_pivots_to_permutation", [pivots], [1], (_INT32,))
    if permutation_size < pivots.shape[-1]:
        raise ValueError(f"Output permutation size {permutation_size} has to exceed the trailing dimension of the "
                         f"pivots. Got pivots size {pivots.shape[-1]}")
    return ShapedArray(batch + (permutation_size,), np.int32)


@lu_pivots_to_permutation_p.def_impl
def _lu_pivots_to_permutation_impl(pivots: np.ndarray, *, permutation_size: int) -> np.ndarray:
    out = _lu_pivots_to_permutation_aval(get_aval(pivots), permutation_size=permutation_size)
    return map_matrices(lambda p: (permutation_of_pivots(p, permutation_size),), pivots.shape[:-1], [out],
                        pivots)[0]


def lu_pivots_to_permutation(pivots, permutation_size: int):
    """The row order of ``range(permutation_size)`` after swapping row ``i`` with row ``pivots[..., i]`` in turn."""
    check_dtype("lu_pivots_to_permutation", get_aval(pivots).dtype, (_INT32,), 0)
    return lu_pivots_to_permutation_p.bind(pivots, permutation_size=int(permutation_size))
