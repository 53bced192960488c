"""``logsumexp``, ``softmax`` and ``log_softmax``: sums of exponentials computed after shifting by the maximum, so
nothing overflows (``jax.nn`` shares ``logsumexp`` with this module)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.reductions import is_named, positional_axes
from jaxle_numpy.reductions import max as jnp_max
from jaxle_numpy.reductions import sum as jnp_sum
from jaxle_numpy.ufuncs import exp, log, real, subtract, true_divide

__all__ = ["log_softmax", "logsumexp", "softmax"]

Axis = int | tuple[int, ...] | None


def _reduction_axes(axis: Axis, ndim: int) -> tuple[int, ...]:
    """``axis`` as sorted non-negative dimensions of an array of rank ``ndim`` (every one when None)."""
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(util.canonicalize_axis(a, ndim) for a in (axis if isinstance(axis, (tuple, list)) else (axis,)))
    if len(set(axes)) != len(axes):
        raise ValueError(f"duplicate value in 'axis': {axis}")
    return axes


def _expand_reduced(x: Any, axes: tuple[int, ...], ndim: int) -> Any:
    """``x`` (reduced over ``axes``) with those dimensions back as size 1."""
    kept = tuple(d for d in range(ndim) if d not in axes)
    shape = tuple(1 if d in axes else get_aval(x).shape[kept.index(d)] for d in range(ndim))
    return lax.broadcast_in_dim(x, shape, kept)


def logsumexp(a: Any, axis: Axis = None, b: Any = None, keepdims: bool = False, return_sign: bool = False,
              where: Any = None) -> Any:
    """``log(sum(b * exp(a)))`` over ``axis``, stable for large ``a``; with ``return_sign`` also the sign of the sum
    (otherwise a negative sum gives NaN). A named ``axis`` (of ``vmap`` or ``shard_map``) reduces over it with
    collectives, as JAX's."""
    if b is not None:
        a, b = util.promote_args_inexact("logsumexp", a, b)
        a = _where(lax.ne(b, util.zero_of(b)), a, -np.inf)
    else:
        util.check_arraylike("logsumexp", a)
        a, = util.promote_dtypes_inexact(a)
    named = is_named(axis)
    # a bare named axis is one name here (the reductions would read a string as one name per character)
    axes = ((axis,) if isinstance(axis, str) else axis) if named else _reduction_axes(axis, get_aval(a).ndim)
    if where is not None:
        a = _where(where, a, 0)
    # of the real parts, taken by jnp.real as JAX's (which names an operand on other devices)
    amax = jnp_max(real(a), axis=axes, keepdims=keepdims, where=where, initial=-np.inf)
    amax = lax.stop_gradient(lax.select_n(lax.is_finite(amax), lax.full_like(amax, 0), amax))
    ndim = get_aval(a).ndim
    expanded = _reduction_axes(positional_axes(axis), ndim) if named else axes  # a named axis is gone, not kept
    shift = amax if keepdims or (named and not expanded) else _expand_reduced(amax, expanded, ndim)
    exp_a = lax.exp(lax.sub(a, shift))
    if b is not None:
        exp_a = lax.mul(exp_a, b)
    total = jnp_sum(exp_a, axis=axes, keepdims=keepdims, where=where)
    sign = lax.sign(total)
    out = lax.add(lax.log(lax.abs(total)), amax)
    if return_sign:
        return out, sign
    if b is not None:
        out = _where(lax.lt(sign, util.zero_of(sign)), util.scalar_like(out, np.nan), out)
    return out


def shifted_by_max(x: Any, axis: Axis, where: Any = None) -> Any:
    """``x`` minus its maximum over ``axis`` (kept as size-1 dimensions, held constant under differentiation), so
    that exponentials of it cannot overflow; with ``where``, entries outside it become -inf first. Shared by the
    softmax functions here and in ``jax.nn``."""
    x_max = jnp_max(x, axis, where=where, initial=-np.inf, keepdims=True)
    x_safe = x if where is None else _where(where, x, -np.inf)
    return subtract(x_safe, lax.stop_gradient(x_max))


def softmax(x: Any, /, *, axis: Axis = None) -> Any:
    """``exp(x) / sum(exp(x))`` over ``axis`` (every axis by default), shifted by the maximum for stability."""
    unnormalized = exp(shifted_by_max(x, axis))
    return true_divide(unnormalized, jnp_sum(unnormalized, axis, keepdims=True))


@util.named_jit("log_softmax", static_argnames=("axis",))
def log_softmax(x: Any, /, *, axis: Axis = None) -> Any:
    """``x - logsumexp(x)`` over ``axis`` (every axis by default)."""
    shifted = shifted_by_max(x, axis)
    return subtract(shifted, log(jnp_sum(exp(shifted), axis, keepdims=True)))
