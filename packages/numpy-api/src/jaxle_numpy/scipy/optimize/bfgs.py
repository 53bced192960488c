"""BFGS (Nocedal and Wright's algorithm 6.1): the inverse Hessian estimate updated from each step and gradient
change, steps from the strong Wolfe line search, all in one ``while_loop`` as JAX 0.10.2 stages it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import lax, value_and_grad
from jaxle_core.lax.dot import Precision
from jaxle_numpy.scipy.optimize.line_search import line_search

__all__ = ["BFGSResults", "minimize_bfgs"]


class BFGSResults(NamedTuple):
    """The state of BFGS, and its result: whether it converged or its line search failed, the iterations, the
    function, gradient and Hessian evaluations, the point with the function value, gradient and inverse Hessian
    estimate there, the value before, and the status (0: converged, 1: out of iterations, 2 + the line search's
    status: the line search failed)."""
    converged: Any
    failed: Any
    k: Any
    nfev: Any
    ngev: Any
    nhev: Any
    x_k: Any
    f_k: Any
    g_k: Any
    H_k: Any  # noqa: N815 - the inverse Hessian's conventional name
    old_old_fval: Any
    status: Any
    line_search_status: Any


def minimize_bfgs(fun: Callable, x0: Any, maxiter: int | None = None, norm: Any = np.inf, gtol: float = 1e-5,
                  line_search_maxiter: int = 10) -> BFGSResults:
    """Minimize ``fun`` of a flat ``x`` from ``x0`` until the ``norm`` of the gradient is below ``gtol`` (or
    ``maxiter`` iterations, 200 per variable by default)."""
    if maxiter is None:
        maxiter = np.size(x0) * 200
    d = x0.shape[0]
    identity = jnp.eye(d, dtype=x0.dtype)
    f_0, g_0 = value_and_grad(fun)(x0)
    state = BFGSResults(converged=jnp.linalg.norm(g_0, ord=norm) < gtol, failed=False, k=0, nfev=1, ngev=1, nhev=0,
                        x_k=x0, f_k=f_0, g_k=g_0, H_k=identity,
                        old_old_fval=f_0 + jnp.linalg.norm(g_0) / 2, status=0, line_search_status=0)

    def step(state: BFGSResults) -> BFGSResults:
        direction = -jnp.dot(state.H_k, state.g_k, precision=Precision.HIGHEST)
        found = line_search(fun, state.x_k, direction, old_fval=state.f_k, old_old_fval=state.old_old_fval,
                            gfk=state.g_k, maxiter=line_search_maxiter)
        state = state._replace(nfev=state.nfev + found.nfev, ngev=state.ngev + found.ngev, failed=found.failed,
                               line_search_status=found.status)
        s_k = found.a_k * direction
        x_next = state.x_k + s_k
        f_next, g_next = found.f_k, found.g_k
        y_k = g_next - state.g_k
        rho_k = jnp.reciprocal(jnp.dot(y_k, s_k, precision=Precision.HIGHEST))
        sy_k = s_k[:, np.newaxis] * y_k[np.newaxis, :]
        w = jnp.eye(d, dtype=rho_k.dtype) - rho_k * sy_k
        h_next = (jnp.einsum("ij,jk,lk", w, state.H_k, w, precision=Precision.HIGHEST)
                  + rho_k * s_k[:, np.newaxis] * s_k[np.newaxis, :])
        h_next = jnp.where(jnp.isfinite(rho_k), h_next, state.H_k)
        converged = jnp.linalg.norm(g_next, ord=norm) < gtol
        return state._replace(converged=converged, k=state.k + 1, x_k=x_next, f_k=f_next, g_k=g_next, H_k=h_next,
                              old_old_fval=state.f_k)

    def running(state: BFGSResults) -> Any:
        return jnp.logical_not(state.converged) & jnp.logical_not(state.failed) & (state.k < maxiter)

    state = lax.while_loop(running, step, state)
    status = jnp.where(state.converged, 0,
                       jnp.where(state.k == maxiter, 1, jnp.where(state.failed, 2 + state.line_search_status, -1)))
    return state._replace(status=status)
