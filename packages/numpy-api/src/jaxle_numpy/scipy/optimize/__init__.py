"""``jax.scipy.optimize``: unconstrained minimization of a function of one flat vector by BFGS, with the strong
Wolfe line search of Nocedal and Wright (zooming by cubic, quadratic or bisection steps), staged as while loops as
JAX 0.10.2 does, so it runs under ``jit``."""

from jaxle_numpy.scipy.optimize.minimize import OptimizeResults, minimize

__all__ = ["OptimizeResults", "minimize"]
