"""JVP rule of ``eigh``.

For ``a = v diag(w) v^H`` and a Hermitian tangent ``da``, with ``p = v^H da v``: ``dw`` is the real diagonal of
``p`` and ``dv = v (F * p)``, where ``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal and 0 on it (``F`` is formed
as ``1 / (I + w[j] - w[i]) - I``, which never divides by zero on the diagonal). The equations are JAX 0.10.2's.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.avals import get_aval
from jaxle_core.batching.api import vmap
from jaxle_core.jit import jit
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.control_flow.solves import custom_linear_solve
from jaxle_core.lax.dot import Precision, batch_matmul
from jaxle_core.lax.eigen import eig_p, eigh_p
from jaxle_core.lax.factorizations import lu_p
from jaxle_core.lax.identity import stop_gradient
from jaxle_core.lax.linalg_support import adjoint, indexed_diagonal, swap_minor_dims, symmetrize
from jaxle_core.lax.matrix_solves import triangular_solve


def _inverse_gaps(w: Any) -> Any:
    """``F[..., i, j] = 1 / (w[j] - w[i])`` off the diagonal and 0 on it, for the eigenvalues ``w``."""
    aval = get_aval(w)
    ndim, n = aval.ndim + 1, aval.shape[-1]
    eye = lax_structural.eye(aval.dtype, (n, n))
    row = lax.expand_dims(w, (ndim - 2,))
    gaps = lax.sub(lax.add(lax.broadcast_to_rank(eye, ndim), row), lax.expand_dims(w, (ndim - 1,)))
    return lax.sub(lax.integer_pow(gaps, -1), lax.broadcast_to_rank(eye, ndim))


def _eigh_jvp(primals, tangents, *, lower, sort_eigenvalues, subset_by_index, algorithm):
    (a,), (a_dot,) = primals, tangents
    # the rule decomposes the symmetrized primal, whether or not the caller symmetrized it
    v, w_real = eigh_p.bind(symmetrize(a), lower=lower, sort_eigenvalues=sort_eigenvalues,
                            subset_by_index=subset_by_index, algorithm=algorithm)
    aval = get_aval(v)
    w = lax.convert_element_type(w_real, aval.dtype)
    inverse_gaps = _inverse_gaps(w)
    projected = batch_matmul(batch_matmul(adjoint(v), a_dot, Precision.HIGHEST), v, Precision.HIGHEST)
    v_dot = batch_matmul(v, lax.mul(inverse_gaps, projected), Precision.HIGHEST)
    if dtypes.issubdtype(aval.dtype, np.complexfloating):
        projected = lax.real(projected)
    return [v, w_real], [v_dot, indexed_diagonal(projected)]


jvp_rules[eigh_p] = _eigh_jvp


# ---------------------------------------------------------------- eig


def _lu_solve_core(lu: Any, permutation: Any, b: Any, transpose: bool) -> Any:
    """Solve ``a x = b`` (``a^T x = b`` with ``transpose``) for one vector ``b`` given ``a[permutation] = l u``."""
    n = get_aval(lu).shape[-1]
    x = lax.broadcast_in_dim(b, (n, 1), (0,))
    if not transpose:
        x = _take_rows(x, permutation)
        x = triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
        x = triangular_solve(lu, x, left_side=True, lower=False)
    else:
        x = triangular_solve(lu, x, left_side=True, lower=False, transpose_a=True)
        x = triangular_solve(lu, x, left_side=True, lower=True, transpose_a=True, unit_diagonal=True)
        _, inverse = lax.sort_key_val(permutation, lax.iota(np.int32, n))
        x = _take_rows(x, inverse)
    return lax.squeeze(x, (1,))


def _take_rows(x: Any, rows: Any) -> Any:
    """``x[rows, :]``, as NumPy-style indexing stages it."""
    n = get_aval(x).shape[0]
    rows = lax.select_n(lax.lt(rows, np.int32(0)), rows, lax.add(rows, np.int32(n)))
    indices = lax.broadcast_in_dim(rows, (n, 1), (0,))
    numbers = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    return lax.gather(x, indices, numbers, (1, get_aval(x).shape[1]), mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS)


@functools.partial(jit, static_argnums=(3,))
def _lu_solve(lu: Any, permutation: Any, b: Any, transpose: bool) -> Any:
    solve = _lu_solve_core
    for _ in range(get_aval(lu).ndim - 2):  # a stack of matrices: one vector each
        solve = vmap(solve, in_axes=(0, 0, 0, None))
    return solve(lu, permutation, b, transpose)


def _solve(a: Any, b: Any) -> Any:
    """``a^{-1} b`` for the matrices ``b`` (their columns solved one by one under ``vmap``), as a linear solve over
    the LU factors of ``a``, so that its derivatives are solves too."""
    lu, _, permutation = lu_p.bind(stop_gradient(a))
    ndim = get_aval(a).ndim
    batch = tuple(range(ndim - 2))

    def matvec(x):
        # as JAX's, x first goes through a broadcast to its own shape: staging forwards it, but the transpose of
        # the product (the solve's vecmat) sums over no axes for it
        x = lax.broadcast_in_dim(x, get_aval(x).shape, tuple(range(ndim - 1)))
        return lax.dot_general(a, x, (((ndim - 1,), (ndim - 2,)), (batch, batch)), Precision.HIGHEST)

    def solve_one(column):
        return custom_linear_solve(matvec, column, solve=lambda _, x: _lu_solve(lu, permutation, x, False),
                                   transpose_solve=lambda _, x: _lu_solve(lu, permutation, x, True))

    return vmap(solve_one, in_axes=ndim - 1, out_axes=ndim - 1)(b)


_EIGENVECTOR_DERIVATIVES = (
    "Derivatives of non-symmetric eigenvectors are only valid under assumptions on the input that JAX cannot "
    "check (see the enable_eigvec_derivs argument to jax.lax.linalg.eig). Pass enable_eigvec_derivs=True to "
    "jax.lax.linalg.eig to opt in. See https://github.com/jax-ml/jax/issues/2748 for discussion.")


def _eigenvector_jvp(w: Any, v: Any, a_dot: Any) -> tuple[Any, Any]:
    """The tangents of the eigenvalues ``w`` and right eigenvectors ``v`` of ``a`` along ``a_dot``: as for eigh,
    with ``v^{-1}`` in place of ``v^H``; then each vector's change is made orthogonal to it and its largest
    component kept real, the normalization LAPACK applies."""
    aval = get_aval(v)
    ndim = aval.ndim
    inverse_gaps = _inverse_gaps(w)
    projected = batch_matmul(_solve(v, a_dot), v, Precision.HIGHEST)
    w_dot = indexed_diagonal(projected)
    v_dot = batch_matmul(v, lax.mul(inverse_gaps, projected), Precision.HIGHEST)
    largest = lax.argmax(lax.abs(v), ndim - 2, np.int32)
    rows = lax.broadcasted_iota(np.int32, aval.shape, ndim - 2)
    at_largest = lax.convert_element_type(lax.eq(rows, lax.expand_dims(largest, (ndim - 2,))), aval.dtype)
    real_part = lax.neg(lax.real(lax.reduce_sum(lax.mul(lax.conj(v), v_dot), (ndim - 2,))))
    imag_part = lax.neg(lax.imag(lax.reduce_sum(lax.mul(at_largest, v_dot), (ndim - 2,))))
    imag_part = lax.div(imag_part, lax.real(lax.reduce_sum(lax.mul(at_largest, v), (ndim - 2,))))
    correction = lax.expand_dims(lax.complex(real_part, imag_part), (ndim - 2,))
    return w_dot, lax.add(v_dot, lax.mul(v, correction))


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors, compute_right_eigenvectors, enable_eigvec_derivs,
             implementation):
    (a,), (a_dot,) = primals, tangents
    if (compute_left_eigenvectors or compute_right_eigenvectors) and not enable_eigvec_derivs:
        raise NotImplementedError(_EIGENVECTOR_DERIVATIVES)
    w, *left, v = eig_p.bind(a, compute_left_eigenvectors=compute_left_eigenvectors, compute_right_eigenvectors=True,
                             enable_eigvec_derivs=enable_eigvec_derivs, implementation=implementation)
    ndim = get_aval(v).ndim
    a_dot = lax.convert_element_type(a_dot, get_aval(v).dtype)
    if not (compute_left_eigenvectors or compute_right_eigenvectors):
        # dw = diag(v^{-1} da v), summed without forming the product
        projected = _solve(v, a_dot)
        return [w], [lax.reduce_sum(lax.mul(projected, swap_minor_dims(v)), (ndim - 1,))]
    w_dot, v_dot = _eigenvector_jvp(w, v, a_dot)
    primals_out, tangents_out = [w], [w_dot]
    if compute_left_eigenvectors:  # the right eigenvectors of a^H, for the conjugate eigenvalues
        _, vl_dot = _eigenvector_jvp(lax.conj(w), left[0], adjoint(a_dot))
        primals_out.append(left[0])
        tangents_out.append(vl_dot)
    if compute_right_eigenvectors:
        primals_out.append(v)
        tangents_out.append(v_dot)
    return primals_out, tangents_out


jvp_rules[eig_p] = _eig_jvp
