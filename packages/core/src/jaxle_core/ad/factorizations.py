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
    """``x[..., permutation, :]``: the rows of each matrix in the order of ``permutation`` (negative indices wrap)."""
    aval = get_aval(x)
    m = aval.shape[-2]
    wrapped = select_n(lt(permutation, np.int32(0)), permutation, add(permutation, np.int32(m)))
    batch = tuple(range(aval.ndim - 2))
    indices = broadcast_in_dim(wrapped, (*get_aval(permutation).shape, 1), tuple(range(get_aval(permutation).ndim)))
    numbers = GatherDimensionNumbers(offset_dims=(aval.ndim - 1,), collapsed_slice_dims=(aval.ndim - 2,),
                                     start_index_map=(aval.ndim - 2,), operand_batching_dims=batch,
                                     start_indices_batching_dims=batch)
    return gather(x, indices, numbers, (1,) * (aval.ndim - 2) + (1, aval.shape[-1]),
                  mode=GatherScatterMode.PROMISE_IN_BOUNDS)


def _batched_like(matrix, like):
    """``matrix`` broadcast over the batch dimensions of ``like``."""
    shape = get_aval(like).shape
    if len(shape) == 2:
        return matrix
    return broadcast_in_dim(matrix, shape, (len(shape) - 2, len(shape) - 1))


def _lu_jvp(primals, tangents):
    (x,), (x_dot,) = primals, tangents
    lu, pivots, permutation = lu_p.bind(x)
    integer_tangents = [Zero(tangent_aval(get_aval(pivots))), Zero(tangent_aval(get_aval(permutation)))]
    if type(x_dot) is Zero:
        return [lu, pivots, permutation], [Zero(tangent_aval(get_aval(lu))), *integer_tangents]
    x_dot = instantiate(x_dot)
    aval = get_aval(x)
    dtype, ndim = aval.dtype, aval.ndim
    m, n = aval.shape[-2:]
    k = min(m, n)
    zero = np.array(0, dtype)[()]
    no_padding = [(0, 0, 0)] * ndim
    # The unit lower factor [m, m] and the upper factor [n, n], completed with identity blocks.
    lower = pad(tril(slice_axis(lu, 0, k, ndim - 1) if k < n else lu, -1), zero,
                no_padding[:-1] + [(0, m - k, 0)])
    lower = add(lower, _batched_like(eye(dtype, (m, m)), lower))
    upper_eye = pad(eye(dtype, (n - k, n - k)), zero, [(k, 0, 0), (k, 0, 0)])
    upper = pad(triu(slice_axis(lu, 0, k, ndim - 2) if k < m else lu), zero,
                no_padding[:-2] + [(0, n - k, 0), (0, 0, 0)])
    upper = add(upper, _batched_like(upper_eye, upper))
    permuted = _rows_of(x_dot, permutation)
    solved = triangular_solve(lower, permuted, left_side=True, transpose_a=False, lower=True, unit_diagonal=True)
    f = triangular_solve(upper, solved, left_side=False, transpose_a=False, lower=False)
    lower_dot = matmul(lower, tril(f, -1), Precision.HIGHEST, dtype)
    upper_dot = matmul(triu(f), upper, Precision.HIGHEST, dtype)
    lu_dot = add(lower_dot, upper_dot)
    return [lu, pivots, permutation], [lu_dot, *integer_tangents]


jvp_rules[lu_p] = _lu_jvp
