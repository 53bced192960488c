"""``jax.scipy.linalg.eigh_tridiagonal``: the eigenvalues of a real symmetric (or Hermitian) tridiagonal matrix by
bisection on Sturm sequence counts, all eigenvalues searched in parallel, as JAX 0.10.2 does."""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax import linalg as lax_linalg
from jaxle_numpy.util import named_jit

__all__ = ["eigh_tridiagonal"]

_SUPPORTED = (np.float32, np.float64, np.complex64, np.complex128)
_UNROLL = 16  # Sturm steps per while-loop trip
_FUDGE = 2.1  # how much the Gershgorin interval is widened before the search


def _sturm_step(alpha: Any, beta_sq: Any, pivmin: Any, x: Any, i: Any, q: Any, count: Any) -> tuple[Any, Any]:
    """Step ``i`` of the Sturm recurrence ``q_i = alpha_i - beta_{i-1}^2 / q_{i-1} - x``, counting the pivots at or
    below ``pivmin`` (which are clamped to ``-pivmin``)."""
    q = alpha[i] - beta_sq[i - 1] / q - x
    count = jnp.where(q <= pivmin, count + 1, count)
    return jnp.where(q <= pivmin, jnp.minimum(q, -pivmin), q), count


def _sturm_count(alpha: Any, beta_sq: Any, pivmin: Any, alpha0_perturbation: Any, x: Any) -> Any:
    """How many eigenvalues lie below each ``x``: the negative pivots of ``T - x I``'s LDL^T factorization. The steps
    that do not fill a block of ``_UNROLL`` run first, unrolled; the rest in a while loop unrolled by blocks."""
    n = get_aval(alpha).shape[0]
    zeros = jnp.zeros(get_aval(x).shape, dtype=np.int32)
    ones = jnp.ones(get_aval(x).shape, dtype=np.int32)
    q = alpha[0] - x
    count = jnp.where(q < 0, ones, zeros)
    q = jnp.where(alpha[0] == x, alpha0_perturbation, q)

    def steps(start: Any, q: Any, count: Any, how_many: int) -> tuple[Any, Any, Any]:
        for offset in range(how_many):
            q, count = _sturm_step(alpha, beta_sq, pivmin, x, start + offset, q, count)
        return start + how_many, q, count

    carry = steps(1, q, count, (n - 1) % _UNROLL)
    _, _, count = lax.while_loop(lambda carry: jnp.less(carry[0], n), lambda carry: steps(*carry, _UNROLL), carry)
    return count


def _target_counts(n: int, select: str, select_range: Any) -> Any:
    if select == "a":
        return jnp.arange(n, dtype=np.int32)
    if select == "i":
        if select_range is None:
            raise ValueError("for select='i', select_range must be specified.")
        if select_range[0] > select_range[1]:
            raise ValueError("Got empty index range in select_range.")
        return jnp.arange(select_range[0], select_range[1] + 1, dtype=np.int32)
    if select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    raise ValueError("'select must have a value in {'a', 'i', 'v'}.")


@named_jit("eigh_tridiagonal", ("eigvals_only", "select", "select_range"))
def eigh_tridiagonal(d: Any, e: Any, *, eigvals_only: bool = False, select: str = "a", select_range: Any = None,
                     tol: float | None = None, key: Any = None) -> Any:
    """The eigenvalues (ascending) of the symmetric tridiagonal matrix with diagonal ``d`` and off-diagonal ``e``,
    by parallel bisection on Sturm counts to within ``tol`` (at least ``eps`` times the Gershgorin bound of the
    norm); ``select='i'`` keeps the index range ``select_range`` (inclusive). Unless ``eigvals_only``, also the
    eigenvectors (columns)."""
    del key
    alpha, beta = jnp.asarray(d), jnp.asarray(e)
    if alpha.dtype != beta.dtype:
        raise TypeError(f"diagonal and off-diagonal values must have same dtype, got {alpha.dtype} and {beta.dtype}")
    if alpha.dtype not in _SUPPORTED or beta.dtype not in _SUPPORTED:
        raise TypeError("Only float32 and float64 inputs are supported as inputs to "
                        f"jax.scipy.linalg.eigh_tridiagonal, got {alpha.dtype} and {beta.dtype}")
    n = get_aval(alpha).shape[0]
    if n <= 1:
        return jnp.real(alpha) if eigvals_only else (jnp.real(alpha), jnp.eye(n, dtype=alpha.dtype))
    original = alpha
    if jnp.issubdtype(alpha.dtype, np.complexfloating):
        alpha = jnp.real(alpha)
        beta_sq = jnp.real(beta * jnp.conj(beta))
        beta_abs = jnp.sqrt(beta_sq)
    else:
        beta_abs = jnp.abs(beta)
        beta_sq = jnp.square(beta)

    # Gershgorin bounds on the spectrum, and on the 2-norm.
    row_sums = jnp.concatenate([beta_abs[:1], beta_abs[:-1] + beta_abs[1:], beta_abs[-1:]], axis=0)
    highest = jnp.amax(alpha + row_sums)
    lowest = jnp.amin(alpha - row_sums)
    t_norm = jnp.maximum(jnp.abs(lowest), jnp.abs(highest))

    finfo = np.finfo(alpha.dtype)
    one = np.ones([], dtype=alpha.dtype)
    safemin = np.maximum(one / finfo.max, (one + finfo.eps) * finfo.tiny)
    pivmin = safemin * jnp.maximum(1, jnp.amax(beta_sq))  # the smallest pivot, against overflow
    alpha0_perturbation = jnp.square(finfo.eps * beta_abs[0])
    abs_tol = finfo.eps * t_norm
    if tol is not None:
        abs_tol = jnp.maximum(tol, abs_tol)
    max_iterations = finfo.nmant + 1  # enough halvings for eps * t_norm from an interval of width 2 t_norm

    target_counts = _target_counts(n, select, select_range)
    norm_slack = jnp.array(n, alpha.dtype) * _FUDGE * finfo.eps * t_norm
    lower = lowest - norm_slack - 2 * _FUDGE * pivmin
    upper = highest + norm_slack + _FUDGE * pivmin
    shape = np.shape(target_counts)
    lower = jnp.broadcast_to(lower, shape=shape)
    upper = jnp.broadcast_to(upper, shape=shape)
    mid = 0.5 * (upper + lower)
    pivmin = jnp.broadcast_to(pivmin, shape)
    alpha0_perturbation = jnp.broadcast_to(alpha0_perturbation, shape)

    def unfinished(carry: tuple[Any, Any, Any, Any]) -> Any:
        i, lower, _, upper = carry
        return jnp.logical_and(jnp.less(i, max_iterations), jnp.less(abs_tol, jnp.amax(upper - lower)))

    def halve(carry: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
        i, lower, mid, upper = carry
        counts = _sturm_count(alpha, beta_sq, pivmin, alpha0_perturbation, mid)
        lower = jnp.where(counts <= target_counts, mid, lower)
        upper = jnp.where(counts > target_counts, mid, upper)
        mid = 0.5 * (lower + upper)
        return i + 1, lower, mid, upper

    _, _, values, _ = lax.while_loop(unfinished, halve, (0, lower, mid, upper))
    if eigvals_only:
        return values
    matrix = jnp.diag(original) + jnp.diag(jnp.conj(beta), -1) + jnp.diag(beta, 1)
    vectors, _ = lax_linalg.eigh(matrix, symmetrize_input=False)
    if select == "i":
        vectors = vectors[:, select_range[0]:select_range[1] + 1]
    return values, vectors
