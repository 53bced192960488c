"""JVP rule of ``qr`` (``householder_product`` and ``ormqr`` are not differentiable, as in JAX).

For ``x = Q R`` with ``Q`` of ``n`` orthonormal columns and invertible ``R`` [n, n]: with ``C = Q^H dx R^{-1}``,
``dR = (C - W) R`` and ``dQ = Q (W - C) + dx R^{-1}``, ``W`` the skew-Hermitian matrix built from ``C``'s strict
lower triangle (its diagonal holding ``C``'s imaginary part). Wide matrices split as ``[x1 | x2]``: ``x1`` gives
``Q`` and the first block of ``R``, and ``R2 = Q^H x2``. The square ``Q`` of a tall matrix extends the ``n`` columns
with columns whose derivative follows from staying orthogonal to them (an LU solve with ``Q``'s top block).
Column pivoting permutes the tangent's columns like ``x``'s.
"""

from __future__ import annotations

import numpy as np

from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules, tangent_aval
from jaxle_core.avals import get_aval
from jaxle_core.batching.api import vmap
from jaxle_core.jit import jit
from jaxle_core.lax.elementwise import add, lt, mul, real, sub
from jaxle_core.lax.factorizations import lu_p
from jaxle_core.lax.householder import qr_p
from jaxle_core.lax.linalg_support import adjoint, matmul, slice_axis, tril
from jaxle_core.lax.matrix_solves import triangular_solve
from jaxle_core.lax.slicing import GatherDimensionNumbers, GatherScatterMode, gather
from jaxle_core.lax.sorting import sort
from jaxle_core.lax.structural import (
    broadcast_in_dim,
    concatenate,
    convert_element_type,
    eye,
    iota,
    select_n,
)


def _product(a, b):
    return matmul(a, b, preferred_element_type=get_aval(a).dtype)


def _take(x, indices, axis: int):
    """``x`` indexed along ``axis`` by the integer vector(s) ``indices`` (negative entries wrap), the gather
    ``jnp`` indexing stages."""
    aval = get_aval(x)
    size = aval.shape[axis]
    wrapped = select_n(lt(indices, np.int32(0)), indices, add(indices, np.int32(size)))
    index_shape = get_aval(indices).shape
    batch = tuple(range(aval.ndim - 2))
    starts = broadcast_in_dim(wrapped, (*index_shape, 1), tuple(range(len(index_shape))))
    offset = tuple(d for d in range(aval.ndim) if d != axis and d not in batch)
    numbers = GatherDimensionNumbers(offset_dims=offset, collapsed_slice_dims=(axis,), start_index_map=(axis,),
                                     operand_batching_dims=batch, start_indices_batching_dims=batch)
    sizes = tuple(1 if d == axis or d in batch else aval.shape[d] for d in range(aval.ndim))
    return gather(x, starts, numbers, sizes, mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _qr_square_jvp(q, r, dx):
    """``(dQ, dR)`` of ``x = Q R`` for ``Q`` [m, n], ``R`` [n, n] (m >= n)."""
    dtype = get_aval(dx).dtype
    n = get_aval(r).shape[-1]
    dx_rinv = triangular_solve(r, dx, left_side=False, lower=False)
    qt_dx_rinv = _product(adjoint(q), dx_rinv)
    lower = tril(qt_dx_rinv, -1)
    skew = sub(lower, adjoint(lower))
    # The diagonal of the skew-Hermitian part: C's imaginary part (nothing for real matrices).
    identity = _batch_broadcast(eye(dtype, (n, n)), get_aval(dx).ndim - 2)
    real_part = real(qt_dx_rinv) if np.issubdtype(dtype, np.complexfloating) else qt_dx_rinv
    if real_part is not qt_dx_rinv:
        real_part = convert_element_type(real_part, dtype)
    skew = add(skew, mul(identity, sub(qt_dx_rinv, real_part)))
    dq = add(_product(q, sub(skew, qt_dx_rinv)), dx_rinv)
    dr = _product(sub(qt_dx_rinv, skew), r)
    return dq, dr


def _batch_broadcast(matrix, batch_rank: int):
    """``matrix`` with ``batch_rank`` leading dimensions of size 1 (broadcast against a batch, as ``jnp`` does)."""
    if not batch_rank:
        return matrix
    n, k = get_aval(matrix).shape
    return broadcast_in_dim(matrix, (1,) * batch_rank + (n, k), (batch_rank, batch_rank + 1))


def _rows_of(x, indices):
    """``x[indices, :]`` of one matrix."""
    return _take(x, indices, 0)


@jit
def _lu_solve(lu, permutation, b):
    """Solve ``A^H x = b`` given the LU factorization ``A[permutation] = L U`` (``lu``, ``permutation``)."""
    upper_solved = triangular_solve(lu, b, left_side=True, lower=False, transpose_a=True, conjugate_a=True)
    solved = triangular_solve(lu, upper_solved, left_side=True, lower=True, transpose_a=True, conjugate_a=True,
                              unit_diagonal=True)
    shape = get_aval(permutation).shape
    order = iota(np.int32, shape[-1])
    if len(shape) > 1:
        order = broadcast_in_dim(order, shape, (len(shape) - 1,))
    _, inverse = sort((permutation, order), dimension=len(shape) - 1, num_keys=1)
    rows_of = _rows_of
    for _ in range(len(shape) - 1):  # JAX indexes each matrix of a batch as vmap would
        rows_of = vmap(rows_of)
    return rows_of(solved, inverse)


def _complete_orthogonal(q, q1, dq1):
    """The derivative of the last ``m - n`` columns of the square ``Q`` of a tall matrix, given its first ``n``
    columns ``q1`` and their derivative ``dq1``: the completion stays orthogonal to ``q1``."""
    ndim = get_aval(q).ndim
    m, n = get_aval(q1).shape[-2:]
    top, bottom = slice_axis(q1, 0, n, ndim - 2), slice_axis(q1, n, m, ndim - 2)
    q2 = slice_axis(q, n, m, ndim - 1)
    dtop, dbottom = slice_axis(dq1, 0, n, ndim - 2), slice_axis(dq1, n, m, ndim - 2)
    shifted = sub(top, _batch_broadcast(eye(get_aval(q).dtype, (n, n)), ndim - 2))
    lu, _, permutation = lu_p.bind(shifted)
    coefficients = _lu_solve(lu, permutation, adjoint(bottom))
    coefficients_h = adjoint(coefficients)
    moved = _product(dq1, coefficients)
    basis = add(q1, _product(q2, coefficients_h))
    correction = adjoint(sub(dbottom, _product(coefficients_h, dtop)))
    return sub(moved, _product(basis, correction))


def _qr_jvp(primals, tangents, *, pivoting, full_matrices, use_magma):
    (x,), (dx,) = primals, tangents
    outs = qr_p.bind(x, pivoting=pivoting, full_matrices=full_matrices, use_magma=use_magma)
    q, r = outs[:2]
    extra = [Zero(tangent_aval(get_aval(outs[2])))] if pivoting else []
    if type(dx) is Zero:
        return outs, [Zero(tangent_aval(get_aval(q))), Zero(tangent_aval(get_aval(r))), *extra]
    dx = instantiate(dx)
    ndim = get_aval(x).ndim
    m, n = get_aval(x).shape[-2:]
    if pivoting:
        dx = _take(dx, outs[2], ndim - 1)
    if m < n:  # wide: the first m columns make Q and R1; R2 = Q^H x2
        x2 = slice_axis(x, m, n, ndim - 1)
        dx1, dx2 = slice_axis(dx, 0, m, ndim - 1), slice_axis(dx, m, n, ndim - 1)
        dq, dr1 = _qr_square_jvp(q, slice_axis(r, 0, m, ndim - 1), dx1)
        dr2 = add(_product(adjoint(dq), x2), _product(adjoint(q), dx2))
        return outs, [dq, concatenate([dr1, dr2], ndim - 1), *extra]
    if not full_matrices or m == n:
        dq, dr = _qr_square_jvp(q, r, dx)
        return outs, [dq, dr, *extra]
    # tall with the square Q: the first n columns as in the economic factorization, R's last rows stay zero.
    q1 = slice_axis(q, 0, n, ndim - 1)
    r1 = slice_axis(r, 0, n, ndim - 2)
    dq1, dr1 = _qr_square_jvp(q1, r1, dx)
    dq = concatenate([dq1, _complete_orthogonal(q, q1, dq1)], ndim - 1)
    zeros = broadcast_in_dim(np.zeros((), get_aval(r).dtype), (*get_aval(r).shape[:-2], m - n, n), ())
    return outs, [dq, concatenate([dr1, zeros], ndim - 2), *extra]


jvp_rules[qr_p] = _qr_jvp
