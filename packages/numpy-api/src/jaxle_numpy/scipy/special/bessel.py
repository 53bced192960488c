"""Bessel functions: the modified ones of the first kind of orders 0 and 1 (``i0``, ``i1``) and their exponentially
scaled forms (``i0e``, ``i1e``) over lax's ``bessel_i0e``/``bessel_i1e``, and ``bessel_jn``, the ordinary ones of
integer orders."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.creation import asarray

__all__ = ["bessel_jn", "i0", "i0e", "i1", "i1e"]


def i0e(x: Any) -> Any:
    """``exp(-|x|) i0(x)``."""
    x, = util.promote_args_inexact("i0e", x)
    return lax.bessel_i0e(x)


def i1e(x: Any) -> Any:
    """``exp(-|x|) i1(x)``."""
    x, = util.promote_args_inexact("i1e", x)
    return lax.bessel_i1e(x)


def i0(x: Any) -> Any:
    """The modified Bessel function of the first kind, order zero (``jnp.i0`` is another function of JAX's)."""
    x, = util.promote_args_inexact("i0", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i0e(x))


def i1(x: Any) -> Any:
    """The modified Bessel function of the first kind, order one."""
    x, = util.promote_args_inexact("i1", x)
    return lax.mul(lax.exp(lax.abs(x)), lax.bessel_i1e(x))


_RESCALE_ABOVE = 1e15  # the backward recurrence grows fast: values are scaled down past this


def bessel_jn(z: Any, *, v: int, n_iter: int = 50) -> Any:
    """``J_0(z) ... J_v(z)`` (stacked along a new leading axis) for real ``z > 0``, by Miller's backward recurrence
    ``J_(k-1) = 2k/z J_k - J_(k+1)`` started ``n_iter`` orders above ``max(v, z)`` and normalized by
    ``J_0 + 2 (J_2 + J_4 + ...) = 1``; NaN for ``z <= 0``, as in JAX."""
    v, n_iter = operator.index(v), operator.index(n_iter)
    z, = util.promote_args_inexact("bessel_jn", asarray(z))
    shape = get_aval(z).shape
    if v < 0:
        return lax.full((0,) + shape, 0, get_aval(z).dtype)
    positive = lax.gt(z, util.scalar_like(z, 0))
    safe_z = _where(positive, z, util.scalar_like(z, 1))
    start = max(v, int(np.ceil(n_iter / 2))) + n_iter
    upper, current = lax.full_like(z, 0), lax.full_like(z, 1e-30)  # J_(start+1), J_start up to scale
    normalization = lax.full_like(z, 0)
    orders: dict[int, Any] = {}
    for k in range(start, 0, -1):
        if k <= v:
            orders[k] = current
        if k % 2 == 0:
            normalization = lax.add(normalization, lax.mul(util.scalar_like(z, 2), current))
        lower = lax.sub(lax.mul(lax.div(util.scalar_like(z, 2 * k), safe_z), current), upper)
        upper, current = current, lower
        large = lax.gt(lax.abs(current), util.scalar_like(z, _RESCALE_ABOVE))
        scale = _where(large, util.scalar_like(z, 1 / _RESCALE_ABOVE), util.scalar_like(z, 1))
        upper, current, normalization = lax.mul(upper, scale), lax.mul(current, scale), lax.mul(normalization, scale)
        orders = {order: lax.mul(value, scale) for order, value in orders.items()}
    orders[0] = current
    normalization = lax.add(normalization, current)
    values = [lax.div(orders[order], normalization) for order in range(v + 1)]
    stacked = lax.concatenate([lax.broadcast_in_dim(value, (1,) + shape, tuple(range(1, len(shape) + 1)))
                               for value in values], 0)
    return _where(positive, stacked, util.scalar_like(z, np.nan))
