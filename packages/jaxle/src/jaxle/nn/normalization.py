"""``jax.nn``'s normalizing functions: ``softmax``/``log_softmax`` with ``where``, ``logsumexp`` (the very function
of ``jax.scipy.special``), ``logmeanexp`` and ``standardize``."""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import config, custom_jvp, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.scipy.special.log_sum_exp import logsumexp, shifted_by_max

__all__ = ["log_softmax", "logmeanexp", "logsumexp", "softmax", "standardize"]

ArrayLike = Any
Array = Any
Axis = int | tuple[int, ...] | None


def softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``exp(x) / sum(exp(x))`` over ``axis``; entries outside ``where`` take no part and come out 0. With
    ``jax_softmax_custom_jvp`` set, differentiated by its own rule (``y * (dx - sum(y * dx))``), as in JAX."""
    if config.config.jax_softmax_custom_jvp:
        return _softmax_with_rule(x, axis, where, -np.inf)
    unnormalized = jnp.exp(shifted_by_max(x, axis, where))
    return _normalized(unnormalized, axis, where)


def _normalized(unnormalized: Array, axis: Axis, where: ArrayLike | None) -> Array:
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    return result if where is None else jnp.where(where, result, 0)


def _softmax(x: ArrayLike, axis: Axis, where: ArrayLike | None, initial: Any) -> Array:
    x_max = jnp.max(x, axis, where=where, initial=initial, keepdims=True)
    x_safe = x if where is None else jnp.where(where, x, initial)
    return _normalized(jnp.exp(x_safe - x_max), axis, where)


_softmax_with_rule = custom_jvp(_softmax, nondiff_argnums=(1,))


def _softmax_jvp(axis: Axis, primals: tuple, tangents: tuple) -> tuple[Array, Array]:
    (x, where, initial), (x_dot, _, _) = primals, tangents
    y = _softmax_with_rule(x, axis, where, initial)
    return y, y * (x_dot - (y * x_dot).sum(axis, where=where, keepdims=True))


_softmax_with_rule.defjvp(_softmax_jvp)


@util.named_jit("log_softmax", static_argnames=("axis",))
def log_softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``x - logsumexp(x)`` over ``axis``; entries outside ``where`` take no part and come out -inf."""
    shifted = shifted_by_max(x, axis, where)
    result = shifted - jnp.log(jnp.sum(jnp.exp(shifted), axis, where=where, keepdims=True))
    return result if where is None else jnp.where(where, result, -np.inf)


@util.named_jit("logmeanexp", static_argnames=("axis", "keepdims"))
def logmeanexp(x: ArrayLike, axis: Axis = None, where: ArrayLike | None = None, keepdims: bool = False) -> Array:
    """``log(mean(exp(x)))`` over ``axis`` (over the entries in ``where``), without overflow."""
    log_total = logsumexp(x, axis, where=where, keepdims=keepdims)
    if where is None:
        axes = range(np.ndim(x)) if axis is None else np.atleast_1d(axis)
        count = np.asarray(np.prod([np.shape(x)[a] for a in axes]), get_aval(log_total).dtype)
    else:
        count = jnp.sum(where, axis, dtype=log_total.dtype, keepdims=keepdims)
    return log_total - jnp.log(count)


@util.named_jit("standardize", static_argnames=("axis", "algorithm"))
def standardize(x: ArrayLike, axis: Axis = -1, mean: ArrayLike | None = None, variance: ArrayLike | None = None,
                epsilon: ArrayLike = 1e-5, where: ArrayLike | None = None, *, algorithm: str = "fast") -> Array:
    """``(x - mean) / sqrt(variance + epsilon)`` over ``axis``, the moments computed when not given: ``"fast"``
    as ``E[x^2] - E[x]^2`` (clipped at 0), ``"stable"`` as ``E[(x - E[x])^2]``."""
    if algorithm not in ("fast", "stable"):
        raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "fast":
            variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where) - jnp.square(mean)
            variance = jnp.clip(variance, 0)  # rounding can make E[x^2] - E[x]^2 slightly negative
        else:
            variance = jnp.mean(jnp.square(x - mean), axis, keepdims=True, where=where)
    return jnp.subtract(x, mean) * lax.rsqrt(variance + epsilon)
