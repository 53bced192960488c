"""``jax.scipy.linalg.eigh_tridiagonal``: the eigenvalues of a real symmetric (or Hermitian) tridiagonal matrix by
bisection on Sturm sequence counts, all eigenvalues searched in parallel, and its eigenvectors by inverse iteration
from random start vectors, as JAX 0.10.2 does.

The start vectors are normal draws from jaxle-random, which depends on jaxle-numpy; the meta-package ``jaxle``
registers the key constructor and sampler here (``register_random``) when it is imported."""

from __future__ import annotations

from collections.abc import Callable
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
_MAX_INVERSE_STEPS = 5  # LAPACK's xSTEIN limit
_NORM_GROWTH = 1 + 0.1  # inverse iteration stops once no vector's norm grows by 10% in a step
_DEFAULT_SEED = 42

# ``(key, normal)``: jaxle-random's ``key(seed)`` and ``normal(key, shape, dtype)``, once registered.
_random: tuple[Callable[[int], Any], Callable[[Any, tuple[int, ...], Any], Any]] | None = None


def register_random(key: Callable[[int], Any], normal: Callable[[Any, tuple[int, ...], Any], Any]) -> None:
    """Set the PRNG ``key(seed)`` constructor and ``normal(key, shape, dtype)`` sampler that draw the start vectors
    of the eigenvectors' inverse iteration (the meta-package registers jaxle-random's)."""
    global _random
    _random = (key, normal)


def _registered_random() -> tuple[Callable[[int], Any], Callable[[Any, tuple[int, ...], Any], Any]]:
    if _random is None:
        raise RuntimeError("eigh_tridiagonal computes eigenvectors by inverse iteration from random start vectors, "
                           "drawn with jaxle-random: import jaxle (which registers it), or pass "
                           "eigvals_only=True")
    return _random


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
    if not eigvals_only and key is None:
        key = _registered_random()[0](_DEFAULT_SEED)
    alpha, beta = jnp.asarray(d), jnp.asarray(e)
    if alpha.dtype != beta.dtype:
        raise TypeError(f"diagonal and off-diagonal values must have same dtype, got {alpha.dtype} and {beta.dtype}")
    if alpha.dtype not in _SUPPORTED or beta.dtype not in _SUPPORTED:
        raise TypeError("Only float32 and float64 inputs are supported as inputs to "
                        f"jax.scipy.linalg.eigh_tridiagonal, got {alpha.dtype} and {beta.dtype}")
    n = get_aval(alpha).shape[0]
    if n <= 1:
        return jnp.real(alpha) if eigvals_only else (jnp.real(alpha), jnp.eye(n, dtype=alpha.dtype))
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
    return values, _inverse_iteration(alpha, beta, values, key).T


def _cluster_bounds(values: Any) -> tuple[Any, Any, Any]:
    """The first and one-past-last indices of the runs of (ascending) ``values`` closer than ``sqrt(eps)`` times
    the largest magnitude, padded to ``k // 2 + 1`` runs, and how many runs there are."""
    k = get_aval(values).shape[0]
    gap = values[1:] - values[:-1]
    largest = jnp.maximum(jnp.abs(values[0]), jnp.abs(values[-1]))
    close = gap < jnp.sqrt(np.finfo(values.dtype).eps) * largest
    close_left = jnp.pad(close, (1, 0), constant_values=False)
    close_right = jnp.pad(close, (0, 1), constant_values=False)
    run_start = jnp.logical_and(jnp.logical_not(close_left), close_right)
    run_end = jnp.logical_and(close_left, jnp.logical_not(close_right))
    most = k // 2 + 1
    starts = jnp.nonzero(run_start, size=most)[0]
    ends = jnp.nonzero(run_end, size=most)[0] + 1
    return starts, ends, jnp.sum(run_start)


def _orthonormalize_clusters(vectors: Any, starts: Any, ends: Any, count: Any, rows: Any) -> Any:
    """``vectors`` (rows, indexed by ``rows``) with each run ``starts[i]:ends[i]`` (of close eigenvalues, whose
    vectors only their span determines) replaced by an orthonormal basis of its span, from a QR factorization."""
    k, n = get_aval(vectors).shape

    def one_run(i: Any, vectors: Any) -> Any:
        start, end = starts[i], ends[i]
        size = end - start
        block = lax.dynamic_slice(jnp.pad(vectors, ((0, k), (0, 0))), (start, 0), (k, n))
        mask = (rows < size).astype(vectors.dtype)
        q, _ = jnp.linalg.qr((block * mask[:, None]).T)
        basis = q.T * mask[:, None]
        placed = lax.dynamic_update_slice(jnp.zeros((2 * k, n), dtype=vectors.dtype), basis, (start, 0))[:k, :]
        in_run = (rows >= start) & (rows < end)
        return jnp.where(in_run[:, None], placed, vectors)

    return lax.fori_loop(0, count, one_run, vectors)


def _inverse_iteration(alpha: Any, beta: Any, values: Any, key: Any) -> Any:
    """The eigenvectors (rows) for ``values``: all solved for at once by inverse iteration with the shifted
    tridiagonal matrices, from normal start vectors drawn with ``key``, re-orthonormalizing close clusters after
    every step."""
    n, k = get_aval(alpha).shape[0], get_aval(values).shape[0]
    lower_diagonal = jnp.pad(jnp.conj(beta), (1, 0))
    upper_diagonal = jnp.pad(beta, (0, 1))
    starts, ends, count = _cluster_bounds(values)
    rows = jnp.arange(k)
    solve_dtype = np.result_type(alpha.dtype, beta.dtype)
    start = _registered_random()[1](key, (k, n), np.finfo(solve_dtype).dtype).astype(solve_dtype)
    start = start / jnp.linalg.norm(start, axis=-1, keepdims=True).astype(solve_dtype)
    shifted = alpha[None, :] - values[:, None]
    lower_diagonals = jnp.broadcast_to(lower_diagonal[None, :], (k, n))
    upper_diagonals = jnp.broadcast_to(upper_diagonal[None, :], (k, n))

    def step(state: tuple[Any, Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
        i, vectors, norms, _ = state
        solved = lax_linalg.tridiagonal_solve(
            lower_diagonals.astype(solve_dtype), shifted.astype(solve_dtype), upper_diagonals.astype(solve_dtype),
            vectors[:, :, None].astype(solve_dtype), perturb_singular=True)
        solved = jnp.squeeze(solved, axis=-1)
        new_norms = jnp.linalg.norm(solved, axis=-1, keepdims=True)
        solved = solved / new_norms.astype(solved.dtype)
        new_norms = jnp.squeeze(new_norms, axis=-1)
        solved = _orthonormalize_clusters(solved, starts, ends, count, rows)
        return i + 1, solved, new_norms, norms

    def growing(state: tuple[Any, Any, Any, Any]) -> Any:
        i, _, norms, old_norms = state
        return jnp.logical_and(i < _MAX_INVERSE_STEPS, jnp.any(norms >= _NORM_GROWTH * old_norms))

    initial = (0, start, jnp.ones(k, dtype=values.dtype), jnp.zeros(k, dtype=values.dtype))
    return lax.while_loop(growing, step, initial)[1]
