"""JVP rule of ``svd``.

With ``a = u diag(s) v^H`` (thin factors) and ``p = u^H da v``: ``ds`` is the real diagonal of ``p``; the
off-diagonal parts of ``p`` and ``p^H``, weighed by ``F[i, j] = 1 / (s[j]^2 - s[i]^2)`` (0 on the diagonal), give
``du`` and ``dv``, and the skew-Hermitian diagonal of ``p`` over ``s`` gives the phase part of ``du``. A tall or
wide matrix adds the part of ``da`` outside the span of ``u`` (or ``v``). The equations are JAX 0.10.2's; the full
factors of a non-square matrix have no derivative, as in JAX.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.ad.jvp import jvp_rules
from jaxle_core.avals import get_aval
from jaxle_core.lax import structural as lax_structural
from jaxle_core.lax.dot import Precision
from jaxle_core.lax.linalg_support import adjoint, diagonal_matrix, indexed_diagonal, swap_minor_dims
from jaxle_core.lax.svd import svd_p


def _matmul(x: Any, y: Any) -> Any:
    """``x @ y`` of stacks of matrices, as ``jnp.matmul(..., precision=HIGHEST)`` stages it."""
    ndim = get_aval(x).ndim
    batch = tuple(range(ndim - 2))
    return lax.dot_general(x, y, (((ndim - 1,), (ndim - 2,)), (batch, batch)), Precision.HIGHEST,
                           preferred_element_type=get_aval(x).dtype)


def _as(x: Any, dtype: np.dtype) -> Any:
    """``x`` converted to ``dtype`` (nothing staged when it already has it)."""
    return x if get_aval(x).dtype == dtype else lax.convert_element_type(x, dtype)


def _scalar(value: float, like: Any) -> Any:
    return np.array(value, get_aval(like).dtype)[()]


def _inverse_with_zeros(x: Any, zeros: Any) -> Any:
    """``1 / (x + zeros) - zeros``: the reciprocal of ``x`` where ``zeros`` is 0, and 0 where it is 1."""
    return lax.sub(lax.div(_scalar(1.0, x), lax.add(x, zeros)), zeros)


def _svd_jvp(primals, tangents, *, full_matrices, compute_uv, subset_by_index, algorithm):
    (a,), (a_dot,) = primals, tangents
    aval = get_aval(a)
    m, n = aval.shape[-2:]
    if compute_uv and full_matrices and m != n:
        raise NotImplementedError("Singular value decomposition JVP not implemented for full matrices")
    dtype, ndim = aval.dtype, aval.ndim
    s, u, vt = svd_p.bind(a, full_matrices=False, compute_uv=True, subset_by_index=subset_by_index,
                          algorithm=algorithm)
    ut, v = adjoint(u), adjoint(vt)
    s_row = lax.expand_dims(s, (ndim - 2,))
    projected = _matmul(_matmul(ut, a_dot), v)
    s_dot = indexed_diagonal(lax.real(projected) if dtypes.issubdtype(dtype, np.complexfloating) else projected)
    if not compute_uv:
        return [s], [s_dot]

    gaps = lax.mul(lax.add(s_row, swap_minor_dims(s_row)), lax.sub(s_row, swap_minor_dims(s_row)))
    k = get_aval(s).shape[-1]
    eye = lax.broadcast_to_rank(lax_structural.eye(get_aval(s).dtype, (k, k)), ndim)
    inverse_gaps = _inverse_with_zeros(gaps, eye)
    scaled_left = lax.mul(_as(s_row, dtype), projected)
    scaled_right = lax.mul(swap_minor_dims(_as(s_row, dtype)), projected)
    s_zeros = lax.convert_element_type(lax.eq(s, _scalar(0.0, s)), get_aval(s).dtype)
    s_inverse = _inverse_with_zeros(s, s_zeros)
    s_inverse_matrix = diagonal_matrix(s_inverse)
    phase = lax.mul(lax.mul(_scalar(0.5, projected), lax.sub(projected, adjoint(projected))),
                    _as(s_inverse_matrix, dtype))
    u_dot = _matmul(u, lax.add(lax.mul(_as(inverse_gaps, dtype), lax.add(scaled_left, adjoint(scaled_left))), phase))
    v_dot = _matmul(v, lax.mul(_as(inverse_gaps, dtype), lax.add(scaled_right, adjoint(scaled_right))))
    if m > n:
        a_dot_v = _matmul(a_dot, v)
        u_dot = lax.add(u_dot, _divide(lax.sub(a_dot_v, _matmul(u, _matmul(ut, a_dot_v))), s_row))
    elif n > m:
        a_dot_h_u = _matmul(adjoint(a_dot), u)
        v_dot = lax.add(v_dot, _divide(lax.sub(a_dot_h_u, _matmul(v, _matmul(vt, a_dot_h_u))), s_row))
    return [s, u, vt], [s_dot, u_dot, adjoint(v_dot)]


def _divide(x: Any, s_row: Any) -> Any:
    return lax.div(x, _as(s_row, get_aval(x).dtype))


jvp_rules[svd_p] = _svd_jvp
