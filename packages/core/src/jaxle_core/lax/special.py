"""Special functions: error functions, the gamma family, Bessel functions, zeta and the incomplete beta.

Reference implementations use SciPy in float64 where it has the function and
round to the operand dtype. The derivatives of the regularized incomplete
gamma function with respect to its shape parameter, which SciPy lacks, are
computed by differentiating the logarithm of whichever tail is smaller.
"""

from __future__ import annotations

import importlib

import numpy as np

from jaxle_core.lax.elementwise import float_semantics
from jaxle_core.lax.standard import FLOATING, elementwise_primitive


class _SciPySpecial:
    """``scipy.special``'s functions, each imported on its first call, so that importing jaxle_core (which builds
    the primitives' references from them) does not pay for SciPy."""

    def __getattr__(self, name: str):
        def call(*args, **kwargs):
            return getattr(importlib.import_module("scipy.special"), name)(*args, **kwargs)

        return call


sp = _SciPySpecial()

__all__ = [
    "bessel_i0e", "bessel_i0e_p", "bessel_i1e", "bessel_i1e_p", "betainc", "digamma", "digamma_p", "erf", "erf_inv",
    "erf_inv_p", "erf_p", "erfc", "erfc_p", "igamma", "igamma_grad_a", "igamma_grad_a_p", "igamma_p", "igammac",
    "igammac_p", "lgamma", "lgamma_p", "polygamma", "polygamma_p", "regularized_incomplete_beta_p",
    "zeta", "zeta_p",
]


def _in_float64(fn):
    """``fn`` evaluated in float64 and rounded to the first operand's dtype."""

    def impl(*args):
        dtype = args[0].dtype
        with np.errstate(all="ignore"):
            return np.asarray(fn(*(a.astype(np.float64) for a in args))).astype(dtype)

    return impl


def _lgamma(x):
    return np.where(x == -np.inf, np.inf, sp.gammaln(x))


def _digamma(x):
    # XLA's digamma is NaN at the poles (non-positive integers), where SciPy has -inf or inf.
    return np.where((x <= 0) & (x == np.floor(x)), np.nan, sp.psi(x))


def _polygamma(m, x):
    """polygamma(m, x) for non-negative integer ``m``; NaN otherwise. As XLA computes it, order 0 is digamma (NaN
    at the poles) and the higher orders are NaN at +inf."""
    valid = (m >= 0) & (m == np.floor(m)) & ~((m > 0) & (x == np.inf))
    order = np.where(valid, m, 0).astype(np.int64)
    return np.where(valid, np.where(order == 0, _digamma(x), sp.polygamma(order, x)), np.nan)


def _zeta(x, q):
    # XLA's Hurwitz zeta is NaN at q = +inf, where SciPy has 0.
    return np.where(q == np.inf, np.nan, sp.zeta(x, q))


def _keeping_zero_sign(fn):
    """``fn`` with the sign of a zero argument kept (XLA's odd functions keep it, SciPy's drop it)."""
    return lambda x: np.where(x == 0, x, fn(x))


def _igamma_domain(a, x, value):
    """``value`` where the regularized incomplete gamma functions are defined, NaN elsewhere."""
    return np.where((a > 0) & (x >= 0) & ~np.isnan(a) & ~np.isnan(x), value, np.nan)


def _igamma_value_domain(a, x, value):
    """``_igamma_domain``, extended (as XLA computes it) to ``a = 0`` with ``x > 0``, where all the mass is below
    ``x``: SciPy's value there (P = 1, Q = 0) is kept."""
    return np.where((a == 0) & (x > 0), value, _igamma_domain(a, x, value))


def _log_tail_slope(a, x):
    """(tail, sign, d log(tail)/da): the smaller of P(a, x) and Q(a, x), -1 for Q, and its log-derivative in ``a``.

    A fourth-order central difference of log(tail) keeps relative accuracy near 1e-9 even where P is close to 1.
    """
    lower = sp.gammainc(a, x) < 0.5
    tail = np.where(lower, sp.gammainc(a, x), sp.gammaincc(a, x))

    def log_tail(shape):
        value = np.where(lower, sp.gammainc(shape, x), sp.gammaincc(shape, x))
        return np.where(value > 0, np.log(value), _log_lower_series(shape, x))

    h = 1e-3 * np.minimum(a, np.sqrt(a))
    slope = (8 * (log_tail(a + h) - log_tail(a - h)) - (log_tail(a + 2 * h) - log_tail(a - 2 * h))) / (12 * h)
    return tail, np.where(lower, 1.0, -1.0), slope


def _log_lower_series(a, x, terms: int = 400):
    """log P(a, x) from its power series, for the far lower tail where P underflows float64."""
    n = np.arange(terms).reshape((terms,) + (1,) * np.ndim(a))
    log_terms = n * np.log(x) - (sp.gammaln(a + n + 1) - sp.gammaln(a + 1))
    return a * np.log(x) - x - sp.gammaln(a + 1) + sp.logsumexp(log_terms, axis=0)


def _igamma_grad_a(a, x):
    """dP(a, x)/da."""
    safe_a = np.where(a > 0, a, 1.0)
    tail, sign, slope = _log_tail_slope(safe_a, x)
    grad = sign * tail * slope
    return _igamma_domain(a, x, np.where(x == 0, 0.0, np.where(np.isinf(x) | np.isinf(a), np.nan, grad)))


def _betainc(a, b, x):
    return sp.betainc(a, b, x)


erf_p = elementwise_primitive("erf", float_semantics(sp.erf), (FLOATING,))
erfc_p = elementwise_primitive("erfc", float_semantics(sp.erfc), (FLOATING,))
erf_inv_p = elementwise_primitive("erf_inv", _in_float64(_keeping_zero_sign(sp.erfinv)), (FLOATING,))
lgamma_p = elementwise_primitive("lgamma", _in_float64(_lgamma), (FLOATING,))
digamma_p = elementwise_primitive("digamma", _in_float64(_digamma), (FLOATING,))
polygamma_p = elementwise_primitive("polygamma", _in_float64(_polygamma), (FLOATING,))
igamma_p = elementwise_primitive("igamma", _in_float64(lambda a, x: _igamma_value_domain(a, x, sp.gammainc(a, x))),
                                 (FLOATING,))
igammac_p = elementwise_primitive("igammac", _in_float64(lambda a, x: _igamma_value_domain(a, x, sp.gammaincc(a, x))),
                                  (FLOATING,))
igamma_grad_a_p = elementwise_primitive("igamma_grad_a", _in_float64(_igamma_grad_a), (FLOATING,))
zeta_p = elementwise_primitive("zeta", _in_float64(_zeta), (FLOATING,))
bessel_i0e_p = elementwise_primitive("bessel_i0e", _in_float64(sp.i0e), (FLOATING,))
bessel_i1e_p = elementwise_primitive("bessel_i1e", _in_float64(_keeping_zero_sign(sp.i1e)), (FLOATING,))
regularized_incomplete_beta_p = elementwise_primitive("regularized_incomplete_beta", _in_float64(_betainc),
                                                      (FLOATING,))


def erf(x):
    """Elementwise error function."""
    return erf_p.bind(x)


def erfc(x):
    """Elementwise complementary error function ``1 - erf(x)``."""
    return erfc_p.bind(x)


def erf_inv(x):
    """Elementwise inverse error function."""
    return erf_inv_p.bind(x)


def lgamma(x):
    """Elementwise log of the absolute value of the gamma function."""
    return lgamma_p.bind(x)


def digamma(x):
    """Elementwise digamma function, the derivative of ``lgamma``."""
    return digamma_p.bind(x)


def polygamma(m, x):
    """Elementwise ``m``-th derivative of the digamma function (``m`` a non-negative integer value)."""
    return polygamma_p.bind(m, x)


def igamma(a, x):
    """Elementwise regularized lower incomplete gamma function P(a, x)."""
    return igamma_p.bind(a, x)


def igammac(a, x):
    """Elementwise regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x)."""
    return igammac_p.bind(a, x)


def igamma_grad_a(a, x):
    """Elementwise derivative of P(a, x) with respect to ``a``."""
    return igamma_grad_a_p.bind(a, x)


def zeta(x, q):
    """Elementwise Hurwitz zeta function."""
    return zeta_p.bind(x, q)


def bessel_i0e(x):
    """Elementwise exponentially scaled modified Bessel function of order 0, ``exp(-|x|) I0(x)``."""
    return bessel_i0e_p.bind(x)


def bessel_i1e(x):
    """Elementwise exponentially scaled modified Bessel function of order 1, ``exp(-|x|) I1(x)``."""
    return bessel_i1e_p.bind(x)


def betainc(a, b, x):
    """Elementwise regularized incomplete beta function I_x(a, b)."""
    return regularized_incomplete_beta_p.bind(a, b, x)
