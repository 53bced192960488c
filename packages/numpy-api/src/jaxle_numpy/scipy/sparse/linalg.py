"""``jax.scipy.sparse.linalg``: Krylov solvers of ``A x = b`` for ``A`` given as a matrix or as a function
computing ``A @ x`` — conjugate gradients, BiCGSTAB and restarted GMRES — each staged as a ``while_loop``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy.util import check_arraylike

__all__ = ["cg", "bicgstab", "gmres"]


def _as_operator(a: Any) -> Callable[[Any], Any]:
    if callable(a):
        return a
    matrix = jnp.asarray(a)
    return lambda x: jnp.matmul(matrix, x, precision="highest")


def _vdot(x: Any, y: Any) -> Any:
    return jnp.sum(jnp.conj(x) * y)


def _norm(x: Any) -> Any:
    return jnp.sqrt(jnp.real(_vdot(x, x)))


def _setup(A: Any, b: Any, x0: Any, tol: float, atol: float, maxiter: int | None, M: Any, fun_name: str):  # noqa: N803
    check_arraylike(fun_name, b)
    b = jnp.asarray(b)
    x0 = jnp.zeros_like(b) if x0 is None else jnp.asarray(x0)
    if get_aval(x0).shape != get_aval(b).shape:
        raise ValueError("x0 and b must have matching tree structure and shapes")
    size = get_aval(b).size
    maxiter = 10 * size if maxiter is None else maxiter
    threshold = jnp.maximum(tol * _norm(b), atol) ** 2
    identity = (lambda x: x)  # noqa: E731 - the default preconditioner
    return _as_operator(A), b, x0, maxiter, threshold, identity if M is None else _as_operator(M)


def cg(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,  # noqa: N803
       M: Any = None) -> tuple[Any, None]:  # noqa: N803
    """``(x, None)``: the solution of ``A x = b`` for Hermitian positive definite ``A`` by (preconditioned, with
    ``M`` approximating ``A``'s inverse) conjugate gradients, stopping at ``|r| <= max(tol |b|, atol)`` or after
    ``maxiter`` iterations."""
    apply_a, b, x0, maxiter, threshold, apply_m = _setup(A, b, x0, tol, atol, maxiter, M, "cg")
    r0 = b - apply_a(x0)
    z0 = apply_m(r0)

    def cond(state):
        _, r, _, _, k = state
        return (jnp.real(_vdot(r, r)) > threshold) & (k < maxiter)

    def body(state):
        x, r, z, p, k = state
        ap = apply_a(p)
        rz = _vdot(r, z)
        alpha = rz / _vdot(p, ap)
        x, r_new = x + alpha * p, r - alpha * ap
        z_new = apply_m(r_new)
        beta = _vdot(r_new, z_new) / rz
        return x, r_new, z_new, z_new + beta * p, k + 1

    x, *_ = lax.while_loop(cond, body, (x0, r0, z0, z0, 0))
    return x, None


def bicgstab(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0,  # noqa: N803
             maxiter: int | None = None, M: Any = None) -> tuple[Any, None]:  # noqa: N803
    """``(x, None)``: the solution of ``A x = b`` for general ``A`` by the (preconditioned) biconjugate gradient
    stabilized method, with ``cg``'s stopping rule."""
    apply_a, b, x0, maxiter, threshold, apply_m = _setup(A, b, x0, tol, atol, maxiter, M, "bicgstab")
    r0 = b - apply_a(x0)
    one = jnp.ones((), get_aval(b).dtype)

    def cond(state):
        _, r, *_, k = state
        return (jnp.real(_vdot(r, r)) > threshold) & (k < maxiter) & (k >= 0)

    def body(state):
        x, r, rho, alpha, omega, v, p, k = state
        rho_new = _vdot(r0, r)
        beta = (rho_new / rho) * (alpha / omega)
        p = r + beta * (p - omega * v)
        p_hat = apply_m(p)
        v = apply_a(p_hat)
        alpha = rho_new / _vdot(r0, v)
        s = r - alpha * v
        s_hat = apply_m(s)
        t = apply_a(s_hat)
        omega = _vdot(t, s) / _vdot(t, t)
        x = x + alpha * p_hat + omega * s_hat
        r = s - omega * t
        # A breakdown (rho or omega zero) stops the iteration with the current iterate.
        k = jnp.where((rho_new == 0) | (omega == 0), -10, k + 1)
        return x, r, rho_new, alpha, omega, v, p, k

    zeros = jnp.zeros_like(b)
    x, *_ = lax.while_loop(cond, body, (x0, r0, one, one, one, zeros, zeros, 0))
    return x, None


def _arnoldi_cycle(apply_a: Callable, apply_m: Callable, x: Any, b: Any, restart: int) -> Any:
    """One GMRES cycle: the Krylov basis of the preconditioned residual by modified Gram-Schmidt, then the
    correction minimizing the residual over it (a small least-squares problem)."""
    r = apply_m(b - apply_a(x))
    beta = _norm(r)
    flat = r.reshape(-1)
    dtype = get_aval(flat).dtype
    n = get_aval(flat).shape[0]
    basis = jnp.zeros((restart + 1, n), dtype).at[0].set(flat / jnp.where(beta == 0, 1, beta))
    hessenberg = jnp.zeros((restart + 1, restart), dtype)

    def step(j, carry):
        basis, hessenberg = carry
        w = apply_m(apply_a(basis[j].reshape(get_aval(x).shape))).reshape(-1)
        for_rows = np.arange(restart + 1)

        def orthogonalize(i, state):
            w, column = state
            coefficient = jnp.where(i <= j, _vdot(basis[i], w), 0)
            return w - coefficient * basis[i], column.at[i].set(coefficient)

        w, column = lax.fori_loop(0, restart + 1, orthogonalize, (w, jnp.zeros(restart + 1, dtype)))
        norm = _norm(w)
        column = jnp.where(for_rows == j + 1, norm, column)
        basis = basis.at[j + 1].set(w / jnp.where(norm == 0, 1, norm))
        return basis, hessenberg.at[:, j].set(column)

    basis, hessenberg = lax.fori_loop(0, restart, step, (basis, hessenberg))
    rhs = jnp.zeros(restart + 1, dtype).at[0].set(beta)
    coefficients = jnp.linalg.lstsq(hessenberg, rhs)[0]
    return x + jnp.matmul(coefficients, basis[:-1], precision="highest").reshape(get_aval(x).shape)


def gmres(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, restart: int = 20,  # noqa: N803
          maxiter: int | None = None, M: Any = None, solve_method: str = "batched") -> tuple[Any, Any]:  # noqa: N803
    """``(x, info)``: the solution of ``A x = b`` for general ``A`` by GMRES restarted every ``restart`` Krylov
    vectors (at most ``maxiter`` cycles); ``info`` is 0 on convergence, else the number of cycles run."""
    if solve_method not in ("incremental", "batched"):
        raise ValueError(f"invalid solve_method {solve_method}, must be either 'incremental' or 'batched'")
    apply_a, b, x0, maxiter, threshold, apply_m = _setup(A, b, x0, tol, atol, maxiter, M, "gmres")
    restart = min(restart, get_aval(b).size)

    def residual_squared(x):
        r = b - apply_a(x)
        return jnp.real(_vdot(r, r))

    def cond(state):
        x, k = state
        return (residual_squared(x) > threshold) & (k < maxiter)

    def body(state):
        x, k = state
        return _arnoldi_cycle(apply_a, apply_m, x, b, restart), k + 1

    x, cycles = lax.while_loop(cond, body, (x0, 0))
    info = jnp.where(residual_squared(x) > threshold, cycles, 0)
    return x, info
