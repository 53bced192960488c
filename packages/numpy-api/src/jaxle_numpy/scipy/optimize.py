"""``jax.scipy.optimize``: unconstrained minimization of a function of one flat vector by BFGS, staged as a
``while_loop`` (so it runs under ``jit``), with a line search satisfying the strong Wolfe conditions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax, value_and_grad
from jaxle_core.avals import get_aval

__all__ = ["OptimizeResults", "minimize"]


class OptimizeResults(NamedTuple):
    """The result of ``minimize``: the minimizer ``x``, whether it converged (``status`` 0; 1: out of
    iterations, 3: the line search failed), the function value, gradient and inverse Hessian estimate there, and the
    number of function and gradient evaluations and iterations."""
    x: Any
    success: Any
    status: Any
    fun: Any
    jac: Any
    hess_inv: Any
    nfev: Any
    njev: Any
    nit: Any


_WOLFE_DECREASE = 1e-4
_WOLFE_CURVATURE = 0.9


def _line_search(value_grad: Callable, x: Any, f: Any, g: Any, direction: Any, f_previous: Any,
                 max_steps: int) -> tuple:
    """A step ``alpha`` along ``direction`` meeting the strong Wolfe conditions: from a first guess that expects
    the last decrease again, a bracketing phase that doubles the step, then bisection of the bracket; returns
    (alpha, f, g at the step, evaluations, failed)."""
    slope0 = jnp.dot(g, direction)
    dtype = get_aval(f).dtype
    first_guess = jnp.where(slope0 < 0, jnp.minimum(1.0, 1.01 * 2 * (f - f_previous) / slope0), 1.0)
    first_guess = jnp.where(first_guess > 0, first_guess, 1.0).astype(dtype)

    def state_at(alpha):
        f_new, g_new = value_grad(x + alpha * direction)
        return f_new, g_new, jnp.dot(g_new, direction)

    def cond(state):
        step, done = state[0], state[1]
        return (~done) & (step < max_steps)

    def body(state):
        step, _, low, high, alpha, f_low, _, _, evaluations = state
        f_new, g_new, slope = state_at(alpha)
        sufficient = (f_new <= f + _WOLFE_DECREASE * alpha * slope0) & (f_new <= f_low) & jnp.isfinite(f_new)
        curvature = jnp.abs(slope) <= -_WOLFE_CURVATURE * slope0
        done = sufficient & curvature
        # Too long a step (no sufficient decrease) caps the bracket; too short (still descending) raises its floor.
        too_long = ~sufficient
        ascending = sufficient & (slope > 0)
        new_high = jnp.where(too_long | ascending, alpha, high)
        new_low = jnp.where(sufficient & ~ascending & ~done, alpha, low)
        new_f_low = jnp.where(sufficient & ~ascending & ~done, f_new, f_low)
        bracketed = jnp.isfinite(new_high)
        next_alpha = jnp.where(bracketed, (new_low + new_high) / 2, 2 * alpha)
        next_alpha = jnp.where(done, alpha, next_alpha)
        return (step + 1, done, new_low, new_high, next_alpha, new_f_low, f_new, g_new, evaluations + 1)

    init = (0, jnp.array(False), jnp.zeros((), dtype), jnp.array(np.inf, dtype), first_guess, f, f, g, 0)
    _, done, _, _, alpha, _, f_new, g_new, evaluations = lax.while_loop(cond, body, init)
    return alpha, f_new, g_new, evaluations, ~done


def _bfgs(fun: Callable, x0: Any, maxiter: int | None, norm: float, gtol: float,
          line_search_maxiter: int) -> OptimizeResults:
    n = get_aval(x0).shape[0]
    maxiter = 200 * n if maxiter is None else maxiter
    value_grad = value_and_grad(fun)
    f0, g0 = value_grad(x0)
    dtype = get_aval(f0).dtype
    identity = jnp.eye(n, dtype=dtype)

    def grad_norm(g):
        return jnp.linalg.norm(g, ord=norm)

    def cond(state):
        k, converged, failed = state[0], state[1], state[2]
        return (~converged) & (~failed) & (k < maxiter)

    def body(state):
        k, _, _, x, f, g, h, f_previous, nfev, njev = state
        direction = -jnp.matmul(h, g, precision="highest")
        alpha, f_new, g_new, evaluations, failed = _line_search(value_grad, x, f, g, direction, f_previous,
                                                                line_search_maxiter)
        s = alpha * direction
        y = g_new - g
        rho_inverse = jnp.dot(y, s)
        rho = jnp.where(rho_inverse == 0, 1000.0, 1 / rho_inverse)
        left = identity - rho * jnp.outer(s, y)
        h_new = jnp.matmul(jnp.matmul(left, h, precision="highest"), left.T, precision="highest") + rho * jnp.outer(
            s, s)
        x_new = jnp.where(failed, x, x + s)
        f_new, g_new = jnp.where(failed, f, f_new), jnp.where(failed, g, g_new)
        h_new = jnp.where(failed, h, h_new)
        return (k + 1, grad_norm(g_new) < gtol, failed, x_new, f_new, g_new, h_new, f, nfev + evaluations,
                njev + evaluations)

    # Before the first step, the "previous" value is chosen so that the first guess of the step is |g|-sized.
    f_before = f0 + jnp.linalg.norm(g0) / 2
    init = (0, grad_norm(g0) < gtol, jnp.array(False), x0, f0, g0, identity, f_before, 1, 1)
    k, converged, failed, x, f, g, h, _, nfev, njev = lax.while_loop(cond, body, init)
    status = jnp.where(converged, 0, jnp.where(failed, 3, 1))
    return OptimizeResults(x=x, success=converged & ~failed, status=status, fun=f, jac=g, hess_inv=h, nfev=nfev,
                           njev=njev, nit=k)


def minimize(fun: Callable, x0: Any, args: tuple = (), *, method: str, tol: float | None = None,
             options: Mapping[str, Any] | None = None) -> OptimizeResults:
    """The minimum of ``fun(x, *args)`` over 1-d ``x`` from ``x0`` by ``method='BFGS'`` (``options``: maxiter,
    norm, gtol, line_search_maxiter; ``tol`` is the gradient tolerance when ``gtol`` is not given)."""
    options = dict(options or {})
    if method.lower() != "bfgs":
        raise ValueError(f"Method {method} not recognized")
    x0 = jnp.asarray(x0)
    if get_aval(x0).ndim != 1:
        raise ValueError(f"x0 must be 1-dimensional, got shape {get_aval(x0).shape}")
    if tol is not None:
        options.setdefault("gtol", tol)
    unknown = set(options) - {"maxiter", "norm", "gtol", "line_search_maxiter"}
    if unknown:
        raise TypeError(f"minimize_bfgs() got an unexpected keyword argument '{sorted(unknown)[0]}'")
    return _bfgs(lambda x: fun(x, *args), x0, options.get("maxiter"), options.get("norm", np.inf),
                 options.get("gtol", 1e-5), options.get("line_search_maxiter", 10))
