"""``jax.scipy.optimize.minimize`` and its ``OptimizeResults``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

import jaxle_numpy as jnp
from jaxle_numpy.scipy.optimize.bfgs import minimize_bfgs

__all__ = ["OptimizeResults", "minimize"]


class OptimizeResults(NamedTuple):
    """The result of ``minimize``: the minimizer ``x``, whether it succeeded, the status (0: converged, 1: out of
    iterations, 2 + the line search's status: the line search failed), the function value, gradient and inverse
    Hessian estimate there, and the numbers of function and gradient evaluations and of iterations."""
    x: Any
    success: Any
    status: Any
    fun: Any
    jac: Any
    hess_inv: Any
    nfev: Any
    njev: Any
    nit: Any


def minimize(fun: Callable, x0: Any, args: tuple = (), *, method: str, tol: float | None = None,
             options: Mapping[str, Any] | None = None) -> OptimizeResults:
    """The minimum of ``fun(x, *args)`` over 1-d ``x`` from ``x0`` by ``method='BFGS'``; ``options`` are BFGS's
    (maxiter, norm, gtol, line_search_maxiter). ``tol`` is accepted and, as in JAX, unused."""
    del tol
    if options is None:
        options = {}
    if not isinstance(args, tuple):
        raise TypeError(f"args argument to jax.scipy.optimize.minimize must be a tuple, got {args}")

    def fun_with_args(x: Any) -> Any:
        return fun(x, *args)

    if method.lower() == "bfgs":
        results = minimize_bfgs(fun_with_args, x0, **options)
        return OptimizeResults(x=results.x_k, success=results.converged & jnp.logical_not(results.failed),
                               status=results.status, fun=results.f_k, jac=results.g_k, hess_inv=results.H_k,
                               nfev=results.nfev, njev=results.ngev, nit=results.k)
    raise ValueError(f"Method {method} not recognized")
