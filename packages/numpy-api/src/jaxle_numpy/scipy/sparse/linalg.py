"""``jax.scipy.sparse.linalg``: Krylov solvers of ``A x = b`` for ``A`` given as a matrix or as a function
computing ``A @ x`` — conjugate gradients, BiCGSTAB and restarted GMRES — each staged as a ``while_loop``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_core.lax.control_flow.solves import custom_linear_solve
from jaxle_numpy.util import check_arraylike
from jaxle_tree import tree_flatten, tree_leaves, tree_structure, tree_unflatten

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


class _FlatProblem:
    """``A``, ``M``, ``b`` and ``x0`` (pytrees of arrays, like ``b``) seen as one flat vector of ``b``'s leaves in
    their common dtype, so that the solvers run on vectors."""

    def __init__(self, fun_name: str, A: Any, b: Any, x0: Any, M: Any):  # noqa: N803 - SciPy's names
        leaves, self.treedef = tree_flatten(b)
        check_arraylike(fun_name, *leaves)
        leaves = [jnp.asarray(leaf) for leaf in leaves]
        self.shapes = [get_aval(leaf).shape for leaf in leaves]
        self.dtypes = [get_aval(leaf).dtype for leaf in leaves]
        self.dtype = jnp.result_type(*leaves)
        if x0 is not None and (tree_structure(x0) != self.treedef
                               or [jnp.shape(leaf) for leaf in tree_leaves(x0)] != self.shapes):
            raise ValueError("x0 and b must have matching tree structure and shapes")
        self.b = self.ravel(b)
        self.x0 = jnp.zeros_like(self.b) if x0 is None else self.ravel(x0)
        apply_a, apply_m = _as_operator(A), (lambda x: x) if M is None else _as_operator(M)
        self.apply_a = lambda v: self.ravel(apply_a(self.unravel(v)))
        self.apply_m = lambda v: self.ravel(apply_m(self.unravel(v)))

    def ravel(self, tree: Any) -> Any:
        return jnp.concatenate([jnp.ravel(jnp.asarray(leaf)).astype(self.dtype) for leaf in tree_leaves(tree)])

    def unravel(self, vector: Any) -> Any:
        leaves, offset = [], 0
        for shape, dtype in zip(self.shapes, self.dtypes):
            size = int(np.prod(shape))
            leaves.append(vector[offset:offset + size].reshape(shape).astype(dtype))
            offset += size
        return tree_unflatten(self.treedef, leaves)

    def solve(self, iterate: Callable, symmetric: bool, has_aux: bool = False) -> Any:
        """``A x = b`` by ``iterate(apply_a, b, x0, apply_m)``, as a ``custom_linear_solve`` so that derivatives
        solve the (transposed) system again with the same method; with ``has_aux``, ``iterate`` returns ``(x,
        aux)`` and so does this."""
        def solve_with(matvec, rhs):
            return iterate(matvec, rhs, self.x0, self.apply_m)
        solution = custom_linear_solve(self.apply_a, self.b, solve=solve_with,
                                       transpose_solve=None if symmetric else solve_with, symmetric=symmetric,
                                       has_aux=has_aux)
        if has_aux:
            return self.unravel(solution[0]), solution[1]
        return self.unravel(solution)


def _stop_threshold(b: Any, tol: float, atol: float) -> Any:
    """The squared residual norm below which an iteration stops: ``max(tol |b|, atol)^2``."""
    return jnp.maximum(tol * _norm(b), atol) ** 2


def _default_maxiter(b: Any, maxiter: int | None) -> int:
    return 10 * get_aval(b).size if maxiter is None else maxiter


def cg(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,  # noqa: N803
       M: Any = None) -> tuple[Any, None]:  # noqa: N803
    """``(x, None)``: the solution of ``A x = b`` for Hermitian positive definite ``A`` by (preconditioned, with
    ``M`` approximating ``A``'s inverse) conjugate gradients, stopping at ``|r| <= max(tol |b|, atol)`` or after
    ``maxiter`` iterations."""
    def iterate(apply_a, b, x0, apply_m):
        return _cg_loop(apply_a, b, x0, apply_m, _default_maxiter(b, maxiter), _stop_threshold(b, tol, atol))
    return _FlatProblem("cg", A, b, x0, M).solve(iterate, symmetric=True), None


def _cg_loop(apply_a: Callable, b: Any, x0: Any, apply_m: Callable, maxiter: int, threshold: Any) -> Any:
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
    return x


def bicgstab(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0,  # noqa: N803
             maxiter: int | None = None, M: Any = None) -> tuple[Any, None]:  # noqa: N803
    """``(x, None)``: the solution of ``A x = b`` for general ``A`` by the (preconditioned) biconjugate gradient
    stabilized method, with ``cg``'s stopping rule."""
    def iterate(apply_a, b, x0, apply_m):
        return _bicgstab_loop(apply_a, b, x0, apply_m, _default_maxiter(b, maxiter), _stop_threshold(b, tol, atol))
    return _FlatProblem("bicgstab", A, b, x0, M).solve(iterate, symmetric=False), None


def _bicgstab_loop(apply_a: Callable, b: Any, x0: Any, apply_m: Callable, maxiter: int, threshold: Any) -> Any:
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
    return x


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
    problem = _FlatProblem("gmres", A, b, x0, M)
    restart = min(restart, get_aval(problem.b).size)

    def iterate(apply_a, b, x0, apply_m):
        x, cycles, converged = _gmres_loop(apply_a, b, x0, apply_m, restart, _default_maxiter(b, maxiter),
                                           _stop_threshold(b, tol, atol))
        return x, jnp.where(converged, 0, cycles)
    return problem.solve(iterate, symmetric=False, has_aux=True)


def _gmres_loop(apply_a: Callable, b: Any, x0: Any, apply_m: Callable, restart: int, maxiter: int,
                threshold: Any) -> tuple[Any, Any, Any]:
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
    return x, cycles, residual_squared(x) <= threshold
