"""Lowering of the special functions (lax/special.py).

erf, erfc, erf_inv, lgamma, digamma, polygamma, zeta and bessel_i1e are CHLO ops, which XLA expands itself (as
JAX lowers them). ``bessel_i0e`` has no op: it is staged as lax operations, as JAX 0.10.2 lowers it (the same text
and bits): Cephes' Chebyshev series of exp(-x) I0(x) on [0, 8] and of exp(-x) I0(x) sqrt(x) beyond, summed by
Clenshaw's recurrence. ``igamma``, ``igammac`` and ``igamma_grad_a`` are staged in incomplete_gamma.py,
``regularized_incomplete_beta`` in incomplete_beta.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxle_core.avals import get_aval
from jaxle_core.lax import elementwise as ew
from jaxle_core.lax.creation import full_like
from jaxle_core.lax.special import (
    bessel_i0e_p,
    bessel_i1e_p,
    digamma_p,
    erf_inv_p,
    erf_p,
    erfc_p,
    lgamma_p,
    polygamma_p,
    zeta_p,
)
from jaxle_core.lax.structural import convert_element_type, select_n
from jaxle_xla.lowering.context import LoweringContext, Value
from jaxle_xla.lowering.module import elementwise_op, register_lowering

for _primitive, _op in [
    (erf_p, "chlo.erf"), (erfc_p, "chlo.erfc"), (erf_inv_p, "chlo.erf_inv"),
    (lgamma_p, "chlo.lgamma"), (digamma_p, "chlo.digamma"),
    (polygamma_p, "chlo.polygamma"), (zeta_p, "chlo.zeta"), (bessel_i1e_p, "chlo.bessel_i1e"),
]:
    elementwise_op(_primitive, _op)


# ---------------------------------------------------------------- Bessel


# Cephes' Chebyshev coefficients of exp(-x) I0(x) in x/2 - 2 on [0, 8] (A) and of exp(-x) I0(x) sqrt(x) in
# 32/x - 2 on (8, inf) (B): its float tables for float32, its double tables for float64.
_I0E_A = {
    np.dtype(np.float32): [
        -1.30002498e-8, 6.04699508e-8, -2.67079372e-7, 1.11738757e-6, -4.41673819e-6, 1.64484482e-5,
        -5.75419508e-5, 1.88502891e-4, -5.76375576e-4, 0.00163947558, -4.324310e-03, 0.0105464607,
        -0.0237374157, 0.0493052825, -9.490110e-02, 0.171620905, -0.304682672, 0.676795303],
    np.dtype(np.float64): [
        -4.4153416464793395e-18, 3.3307945188222384e-17, -2.4312798465479549e-16, 1.7153912855551331e-15,
        -1.1685332877993451e-14, 7.6761854986049361e-14, -4.856446783111929e-13, 2.9550526631296399e-12,
        -1.7268262914415559e-11, 9.6758090353732369e-11, -5.1897956016352627e-10, 2.6598237246823866e-9,
        -1.300025009986248e-8, 6.0469950225419186e-8, -2.6707938539406119e-7, 1.1173875391201037e-6,
        -4.4167383584587505e-6, 1.6448448070728896e-5, -5.754195010082104e-5, 1.8850288509584165e-4,
        -5.7637557453858236e-4, 0.0016394756169413357, -0.0043243099950505759, 0.010546460394594998,
        -0.023737414805899471, 0.049305284239670712, -0.094901097048047639, 0.17162090152220877,
        -0.3046826723431984, 0.67679527440947607],
}
_I0E_B = {
    np.dtype(np.float32): [
        3.39623196e-9, 2.26666899e-8, 2.04891862e-7, 2.89137051e-6, 6.88975852e-5, 0.00336911646, 0.804490387],
    np.dtype(np.float64): [
        -7.2331804878747538e-18, -4.8305044859441819e-18, 4.4656214202967598e-17, 3.4612228676974612e-17,
        -2.8276239805165836e-16, -3.425485619677219e-16, 1.7725601330565263e-15, 3.8116806693526224e-15,
        -9.5548466988283073e-15, -4.1505693472872222e-14, 1.54008621752141e-14, 3.8527783827421426e-13,
        7.180124451383666e-13, -1.7941785315068062e-12, -1.3215811840447713e-11, -3.1499165279632416e-11,
        1.1889147107846439e-11, 4.9406023882249701e-10, 3.3962320257083865e-9, 2.266668990498178e-8,
        2.0489185894690638e-7, 2.8913705208347567e-6, 6.8897583469168245e-5, 0.0033691164782556943,
        0.80449041101410879],
}


def _literal(x: Any, value: float) -> Any:
    """``value`` as a scalar of ``x``'s dtype (a literal in the jaxpr)."""
    return np.asarray(value, get_aval(x).dtype)[()]


def _chebyshev(t: Any, coefficients: Sequence[float]) -> Any:
    """Clenshaw's sum b0 - b2 of the Chebyshev series with ``coefficients`` (highest degree first) at t / 2,
    halved."""
    b0, b1, b2 = full_like(t, 0.0), full_like(t, 0.0), full_like(t, 0.0)
    for c in coefficients:
        b0, b1, b2 = ew.add(ew.sub(ew.mul(t, b0), b1), _literal(t, c)), b0, b1
    return ew.mul(_literal(t, 0.5), ew.sub(b0, b2))


def _staged_bessel_i0e(x: Any) -> Any:
    """exp(-|x|) I0(x) staged as lax operations, as JAX 0.10.2 lowers it (16-bit floats computed in float32)."""
    dtype = get_aval(x).dtype
    if dtype.itemsize < 4:
        x = convert_element_type(x, np.float32)
    compute = get_aval(x).dtype
    x = ew.abs(x)
    half, two, thirty_two = full_like(x, 0.5), full_like(x, 2.0), full_like(x, 32.0)
    small = _chebyshev(ew.sub(ew.mul(half, x), two), _I0E_A[compute])
    large = ew.div(_chebyshev(ew.sub(ew.div(thirty_two, x), two), _I0E_B[compute]), ew.sqrt(x))
    out = select_n(ew.le(x, _literal(x, 8.0)), large, small)
    return convert_element_type(out, dtype) if dtype != compute else out


@register_lowering(bessel_i0e_p)
def _bessel_i0e(ctx: LoweringContext, x: Value) -> Value:
    return ctx.lower_fun(_staged_bessel_i0e, x, reuse=True)[0]
