"""The Faddeeva function ``wofz(z) = exp(-z**2) erfc(-i z)`` and the real functions of its family: Dawson's integral
``dawsn`` and the Fresnel integrals ``fresnel``, each with its derivative rule.

``wofz`` is Weideman's rational approximation (J. A. C. Weideman, SIAM J. Numer. Anal. 31, 1994) with 32 terms in the
upper half-plane, reflected by ``w(z) = 2 exp(-z**2) - w(-z)``; ``dawsn`` and ``fresnel`` are Cephes' rational
approximations (S. L. Moshier), in single or double precision as the input is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import custom_jvp, dtypes, jit, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import where
from jaxle_numpy.creation import ones_like, zeros
from jaxle_numpy.polynomial import polyval
from jaxle_numpy.ufuncs import abs as absolute
from jaxle_numpy.ufuncs import exp, fmod, imag, isinf, logical_and, real, sign, sin, square

__all__ = ["dawsn", "fresnel", "wofz"]

# Weideman's coefficients for N = 32, highest power first, and his scale L = sqrt(N / sqrt(2))
_WEIDEMAN = np.array([-1.3034426067909105e-12, 3.741183837373847e-12, 8.030427700497756e-12, -2.154359355749088e-11,
    -5.544244996323793e-11, 1.165824698850374e-10, 4.1537441121999766e-10, -5.231020211492061e-10,
    -3.2080151339721323e-09, 8.124886421653591e-10, 2.3797556530014025e-08, 2.2930438438915445e-08,
    -1.4813078929137642e-07, -4.1840763750512053e-07, 4.2558331397138446e-07, 4.401531731283225e-06,
    6.821031944357515e-06, -2.1409619201999998e-05, -0.0001307544925457942, -0.00024532980270038237,
    0.00039259136070109705, 0.004519541105349309, 0.0190061557848455, 0.05730440352983728, 0.14060716226893755,
    0.2954445107150874, 0.5460139720639338, 0.9019254893648001, 1.345544169234545, 1.8256696296324815,
    2.2635372999002676, 2.5722534081245696])
_WEIDEMAN_SCALE = math.sqrt(32 / math.sqrt(2))


def _complex_scalar_like(x: Any, value: complex) -> Any:
    """The complex scalar ``value`` of the precision (and weak type) of the real array ``x``."""
    return lax.complex(lax.full_like(x, value.real, shape=()), lax.full_like(x, value.imag, shape=()))


def _wofz_body(z: Any) -> Any:
    y = imag(z)
    real(z)  # staged as JAX stages it, unused
    upper = y >= 0
    z_upper = lax.select(upper, z, -z)
    x_upper = real(z_upper)
    scale = _complex_scalar_like(x_upper, _WEIDEMAN_SCALE)
    i_z = lax.complex(-imag(z_upper), x_upper)
    denominator = scale - i_z
    ratio = (scale + i_z) / denominator
    polynomial = polyval(_WEIDEMAN.astype(get_aval(z).dtype), ratio)
    inverse_sqrt_pi = _complex_scalar_like(x_upper, 1 / math.sqrt(math.pi))
    w = 2 * polynomial / (denominator * denominator) + inverse_sqrt_pi / denominator
    return lax.select(upper, w, 2 * exp(-(z * z)) - w)


_wofz_body.__name__ = _wofz_body.__qualname__ = "_wofz"
_wofz = custom_jvp(_wofz_body)


def _wofz_jvp(g: Any, w: Any, z: Any) -> Any:
    minus_two_z_w = -(2 * z * w)
    two_i_over_sqrt_pi = lax.complex(lax.full_like(real(z), 0, shape=()),
                                     lax.full_like(real(z), 2 / math.sqrt(math.pi), shape=()))
    return g * (minus_two_z_w + two_i_over_sqrt_pi)


_wofz.defjvps(_wofz_jvp)


def wofz(z: Any) -> Any:
    """The Faddeeva function ``exp(-z**2) erfc(-i z)`` (real input is taken as complex)."""
    z, = util.promote_dtypes_complex(z)
    return _wofz(z)


# Cephes' dawsn: x P(x**2) / Q(x**2) below 3.25, then (1 + y P(y) / Q(y)) / (2 x) in y = 1 / x**2 below 6.25 and
# beyond, numerators and denominators highest power first
_DAWSN_SMALL_NUM = np.array([1.1368149897175597e-11, 8.492622676674738e-10, 1.9443420417555306e-08,
    9.531517412544844e-07, 3.078283098749132e-06, 0.00035251336852028877, -0.0008501498467244109,
    0.04226182230055466, -0.09174803717734524, 1.0])
_DAWSN_SMALL_DEN = np.array([2.403720730667626e-11, 1.488646813684934e-09, 5.212652810105416e-08,
    1.2725847827318697e-06, 2.324902498207895e-05, 0.00032552474182605793, 0.003488058146571626,
    0.027944853119882897, 0.15887424196012057, 0.5749186294893204, 1.0])
_DAWSN_MID_NUM = np.array([0.5089551564179009, -0.24475441814269785, 0.09415123353035344, -0.021871125514203903,
    0.003662076123295692, -0.0004232091144603888, 3.5964130479389666e-05, -2.1464035171996896e-06,
    9.100107800763914e-08, -2.4027452082825098e-09, 3.592333854409284e-11])
_DAWSN_MID_DEN = np.array([1.0, -0.6318398698733682, 0.2367067882282487, -0.053180636700322324, 0.008480417185862954,
    -0.0009479967684866654, 7.810255929445524e-05, -4.558751532524426e-06, 1.8910035811142186e-07,
    -4.913246913319206e-09, 7.184664032357345e-11])
_DAWSN_LARGE_NUM = np.array([-0.5905928605347732, 0.6292352427243688, -0.17285897538038814, 0.016483704782518965,
    -0.0004868276130204627])
_DAWSN_LARGE_DEN = np.array([1.0, -2.698200571975449, 1.7327079904594784, -0.3937085822819395, 0.03442789240412334,
    -0.0009736552260409412])


def _dawsn_body(x: Any) -> Any:
    given = get_aval(x).dtype
    if given in (dtypes.float16, dtypes.bfloat16):  # half precision computes in single
        x = lax.convert_element_type(x, np.float32)
    dtype = get_aval(x).dtype
    sign_x, x = sign(x), absolute(x)
    inverse_square = 1.0 / square(x)
    small = x < 3.25
    t = lax.select(small, x, ones_like(x))
    t2 = square(t)
    near_zero = t * polyval(_DAWSN_SMALL_NUM.astype(dtype), t2) / polyval(_DAWSN_SMALL_DEN.astype(dtype), t2)

    def tail(inside: Callable[[], Any], numerator: np.ndarray, denominator: np.ndarray) -> Any:
        y = lax.select(inside(), inverse_square, ones_like(x))
        half_over_x = 0.5 / lax.select(inside(), x, ones_like(x))
        return half_over_x * (1.0 + y * polyval(numerator.astype(dtype), y) / polyval(denominator.astype(dtype), y))

    # each range's test is staged once per use, as in JAX
    middle = tail(lambda: logical_and(x >= 3.25, x < 6.25), _DAWSN_MID_NUM, _DAWSN_MID_DEN)
    far = tail(lambda: x >= 6.25, _DAWSN_LARGE_NUM, _DAWSN_LARGE_DEN)
    result = sign_x * lax.select(x < 3.25, near_zero, lax.select(x < 6.25, middle, far))
    return lax.convert_element_type(result, given) if given != dtype else result


_dawsn_body.__name__ = _dawsn_body.__qualname__ = "_dawsn"
_dawsn = custom_jvp(_dawsn_body)
_dawsn.defjvps(lambda g, ans, x: g * (1.0 - 2.0 * x * ans))


def dawsn(x: Any) -> Any:
    """Dawson's integral ``exp(-x**2) * integral of exp(t**2) from 0 to x``."""
    x, = util.promote_args_inexact("dawsn", x)
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        raise ValueError("dawsn does not support complex-valued inputs.")
    return _dawsn(x)


# Cephes' fresnl (double precision): S = x**3 P(x**4) / Q(x**4) and C = x P(x**4) / Q(x**4) for x**2 < 2.5625, the
# auxiliary functions f and g in 1 / (pi x**2)**2 beyond; fresnlf (single precision) has numerators only
_S_NUM = np.array([-2991.8191940101983, 708840.0452577386, -62974148.62058625, 2548908805.7337637,
    -44297951805.96978, 318016297876.5678])
_S_DEN = np.array([1.0, 281.3762688899943, 45584.78108065326, 5173438.887700964, 419320245.8981112,
    22441179564.534092, 607366389490.0846])
_C_NUM = np.array([-4.9884311457357354e-08, 9.504280628298596e-06, -0.0006451914356839651, 0.018884331939670384,
    -0.20552590095501388, 1.0])
_C_DEN = np.array([3.99982968972496e-12, 9.154392157746574e-10, 1.2500186247959882e-07, 1.2226278902417902e-05,
    0.0008680295429417843, 0.04121420907221998, 1.0])
_F_NUM = np.array([0.4215435550436775, 0.1434079197807589, 0.011522095507358577, 0.000345017939782574,
    4.6361374928786735e-06, 3.055689837902576e-08, 1.0230451416490724e-10, 1.7201074326816183e-13,
    1.3428327623306275e-16, 3.763297112699879e-20])
_F_DEN = np.array([1.0, 0.7515863983533789, 0.11688892585919138, 0.0064405152650885865, 0.00015593440916415301,
    1.8462756734893055e-06, 1.1269922476399903e-08, 3.6014002958937136e-11, 5.887545336215784e-14,
    4.5200143407412973e-17, 1.2544323709001127e-20])
_G_NUM = np.array([0.5044420736433832, 0.1971028335255234, 0.018764858409257526, 0.0006840793809153931,
    1.1513882611188428e-05, 9.828524436884223e-08, 4.4534441586175015e-10, 1.0826804113902088e-12,
    1.375554606332618e-15, 8.363544356306774e-19, 1.8695871016278324e-22])
_G_DEN = np.array([1.0, 1.4749575992512833, 0.33774898912002, 0.02536037414203388, 0.0008146791071843061,
    1.2754507566772912e-05, 1.0431458965757199e-07, 4.6068072814652043e-10, 1.1027321506624028e-12,
    1.3879653125957886e-15, 8.391588162831187e-19, 1.8695871016278324e-22])
_S32 = np.array([1.64762947729713e-09, -1.5227547578433587e-07, 8.424748557445128e-06, -0.00031206931453198195,
    0.007244727574288845, -0.0922805592417717, 0.5235987901687622])
_C32 = np.array([1.4168024975447224e-08, -1.1572313951546676e-06, 5.387223427533172e-05, -0.001604381832294166,
    0.028184890747070312, -0.24673981964588165, 1.0])
_F32 = np.array([-1903009857536.0, 135594237952.0, -4158143232.0, 73438488.0, -873235.6875, 8560.515625,
    -103.28775787353516, 2.999401807785034])
_G32 = np.array([-186084392960.0, 12783506432.0, -377938784.0, 6492611.5, -77877.8984375, 860.2931518554688,
    -14.934393882751465, 0.9999842047691345])


@jit
def sincospisquaredhalf(x: Any) -> tuple[Any, Any]:
    """``sin(pi x**2 / 2)`` and ``cos(pi x**2 / 2)``, with ``x**2 / 2`` reduced modulo 2 exactly before the sine."""
    x = absolute(x)
    r = fmod(x, 2.0)
    phase = fmod(r * (x - r / 2.0), 2.0)  # x**2 / 2 modulo 2
    sine = where(phase < 0.5, sin(np.pi * phase),
                 where(phase > 1.5, sin(np.pi * (phase - 2.0)), -sin(np.pi * (phase - 1.0))))
    cosine = where(phase == 0.5, 0.0,
                   where(phase < 1.0, -sin(np.pi * (phase - 0.5)), sin(np.pi * (phase - 1.5))))
    return sine, cosine


def _rational(factor: Any, numerator: Any, denominator: Any | None, x: Any) -> Any:
    """``factor * P(x) / Q(x)``, or ``factor * P(x)`` without a denominator, staged left to right."""
    product = factor * polyval(numerator, x)
    return product if denominator is None else product / polyval(denominator, x)


def _fresnel_body(x: Any) -> tuple[Any, Any]:
    given = get_aval(x).dtype
    if not dtypes.issubdtype(given, np.inexact):  # integers and booleans take the default float
        given = dtypes.to_inexact_dtype(given)
        x = x.astype(given)
    double = given == np.float64
    if not double:  # single precision below double
        x = x.astype(np.float32)
    dtype = get_aval(x).dtype
    if double:
        coefficients = [c.astype(dtype) for c in (_S_NUM, _S_DEN, _C_NUM, _C_DEN, _F_NUM, _F_DEN, _G_NUM, _G_DEN)]
    else:
        empty = [zeros((0,)) for _ in range(4)]  # default-float, staged as JAX stages them
        coefficients = [c.astype(dtype) for c in (_S32, _C32, _F32, _G32)]
        coefficients = [part for pair in zip(coefficients, empty) for part in pair]
    s_num, s_den, c_num, c_den, f_num, f_den, g_num, g_den = [c if get_aval(c).size else None for c in coefficients]
    ax = absolute(x)
    x2 = ax * ax
    x4 = x2 * x2
    small_s = _rational(ax * x2, s_num, s_den, x4)
    small_c = _rational(ax, c_num, c_den, x4)
    sine, cosine = sincospisquaredhalf(ax)
    if double:
        large_c = 0.5 + 1.0 / (np.pi * ax) * sine
        large_s = 0.5 - 1.0 / (np.pi * ax) * cosine
    pi_x2 = np.pi * x2
    u = 1.0 / (pi_x2 * pi_x2)
    inverse_pi_x2 = 1.0 / pi_x2
    f = 1.0 - _rational(u, f_num, f_den, u)
    g = _rational(inverse_pi_x2, g_num, g_den, u)
    pi_x = np.pi * ax
    asymptotic_c = 0.5 + (f * sine - g * cosine) / pi_x
    asymptotic_s = 0.5 - (f * cosine + g * sine) / pi_x
    infinite = isinf(x)
    series = x2 < 2.5625
    huge = ax > 36974.0
    if not double:
        large_c = large_s = 0.5
    s = where(infinite, 0.5, where(series, small_s, where(huge, large_s, asymptotic_s)))
    c = where(infinite, 0.5, where(series, small_c, where(huge, large_c, asymptotic_c)))
    negative = x < 0.0
    s, c = where(negative, -s, s), where(negative, -c, c)
    return s.astype(given), c.astype(given)


_fresnel_body.__name__ = _fresnel_body.__qualname__ = "fresnel"
_fresnel = custom_jvp(_fresnel_body)


@_fresnel.defjvp
def _fresnel_jvp(primals: tuple, tangents: tuple) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    x, = primals
    t, = tangents
    integrals = _fresnel(x)
    sine, cosine = sincospisquaredhalf(x)
    return integrals, (sine * t, cosine * t)


def fresnel(x: Any) -> tuple[Any, Any]:
    """The Fresnel integrals ``(S(x), C(x))``: the integrals of ``sin(pi t**2 / 2)`` and ``cos(pi t**2 / 2)`` from
    0 to ``x``."""
    x = util.ensure_arraylike("fresnel", x)
    if dtypes.issubdtype(get_aval(x).dtype, np.complexfloating):
        raise NotImplementedError("Support for complex-valued inputs is not implemented yet.")
    return _fresnel(x)
