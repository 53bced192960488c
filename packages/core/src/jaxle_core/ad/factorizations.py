"""JVP rules of ``cholesky`` and ``lu`` (``lu_pivots_to_permutation`` has integer results; ``cholesky_update`` is
not differentiable, as in JAX).

Cholesky: with ``x = L L^H``, ``dL = L phi(L^{-1} dx L^{-H})``, ``phi`` keeping the lower triangle with the diagonal
halved. LU: with ``P x = L U``, ``F = L^{-1} P dx U^{-1}`` gives ``dL = L tril(F, -1)`` and ``dU = triu(F) U``, packed
into one matrix as ``lu`` packs its factors (rectangular factors are completed with identity blocks first).
"""

from __future__ import annotations

import numpy as np

from jaxle_core.ad.jvp import Zero, instantiate, jvp_rules, tangent_aval
from jaxle_core.avals import get_aval
from jaxle_core.batching.api import vmap
from jaxle_core.lax.dot import Precision
from jaxle_core.lax.elementwise import add, div, lt
from jaxle_core.lax.factorizations import cholesky_p, lu_p
from jaxle_core.lax.linalg_support import matmul, slice_axis, tril, triu
from jaxle_core.lax.matrix_solves import triangular_solve
from jaxle_core.lax.slicing import GatherDimensionNumbers, GatherScatterMode, gather
from jaxle_core.lax.structural import broadcast_in_dim, eye, pad, select_n


def _cholesky_jvp(primals, tangents):
    (x,), (sigma_dot,) = primals, tangents
    factor = tril(cholesky_p.bind(x))
    if type(sigma_dot) is Zero:
        return factor, Zero(tangent_aval(get_aval(factor)))
    sigma_dot = instantiate(sigma_dot)
    right = triangular_solve(factor, sigma_dot, left_side=False, transpose_a=True, conjugate_a=True, lower=True)
    inner = triangular_solve(factor, right, left_side=True, transpose_a=False, lower=True)
    dtype = get_aval(x).dtype
    n = get_aval(x).shape[-1]
    lower = tril(inner)
    halving = add(np.array(1, dtype)[()], eye(dtype, (n, n)))  # phi halves the diagonal
    batch_rank = get_aval(x).ndim - 2
    if batch_rank:
        halving = broadcast_in_dim(halving, (1,) * batch_rank + (n, n), (batch_rank, batch_rank + 1))
    phi = div(lower, halving)
    return factor, matmul(factor, phi, precision=Precision.HIGHEST)


jvp_rules[cholesky_p] = _cholesky_jvp


def _rows_of(x, permutation):
    """``x[permutation, :]``: the rows of a matrix in the order of ``permutation`` (negative indices wrap)."""
    m, n = get_aval(x).shape
    wrapped = select_n(lt(permutation, np.int32(0)), permutation, add(permutation, np.int32(m)))
    indices = broadcast_in_dim(wrapped, (m, 1), (0,))
    numbers = GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,),
                                     operand_batching_dims=(), start_indices_batching_dims=())
    return gather(x, indices, numbers, (1, n), mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _lu_tangent(lu, permutation, x_dot):
    """The tangent of the packed factors ``lu`` of one matrix, ``x_dot`` the matrix's tangent."""
    aval = get_aval(x_dot)
    dtype = aval.dtype
    m, n = aval.shape
    k = min(m, n)
    zero = np.array(0, dtype)[()]
    # The unit lower factor [m, m] and the upper factor [n, n], completed with identity blocks.
    lower = pad(tril(slice_axis(lu, 0, k, 1) if k < n else lu, -1), zero, [(0, 0, 0), (0, m - k, 0)])
    lower = add(lower, eye(dtype, (m, m)))
    upper_eye = pad(eye(dtype, (n - k, n - k)), zero, [(k, 0, 0), (k, 0, 0)])
    upper = pad(triu(slice_axis(lu, 0, k, 0) if k < m else lu), zero, [(0, n - k, 0), (0, 0, 0)])
    upper = add(upper, upper_eye)
    permuted = _rows_of(x_dot, permutation)
    solved = triangular_solve(lower, permuted, left_side=True, transpose_a=False, lower=True, unit_diagonal=True)
    f = triangular_solve(upper, solved, left_side=False, transpose_a=False, lower=False)
    lower_dot = matmul(lower, tril(f, -1), Precision.HIGHEST, dtype)
    upper_dot = matmul(triu(f), upper, Precision.HIGHEST, dtype)
    return add(lower_dot, upper_dot)


def _lu_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    lu, pivots, permutation = lu_p.bind(x)
    integer_tangents = [Zero(tangent_aval(get_aval(pivots))), Zero(tangent_aval(get_aval(permutation)))]
    if type(x_dot) is Zero:
        return [lu, pivots, permutation], [Zero(tangent_aval(get_aval(lu))), *integer_tangents]
    # JAX maps the rule of one matrix over the batch dimensions, which its jaxprs show.
    tangent = _lu_tangent
    for _ in range(get_aval(x).ndim - 2):
        tangent = vmap(tangent)
    return [lu, pivots, permutation], [tangent(lu, permutation, instantiate(x_dot)), *integer_tangents]


jvp_rules[lu_p] = _lu_jvp
