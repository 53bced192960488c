"""JVP and transpose rules of ``triangular_solve`` and ``tridiagonal_solve``.

Both are linear in the right-hand side ``b``: the tangent in ``b`` is the same solve of ``b``'s tangent, and the
transpose solves with the transposed matrix. A tangent of the matrix ``A`` moves the solution ``x`` by
``-A^{-1} dA x`` (``-x dA A^{-1}`` for a right-side triangular solve), ``dA`` taking the part of the tangent that
the solve reads (one triangle, without the diagonal when it is a unit one; the three diagonals).
"""

from __future__ import annotations

import numpy as np

from jaxle_core.ad.jvp import Zero, add_tangents, instantiate, jvp_rules, tangent_aval
from jaxle_core.ad.rule_helpers import defjvp
from jaxle_core.ad.transpose import transpose_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax.dot import Precision
from jaxle_core.lax.elementwise import conj, mul, neg
from jaxle_core.lax.linalg_support import matmul, slice_axis, swap_minor_dims, tril, triu
from jaxle_core.lax.matrix_solves import triangular_solve_p, tridiagonal_solve_p
from jaxle_core.lax.slicing import ScatterDimensionNumbers, scatter_add
from jaxle_core.lax.structural import broadcast_in_dim, concatenate, reshape

# ---------------------------------------------------------------- triangular_solve


def _triangular_solve_jvp_a(a_dot, ans, a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    params = dict(left_side=left_side, lower=lower, transpose_a=transpose_a, conjugate_a=conjugate_a,
                  unit_diagonal=unit_diagonal)
    read = tril(a_dot, -int(unit_diagonal)) if lower else triu(a_dot, int(unit_diagonal))
    step = neg(read)
    step = swap_minor_dims(step) if transpose_a else step
    step = conj(step) if conjugate_a else step
    # -A^{-1} dA x: whichever association of the product costs less, as JAX chooses it (the solve first when the
    # right-hand sides are at least as many as the matrix's rows).
    b_shape = get_aval(b).shape
    count, size = (b_shape[-1], b_shape[-2]) if left_side else (b_shape[-2], b_shape[-1])
    if count < size:
        product = matmul(step, ans, Precision.HIGHEST) if left_side else matmul(ans, step, Precision.HIGHEST)
        return triangular_solve_p.bind(a, product, **params)
    solved = triangular_solve_p.bind(a, step, **params)
    return matmul(solved, ans, Precision.HIGHEST) if left_side else matmul(ans, solved, Precision.HIGHEST)


def _triangular_solve_jvp_b(b_dot, ans, a, b, **params):
    return triangular_solve_p.bind(a, b_dot, **params)


defjvp(triangular_solve_p, _triangular_solve_jvp_a, _triangular_solve_jvp_b)


def _triangular_solve_transpose(ct, a, b, *, transpose_a, **params):
    if type(ct) is Zero:
        return [None, Zero(b.aval)]
    return [None, triangular_solve_p.bind(a, ct, transpose_a=not transpose_a, **params)]


transpose_rules[triangular_solve_p] = _triangular_solve_transpose

# ---------------------------------------------------------------- tridiagonal_solve

_ALONG_ROWS = ScatterDimensionNumbers(update_window_dims=(0, 1), inserted_window_dims=(),
                                      scatter_dims_to_operand_dims=(0,))


def _add_rows_at(x, start: int, rows):
    """``x`` with ``rows`` added to its rows from ``start`` on (what ``x.at[start:].add(rows)`` stages)."""
    ndim = get_aval(x).ndim
    if ndim > 2:  # batched: a window over the leading dimensions too
        numbers = ScatterDimensionNumbers(update_window_dims=tuple(range(ndim)), inserted_window_dims=(),
                                          scatter_dims_to_operand_dims=(ndim - 2,))
    else:
        numbers = _ALONG_ROWS
    start_index = broadcast_in_dim(np.int32(start), (1,), ())
    return scatter_add(x, start_index, rows, numbers, indices_are_sorted=True, unique_indices=True)


def _column(v):
    """``v[..., None]``."""
    shape = get_aval(v).shape
    return broadcast_in_dim(v, (*shape, 1), tuple(range(len(shape))))


def _tridiagonal_product(dl, d, du, x):
    """The tridiagonal matrix of ``(dl, d, du)`` times ``x``."""
    ndim = get_aval(x).ndim
    n = get_aval(x).shape[-2]
    out = mul(reshape(d, (*get_aval(d).shape, 1)), x)
    below = mul(_column(slice_axis(dl, 1, n, ndim - 2)), slice_axis(x, 0, n - 1, ndim - 2))
    out = _add_rows_at(out, 1, below)
    above = mul(_column(slice_axis(du, 0, n - 1, ndim - 2)), slice_axis(x, 1, n, ndim - 2))
    return _add_rows_at(out, 0, above)


def _tridiagonal_solve_jvp(primals, tangents, *, perturb_singular):
    dl, d, du, b = primals
    *diagonal_dots, b_dot = tangents
    ans = tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=perturb_singular)
    rhs = b_dot
    if any(type(t) is not Zero for t in diagonal_dots):
        moved = _tridiagonal_product(*(instantiate(t) for t in diagonal_dots), ans)
        rhs = add_tangents(b_dot, neg(moved)) if type(b_dot) is not Zero else neg(moved)
    if type(rhs) is Zero:
        return ans, Zero(tangent_aval(get_aval(ans)))
    return ans, tridiagonal_solve_p.bind(dl, d, du, rhs, perturb_singular=perturb_singular)


jvp_rules[tridiagonal_solve_p] = _tridiagonal_solve_jvp


def _tridiagonal_solve_transpose(ct, dl, d, du, b, *, perturb_singular):
    if type(ct) is Zero:
        return [None, None, None, Zero(b.aval)]
    ndim = get_aval(d).ndim
    n = get_aval(d).shape[-1]
    zero = np.zeros((), get_aval(d).dtype)
    edge = (*get_aval(d).shape[:-1], 1)
    # The transposed matrix swaps the sub- and superdiagonals, shifted to JAX's layout (dl[0], du[-1] unused).
    # Each diagonal is split in two as JAX splits it, the unused end staged too (so the jaxpr reads as JAX's).
    slice_axis(du, n - 1, n, ndim - 1)
    dl_t = concatenate([broadcast_in_dim(zero, edge, ()), slice_axis(du, 0, n - 1, ndim - 1)], ndim - 1)
    dl_tail = slice_axis(dl, 1, n, ndim - 1)
    slice_axis(dl, 0, 1, ndim - 1)
    du_t = concatenate([dl_tail, broadcast_in_dim(zero, edge, ())], ndim - 1)
    return [None, None, None, tridiagonal_solve_p.bind(dl_t, d, du_t, ct, perturb_singular=perturb_singular)]


transpose_rules[tridiagonal_solve_p] = _tridiagonal_solve_transpose
