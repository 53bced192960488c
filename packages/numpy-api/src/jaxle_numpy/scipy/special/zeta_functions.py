"""The Hurwitz zeta function ``zeta(x, q)`` over lax's ``zeta``, with derivatives in both arguments."""

from __future__ import annotations

from typing import Any

from jaxle_core import custom_jvp, jvp, lax
from jaxle_numpy import util

__all__ = ["zeta"]

_DIRECT_TERMS = 10
# B_2j / (2j)! for j = 1..6: the coefficients of the Euler-Maclaurin tail
_EULER_MACLAURIN = (1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160, -691 / 1307674368000)


def _zeta_euler_maclaurin(x: Any, q: Any) -> Any:
    """``zeta(x, q)`` as ten direct terms plus the Euler-Maclaurin tail: differentiable in ``x`` by tracing."""
    one = util.weak_scalar_like(x, 1)
    total = lax.full_like(lax.add(x, q), 0)
    for k in range(_DIRECT_TERMS):
        total = lax.add(total, lax.pow(lax.add(q, util.weak_scalar_like(q, k)), lax.neg(x)))
    a = lax.add(q, util.weak_scalar_like(q, _DIRECT_TERMS))
    a_to_minus_x = lax.pow(a, lax.neg(x))
    total = lax.add(total, lax.div(lax.mul(a, a_to_minus_x), lax.sub(x, one)))
    total = lax.add(total, lax.mul(util.weak_scalar_like(x, 0.5), a_to_minus_x))
    factor = lax.div(lax.mul(x, a_to_minus_x), a)  # x (x+1) ... (x+2j-2) / a**(x+2j-1), for j = 1 first
    for j, coefficient in enumerate(_EULER_MACLAURIN, start=1):
        total = lax.add(total, lax.mul(util.weak_scalar_like(x, coefficient), factor))
        factor = lax.div(lax.mul(lax.mul(factor, lax.add(x, util.weak_scalar_like(x, 2 * j - 1))),
                                 lax.add(x, util.weak_scalar_like(x, 2 * j))), lax.square(a))
    return total


def _zeta_body(x: Any, q: Any) -> Any:
    return lax.zeta(x, q)


_zeta_body.__name__ = "zeta"
_zeta = custom_jvp(_zeta_body)
_zeta.defjvps(lambda g, ans, x, q: jvp(lambda s: _zeta_euler_maclaurin(s, q), (x,), (g,))[1],
              lambda g, ans, x, q: lax.mul(g, lax.mul(lax.neg(x), lax.zeta(lax.add(x, util.weak_scalar_like(x, 1)),
                                                                           q))))


def zeta(x: Any, q: Any = None) -> Any:
    """The Hurwitz zeta function ``sum((k + q) ** -x for k >= 0)``; ``q`` is required (no Riemann zeta)."""
    if q is None:
        raise NotImplementedError("Riemann zeta function not implemented; pass q != None to compute the Hurwitz "
                                  "Zeta function.")
    x, q = util.promote_args_inexact("zeta", x, q)
    return _zeta(x, q)
