"""``jax.scipy.sparse.linalg``: Krylov solvers of ``A x = b`` for ``A`` given as a matrix or as a function computing
``A @ x`` (``b`` and ``x`` pytrees of arrays) — conjugate gradients, BiCGSTAB and restarted GMRES (its cycle by
Givens rotations, ``'incremental'``, or by normal equations, ``'batched'``) — each staged as JAX 0.10.2 stages them:
while loops inside a ``custom_linear_solve``, so that derivatives solve the transposed system the same way."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import core, dtypes, lax
from jaxle_core.array import Array
from jaxle_core.lax.control_flow.solves import custom_linear_solve
from jaxle_core.lax.dot import Precision
from jaxle_core.lax.placement import staged_device_put
from jaxle_core.lax.structural import convert_keeping_weak_type
from jaxle_numpy.scipy.linalg import solve, solve_triangular
from jaxle_tree import tree_flatten, tree_leaves, tree_map, tree_reduce, tree_structure, tree_unflatten

__all__ = ["cg", "bicgstab", "gmres"]


def _dot(a: Any, b: Any) -> Any:
    return jnp.dot(a, b, precision=Precision.HIGHEST)


def _vdot(a: Any, b: Any) -> Any:
    return jnp.vdot(a, b, precision=Precision.HIGHEST)


def _vdot_real_part(x: Any, y: Any) -> Any:
    """The real part of ``vdot(x, y)``, without the cross terms of real and imaginary parts."""
    result = _vdot(x.real, y.real)
    if jnp.iscomplexobj(x) or jnp.iscomplexobj(y):
        result += _vdot(x.imag, y.imag)
    return result


def _vdot_real_tree(x: Any, y: Any) -> Any:
    return sum(tree_leaves(tree_map(_vdot_real_part, x, y)))


def _vdot_tree(x: Any, y: Any) -> Any:
    return sum(tree_leaves(tree_map(_vdot, x, y)))


def _norm(x: Any) -> Any:
    leaves = tree_leaves(x)
    return jnp.sqrt(sum(map(_vdot_real_part, leaves, leaves)))


def _mul(scalar: Any, tree: Any) -> Any:
    return tree_map(lambda leaf: scalar * leaf, tree)


def _add(x: Any, y: Any) -> Any:
    return tree_map(operator.add, x, y)


def _sub(x: Any, y: Any) -> Any:
    return tree_map(operator.sub, x, y)


def _identity(x: Any) -> Any:
    return x


def _lattice_type(tree: Any) -> tuple[np.dtype, bool]:
    return dtypes.result_type(*tree_leaves(tree), return_weak_type_flag=True)


def _as_operator(f: Any) -> Callable[[Any], Any]:
    """``f`` as a function computing a matrix-vector product: itself when callable, else its product."""
    if callable(f):
        return f
    if isinstance(f, (np.ndarray, Array, core.Tracer)):
        if f.ndim != 2 or f.shape[0] != f.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {f.shape}")
        return functools.partial(_dot, f)
    if hasattr(f, "__matmul__"):
        if hasattr(f, "shape") and len(f.shape) != 2 or f.shape[0] != f.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {f.shape}")
        return functools.partial(operator.matmul, f)
    raise TypeError(f"linear operator must be either a function or ndarray: {f}")


def _device_put(tree: Any) -> Any:
    """``tree``'s leaves as arrays; inside a transformation its traced leaves pass through one ``device_put``
    equation, as JAX's ``device_put`` stages them."""
    leaves, treedef = tree_flatten(tree)
    if core.evaluates_eagerly(leaves):
        return tree_unflatten(treedef, [jnp.asarray(leaf) for leaf in leaves])
    staged = [i for i, leaf in enumerate(leaves) if isinstance(leaf, (core.Tracer, bool, int, float, complex))]
    if staged:
        for i, out in zip(staged, staged_device_put([leaves[i] for i in staged], None)):
            leaves[i] = out
    return tree_unflatten(treedef, leaves)


def _shapes(tree: Any) -> list[tuple[int, ...]]:
    return [np.shape(leaf) for leaf in tree_leaves(tree)]


def _squared_tolerance(b: Any, tol: float, atol: float) -> Any:
    """``max(tol |b|, atol)^2``: the squared residual norm at which cg and bicgstab stop."""
    b_squared = _vdot_real_tree(b, b)
    return jnp.maximum(jnp.square(tol) * b_squared, jnp.square(atol))


# ---------------------------------------------------------------------------------------------- cg and bicgstab


def _cg_solve(A: Callable, b: Any, x0: Any, *, maxiter: int, tol: float, atol: float,  # noqa: N803
              M: Callable) -> Any:  # noqa: N803
    """Preconditioned conjugate gradients; ``gamma`` is ``<r, M r>``, the residual's squared norm when ``M`` is
    the identity."""
    atol2 = _squared_tolerance(b, tol, atol)

    def running(carry: tuple) -> Any:
        _, r, gamma, _, k = carry
        residual = gamma.real if M is _identity else _vdot_real_tree(r, r)
        return (residual > atol2) & (k < maxiter)

    def step(carry: tuple) -> tuple:
        x, r, gamma, p, k = carry
        ap = A(p)
        alpha = gamma / _vdot_real_tree(p, ap).astype(dtype)
        x_next = _add(x, _mul(alpha, p))
        r_next = _sub(r, _mul(alpha, ap))
        z_next = M(r_next)
        gamma_next = _vdot_real_tree(r_next, z_next).astype(dtype)
        beta = gamma_next / gamma
        return x_next, r_next, gamma_next, _add(z_next, _mul(beta, p)), k + 1

    r0 = _sub(b, A(x0))
    p0 = z0 = M(r0)
    dtype = dtypes.result_type(*tree_leaves(p0))
    gamma0 = _vdot_real_tree(r0, z0).astype(dtype)
    x, *_ = lax.while_loop(running, step, (x0, r0, gamma0, p0, 0))
    return x


def _bicgstab_solve(A: Callable, b: Any, x0: Any, *, maxiter: int, tol: float, atol: float,  # noqa: N803
                    M: Callable) -> Any:  # noqa: N803
    """Preconditioned BiCGSTAB; the step count becomes -10 (``rho`` vanished) or -11 (``omega`` or ``alpha``
    did) on a breakdown, which stops the loop."""
    atol2 = _squared_tolerance(b, tol, atol)

    def running(carry: tuple) -> Any:
        _, r, *_, k = carry
        return (_vdot_real_tree(r, r) > atol2) & (k < maxiter) & (k >= 0)

    def step(carry: tuple) -> tuple:
        x, r, r_hat, alpha, omega, rho, p, q, k = carry
        rho_next = _vdot_tree(r_hat, r)
        beta = rho_next / rho * alpha / omega
        p_next = _add(r, _mul(beta, _sub(p, _mul(omega, q))))
        p_hat = M(p_next)
        q_next = A(p_hat)
        alpha_next = rho_next / _vdot_tree(r_hat, q_next)
        s = _sub(r, _mul(alpha_next, q_next))
        converged_early = _vdot_real_tree(s, s) < atol2
        s_hat = M(s)
        t = A(s_hat)
        omega_next = _vdot_tree(t, s) / _vdot_tree(t, t)
        pick = functools.partial(jnp.where, converged_early)
        x_next = tree_map(pick, _add(x, _mul(alpha_next, p_hat)),
                          _add(x, _add(_mul(alpha_next, p_hat), _mul(omega_next, s_hat))))
        r_next = tree_map(pick, s, _sub(s, _mul(omega_next, t)))
        k_next = jnp.where((omega_next == 0) | (alpha_next == 0), -11, k + 1)
        k_next = jnp.where((rho_next == 0), -10, k_next)
        return x_next, r_next, r_hat, alpha_next, omega_next, rho_next, p_next, q_next, k_next

    r0 = _sub(b, A(x0))
    one = convert_keeping_weak_type(1, *_lattice_type(b))
    x, *_ = lax.while_loop(running, step, (x0, r0, r0, one, one, one, r0, r0, 0))
    return x


def _isolve(solve_with: Callable, A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5,  # noqa: N803
            atol: float = 0.0, maxiter: int | None = None, M: Any = None,  # noqa: N803
            check_symmetric: bool = False) -> tuple[Any, None]:
    """``(x, None)``: ``solve_with`` as a ``custom_linear_solve`` of ``A x = b`` (symmetric when asked and ``b`` is
    real)."""
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    b, x0 = _device_put((b, x0))
    if maxiter is None:
        maxiter = 10 * sum(leaf.size for leaf in tree_leaves(b))  # SciPy's default
    A, M = _as_operator(A), _as_operator(_identity if M is None else M)  # noqa: N806
    if tree_structure(x0) != tree_structure(b):
        raise ValueError(f"x0 and b must have matching tree structure: {tree_structure(x0)} vs {tree_structure(b)}")
    if _shapes(x0) != _shapes(b):
        raise ValueError(f"arrays in x0 and b must have matching shapes: {_shapes(x0)} vs {_shapes(b)}")
    solve_fn = functools.partial(solve_with, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)
    symmetric = check_symmetric and all(not jnp.iscomplexobj(leaf) for leaf in tree_leaves(b))
    return custom_linear_solve(A, b, solve=solve_fn, transpose_solve=solve_fn, symmetric=symmetric), None


def cg(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, maxiter: int | None = None,  # noqa: N803
       M: Any = None) -> tuple[Any, None]:  # noqa: N803
    """``(x, None)``: the solution of ``A x = b`` for Hermitian positive definite ``A`` by conjugate gradients
    (preconditioned by ``M``, an approximation of ``A``'s inverse), stopping at ``|r| <= max(tol |b|, atol)`` or
    after ``maxiter`` iterations (10 per unknown by default)."""
    return _isolve(_cg_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M, check_symmetric=True)


def bicgstab(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0,  # noqa: N803
             maxiter: int | None = None, M: Any = None) -> tuple[Any, None]:  # noqa: N803
    """``(x, None)``: the solution of ``A x = b`` for general ``A`` by the (preconditioned) biconjugate gradient
    stabilized method, with ``cg``'s stopping rule."""
    return _isolve(_bicgstab_solve, A=A, b=b, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)


# ------------------------------------------------------------------------------------------------------- gmres


def _safe_normalize(x: Any, thresh: Any = None) -> tuple[Any, Any]:
    """``(x / |x|, |x|)``, or zeros and 0 where ``|x|`` is at most ``thresh`` (``eps`` by default)."""
    norm = _norm(x)
    dtype, weak_type = _lattice_type(x)
    if thresh is None:
        thresh = jnp.finfo(norm.dtype).eps
    thresh = thresh.astype(dtype).real
    use_norm = norm > thresh
    norm_cast = convert_keeping_weak_type(norm, dtype, weak_type)
    normalized = tree_map(lambda y: jnp.where(use_norm, y / norm_cast, 0.0), x)
    return normalized, jnp.where(use_norm, norm, 0.0)


def _project_on_columns(basis: Any, v: Any) -> Any:
    """``basis^H v`` summed over the pytree's leaves (each leaf's last axis indexes the columns)."""
    projections = tree_map(lambda columns, y: jnp.einsum("...n,...->n", columns.conj(), y,
                                                         precision=Precision.HIGHEST), basis, v)
    return tree_reduce(operator.add, projections)


def _gram_schmidt(basis: Any, x: Any, x_norm: Any, max_iterations: int = 2) -> tuple[Any, Any]:
    """``x`` orthogonalized against ``basis``'s columns by classical Gram-Schmidt, repeated (at most
    ``max_iterations`` passes) while the projection removed is large beside what is left; with the coefficients."""
    first = tree_leaves(basis)[0]
    r = jnp.zeros(first.shape[-1], dtype=first.dtype)
    q = x
    x_norm_scaled = x_norm / jnp.sqrt(2.0)

    def one_pass(carry: tuple) -> tuple:
        k, q, r, q_norm_scaled = carry
        h = _project_on_columns(basis, q)
        q = _sub(q, tree_map(lambda columns: _dot(columns, h), basis))
        r = _add(r, h)

        def measuring(carry: tuple) -> Any:
            k, not_done, _, _ = carry
            return jnp.logical_and(not_done, k < (max_iterations - 1))

        def measure(carry: tuple) -> tuple:
            k, _, q, _ = carry
            _, q_norm = _safe_normalize(q)
            return k, False, q, q_norm / jnp.sqrt(2.0)

        _, _, q, q_norm_scaled = lax.while_loop(measuring, measure, (k, True, q, q_norm_scaled))
        return k + 1, q, r, q_norm_scaled

    def again(carry: tuple) -> Any:
        k, _, r, q_norm_scaled = carry
        _, r_norm = _safe_normalize(r)
        return jnp.logical_and(k < (max_iterations - 1), r_norm < q_norm_scaled)

    carry = one_pass((0, q, r, x_norm_scaled))
    _, q, r, _ = lax.while_loop(again, one_pass, carry)
    return q, r


def _arnoldi_step(k: Any, A: Callable, M: Callable, V: Any, H: Any) -> tuple[Any, Any, Any]:  # noqa: N803
    """The ``k``-th Arnoldi step: basis vector ``k + 1`` of ``V`` and row ``k`` of ``H``; breakdown when the new
    vector vanishes."""
    dtype, _ = _lattice_type(V)
    eps = jnp.finfo(dtype).eps
    v = M(A(tree_map(lambda columns: columns[..., k], V)))
    _, v_norm_0 = _safe_normalize(v)
    v, h = _gram_schmidt(V, v, v_norm_0, max_iterations=2)
    unit_v, v_norm_1 = _safe_normalize(v, thresh=eps * v_norm_0)
    V = tree_map(lambda columns, y: columns.at[..., k + 1].set(y), V, unit_v)  # noqa: N806
    h = h.at[k + 1].set(v_norm_1.astype(dtype))
    return V, H.at[k, :].set(h), v_norm_1 == 0.


def _rotate(H: Any, i: Any, cs: Any, sn: Any) -> Any:  # noqa: N803
    """Entries ``i`` and ``i + 1`` of ``H`` turned by the Givens rotation ``(cs, sn)``."""
    x, y = H[i], H[i + 1]
    turned_x = cs.conj() * x - sn.conj() * y
    turned_y = sn * x + cs * y
    return H.at[i].set(turned_x).at[i + 1].set(turned_y)


def _givens(a: Any, b: Any) -> tuple[Any, Any]:
    """The rotation ``(cs, sn)`` that zeroes ``b`` against ``a``."""
    b_zero = abs(b) == 0
    a_smaller = abs(a) < abs(b)
    t = -jnp.where(a_smaller, a, b) / jnp.where(a_smaller, b, a)
    r = lax.rsqrt(1 + abs(t) ** 2).astype(t.dtype)
    return (jnp.where(b_zero, 1, jnp.where(a_smaller, r * t, r)),
            jnp.where(b_zero, 0, jnp.where(a_smaller, r, r * t)))


def _triangularize_row(h_row: Any, givens: Any, k: Any) -> tuple[Any, Any]:
    """Row ``k`` of the Hessenberg matrix turned by the ``k`` rotations so far and a new one (recorded in
    ``givens``) that zeroes its subdiagonal entry."""
    r_row = lax.fori_loop(0, k, lambda i, row: _rotate(row, i, *givens[i, :]), h_row)
    factors = _givens(r_row[k], r_row[k + 1])
    givens = givens.at[k, :].set(factors)
    return _rotate(r_row, k, *factors), givens


def _padded_basis(unit_residual: Any, restart: int) -> Any:
    return tree_map(lambda x: jnp.pad(x[..., None], ((0, 0),) * x.ndim + ((0, restart),)), unit_residual)


def _gmres_incremental(A: Callable, b: Any, x0: Any, unit_residual: Any, residual_norm: Any,  # noqa: N803
                       ptol: Any, restart: int, M: Callable) -> tuple[Any, Any, Any]:  # noqa: N803
    """One GMRES cycle with the least-squares problem kept triangular by Givens rotations as the basis grows,
    stopping early once its residual estimate is at most ``ptol``."""
    V = _padded_basis(unit_residual, restart)  # noqa: N806
    dtype = dtypes.result_type(*tree_leaves(b))
    R = jnp.eye(restart, restart + 1, dtype=dtype)  # noqa: N806
    givens = jnp.zeros((restart, 2), dtype=dtype)
    beta = jnp.zeros((restart + 1), dtype=dtype).at[0].set(residual_norm.astype(dtype))

    def running(carry: tuple) -> Any:
        k, err, *_ = carry
        return jnp.logical_and(k < restart, err > ptol)

    def step(carry: tuple) -> tuple:
        k, _, V, R, beta, givens = carry  # noqa: N806
        V, H, _ = _arnoldi_step(k, A, M, V, R)  # noqa: N806
        r_row, givens = _triangularize_row(H[k, :], givens, k)
        R = R.at[k, :].set(r_row)  # noqa: N806
        beta = _rotate(beta, k, *givens[k, :])
        err = abs(beta[k + 1])
        return k + 1, err, V, R, beta, givens

    _, _, V, R, beta, _ = lax.while_loop(running, step, (0, residual_norm, V, R, beta, givens))  # noqa: N806
    y = solve_triangular(R[:, :-1].T, beta[:-1])
    x = _add(x0, tree_map(lambda columns: _dot(columns[..., :-1], y), V))
    return (x, *_safe_normalize(M(_sub(b, A(x)))))


def _gmres_batched(A: Callable, b: Any, x0: Any, unit_residual: Any, residual_norm: Any,  # noqa: N803
                   ptol: Any, restart: int, M: Callable) -> tuple[Any, Any, Any]:  # noqa: N803
    """One GMRES cycle: the whole Arnoldi basis (until a breakdown), then the least-squares problem by its normal
    equations (a Cholesky solve)."""
    del ptol
    V = _padded_basis(unit_residual, restart)  # noqa: N806
    dtype, weak_type = _lattice_type(b)
    H = convert_keeping_weak_type(jnp.eye(restart, restart + 1, dtype=dtype), dtype, weak_type)  # noqa: N806

    def running(carry: tuple) -> Any:
        _, _, breakdown, k = carry
        return jnp.logical_and(k < restart, jnp.logical_not(breakdown))

    def step(carry: tuple) -> tuple:
        V, H, _, k = carry  # noqa: N806
        V, H, breakdown = _arnoldi_step(k, A, M, V, H)  # noqa: N806
        return V, H, breakdown, k + 1

    V, H, _, _ = lax.while_loop(running, step, (V, H, False, 0))  # noqa: N806
    beta = jnp.zeros_like(H, shape=(restart + 1,)).at[0].set(residual_norm.astype(dtype))
    hessenberg = H.T
    y = solve(_dot(hessenberg.T.conj(), hessenberg), _dot(hessenberg.T.conj(), beta), assume_a="pos")
    x = _add(x0, tree_map(lambda columns: _dot(columns[..., :-1], y), V))
    return (x, *_safe_normalize(M(_sub(b, A(x)))))


_CYCLES = {"incremental": _gmres_incremental, "batched": _gmres_batched}


def _gmres_solve(A: Callable, b: Any, x0: Any, atol: Any, ptol: Any, restart: int, maxiter: int,  # noqa: N803
                 M: Callable, cycle: Callable) -> Any:  # noqa: N803
    """GMRES restarted: cycles of ``restart`` basis vectors until the preconditioned residual is at most ``atol``
    or ``maxiter`` cycles have run."""
    unit_residual, residual_norm = _safe_normalize(M(_sub(b, A(x0))))

    def running(carry: tuple) -> Any:
        _, k, _, residual_norm = carry
        return jnp.logical_and(k < maxiter, residual_norm > atol)

    def step(carry: tuple) -> tuple:
        x, k, unit_residual, residual_norm = carry
        x, unit_residual, residual_norm = cycle(A, b, x, unit_residual, residual_norm, ptol, restart, M)
        return x, k + 1, unit_residual, residual_norm

    x, *_ = lax.while_loop(running, step, (x0, 0, unit_residual, residual_norm))
    return x


def gmres(A: Any, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0, restart: int = 20,  # noqa: N803
          maxiter: int | None = None, M: Any = None, solve_method: str = "batched") -> tuple[Any, Any]:  # noqa: N803
    """``(x, info)``: the solution of ``A x = b`` for general ``A`` by GMRES restarted every ``restart`` basis
    vectors (at most ``maxiter`` cycles), each cycle ``'incremental'`` (Givens rotations, stopping early) or
    ``'batched'``; ``info`` is -1 when the solution is NaN, else 0."""
    if x0 is None:
        x0 = tree_map(jnp.zeros_like, b)
    A, M = _as_operator(A), _as_operator(_identity if M is None else M)  # noqa: N806
    b, x0 = _device_put((b, x0))
    size = sum(leaf.size for leaf in tree_leaves(b))
    if maxiter is None:
        maxiter = 10 * size  # SciPy's default
    restart = min(restart, size)
    if tree_structure(x0) != tree_structure(b):
        raise ValueError(f"x0 and b must have matching tree structure: {tree_structure(x0)} vs {tree_structure(b)}")
    b_norm = _norm(b)
    atol = jnp.maximum(tol * b_norm, atol)
    ptol = _norm(M(b)) * jnp.minimum(1.0, atol / b_norm)
    if solve_method not in _CYCLES:
        raise ValueError(f"invalid solve_method {solve_method}, must be either 'incremental' or 'batched'")

    def solve_fn(A: Callable, b: Any) -> Any:  # noqa: N803
        return _gmres_solve(A, b, x0, atol, ptol, restart, maxiter, M, _CYCLES[solve_method])

    x = custom_linear_solve(A, b, solve=solve_fn, transpose_solve=solve_fn)
    return x, jnp.where(jnp.isnan(_norm(x)), -1, 0)
