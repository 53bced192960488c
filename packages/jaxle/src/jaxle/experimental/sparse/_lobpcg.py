"""``lobpcg_standard``: the top eigenpairs of a Hermitian operator by LOBPCG (locally optimal block preconditioned
conjugate gradient, without preconditioner).

Each iteration extends the current block ``X`` of approximate eigenvectors by its residuals ``R`` and the previous
search directions ``P``, orthonormalizes the extension against ``X`` (directions that have become numerically
dependent are dropped), and keeps the top ``k`` Ritz pairs of the operator in that basis (Rayleigh-Ritz). The loop
ends after ``m`` iterations or once every residual is small against the eigenvalue's scale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle import lax
from jaxle import numpy as jnp

__all__ = ["lobpcg_standard"]


def _as_operator(A: Any) -> Callable[[Any], Any]:
    if callable(A):
        return A
    matrix = jnp.asarray(A)
    return lambda x: jnp.matmul(matrix, x, precision=lax.Precision.HIGHEST)


def _check(operator: Callable[[Any], Any], X: Any) -> tuple[int, int]:
    """JAX's errors for an initial block or operator that cannot work."""
    if X.ndim < 2:
        raise ValueError(f"not enough values to unpack (expected 2, got {X.ndim})")
    if X.ndim > 2:
        raise ValueError("too many values to unpack (expected 2)")
    n, k = X.shape
    if k == 0:
        raise ValueError(f"must have search dim > 0, got {k}")
    if k * 5 >= n:
        raise ValueError(f"expected search dim * 5 < matrix dim (got {k * 5}, {n})")
    probe = operator(jnp.zeros((n, 1), X.dtype))
    if probe.shape != (n, 1):
        raise ValueError(f"A must be ({n}, {n}) matrix A, got output {probe.shape}")
    if probe.dtype != X.dtype:
        raise ValueError(f"A, X must have same dtypes (were {probe.dtype}, {X.dtype})")
    return n, k


def _adjoint(x: Any) -> Any:
    return jnp.conj(x).T


def _orthonormal_extension(X: Any, Y: Any, eps: float) -> Any:
    """An orthonormal basis of the part of ``span(Y)`` orthogonal to the orthonormal columns of ``X``, as columns
    of ``Y``'s count: directions too small to be told from rounding are zero columns."""
    for _ in range(2):  # a second pass restores the orthogonality the first loses to rounding
        Y = Y - X @ (_adjoint(X) @ Y)
        gram = _adjoint(Y) @ Y
        w, V = jnp.linalg.eigh(gram)
        keep = w > jnp.max(w) * eps * Y.shape[0]
        Y = (Y @ V) * jnp.where(keep, lax.rsqrt(jnp.where(keep, w, 1)), 0)
    return Y


def _residual_norms(X: Any, AX: Any, theta: Any) -> tuple[Any, Any]:
    return jnp.linalg.norm(AX - X * theta, axis=0), jnp.linalg.norm(AX, axis=0)


def lobpcg_standard(A: Any, X: Any, m: int = 100, tol: Any = None) -> tuple[Any, Any, Any]:
    """The ``k`` largest eigenvalues (descending) of the Hermitian ``A`` (an ``(n, n)`` array or a function applying
    it) and their eigenvectors, from the ``(n, k)`` initial block ``X`` (``5 k < n``), with the number of iterations
    run (at most ``m``). An eigenpair has converged when its residual norm is below
    ``tol * 10 * n * (eigenvalue + |A v|)`` (``tol`` defaults to the dtype's epsilon)."""
    X = jnp.asarray(X)
    operator = _as_operator(A)
    n, k = _check(operator, X)
    real_dtype = jnp.finfo(X.dtype).dtype
    eps = float(np.finfo(real_dtype).eps)
    tol = eps if tol is None else tol
    X = jnp.linalg.qr(X)[0]
    AX = operator(X)
    theta = jnp.real(jnp.sum(jnp.conj(X) * AX, axis=0))

    def converged(X, AX, theta):
        residual, scale = _residual_norms(X, AX, theta)
        return jnp.all(residual < tol * 10 * n * (theta + scale))

    def keep_going(state):
        i, X, AX, theta, _ = state
        return (i < m) & ~converged(X, AX, theta)

    def iteration(state):
        i, X, AX, theta, P = state
        extension = _orthonormal_extension(X, jnp.concatenate([AX - X * theta, P], axis=1), eps)
        basis = jnp.concatenate([X, extension], axis=1)
        applied = jnp.concatenate([AX, operator(extension)], axis=1)
        projected = _adjoint(basis) @ applied
        projected = (projected + _adjoint(projected)) / 2
        # dropped (zero) directions get an eigenvalue below every other, so that none is kept
        dropped = jnp.concatenate([jnp.zeros((k,), bool), jnp.all(extension == 0, axis=0)])
        floor = -2 * jnp.linalg.norm(projected) - 1
        projected = projected + jnp.diag(jnp.where(dropped, floor, 0).astype(projected.dtype))
        w, C = jnp.linalg.eigh(projected)
        w, C = w[::-1][:k], C[:, ::-1][:, :k]
        return i + 1, basis @ C, applied @ C, w.astype(real_dtype), extension @ C[k:]

    start = (jnp.int32(0), X, AX, theta.astype(real_dtype), jnp.zeros_like(X))
    i, X, _, theta, _ = lax.while_loop(keep_going, iteration, start)
    return theta, X, i
