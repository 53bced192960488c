"""Bessel functions: the modified ones of the first kind of orders 0 and 1 (``i0``, ``i1``) and their exponentially
scaled forms (``i0e``, ``i1e``) over lax's ``bessel_i0e``/``bessel_i1e``, and ``bessel_jn``, the ordinary ones of
integer orders (a ``scan`` of Miller's recurrence, vectorized over ``z`` with ``vmap``)."""

from __future__ import annotations

import functools
import operator
from typing import Any

from jaxle_core import jit, lax, vmap
from jaxle_core.avals import get_aval
from jaxle_core.lax.control_flow.scan import scan
from jaxle_numpy import util
from jaxle_numpy.creation import asarray
from jaxle_numpy.manipulation import moveaxis
from jaxle_numpy.ufuncs import remainder

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


def _bessel_jn_of_scalar(z: Any, *, v: int, n_iter: int) -> Any:
    """``J_0(z) ... J_v(z)`` for a scalar ``z`` by Miller's backward recurrence ``J_(k-1) = 2k/z J_k - J_(k+1)``
    from order ``n_iter + 1`` down to 0, started at ``(0, 1e-16)`` and normalized by ``J_0 + 2 (J_2 + J_4 + ...)
    = 1``."""
    orders = lax.iota(get_aval(z).dtype, n_iter + 1)

    def step(carry: tuple, k: Any) -> tuple:
        above, current, normalization = carry
        below = 2.0 * (k + 1.0) * current / z - above
        normalization = lax.cond(remainder(k, 2) == 0, lambda total, term: total + 2.0 * term,
                                 lambda total, term: total, normalization, below)
        return (current, below, normalization), below

    start = (lax.full_like(z, 0.0), lax.full_like(z, 1e-16), lax.full_like(z, 0.0))
    (_, _, normalization), recurrence = scan(step, start, orders, reverse=True)
    j0 = recurrence[0]
    return recurrence[:v + 1] / (normalization - j0)


@functools.partial(jit, static_argnames=("v", "n_iter"))
def bessel_jn(z: Any, *, v: int, n_iter: int = 50) -> Any:
    """``J_0(z) ... J_v(z)``, the Bessel functions of the first kind of integer orders, stacked along a new leading
    axis, by Miller's backward recurrence over ``n_iter`` orders (``z > 0``)."""
    z = asarray(z)
    z, = util.promote_dtypes_inexact(z)
    of_scalar = functools.partial(_bessel_jn_of_scalar, v=operator.index(v), n_iter=operator.index(n_iter))
    for _ in range(get_aval(z).ndim):
        of_scalar = vmap(of_scalar)
    return moveaxis(of_scalar(z), -1, 0)
