"""JVP rules of the special functions (``lax/special.py``).

As in JAX 0.10.2, ``zeta`` and ``igamma_grad_a`` have no rule, and the derivatives of
``polygamma`` in ``m`` and of ``regularized_incomplete_beta`` in ``a`` and ``b`` raise ``ValueError``.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from jaxle_core import dtypes, lax
from jaxle_core.ad.rule_helpers import const, defjvp, full_like
from jaxle_core.avals import get_aval
from jaxle_core.lax.special import (
    bessel_i0e_p,
    bessel_i1e_p,
    digamma_p,
    erf_inv_p,
    erf_p,
    erfc_p,
    igamma_p,
    igammac_p,
    lgamma_p,
    polygamma_p,
    regularized_incomplete_beta_p,
)

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _gaussian(x):
    return lax.exp(lax.neg(lax.square(x)))


defjvp(erf_p, lambda t, ans, x: lax.mul(const(x, _TWO_OVER_SQRT_PI), lax.mul(t, _gaussian(x))))
defjvp(erfc_p, lambda t, ans, x: lax.mul(const(x, -_TWO_OVER_SQRT_PI), lax.mul(t, _gaussian(x))))
defjvp(erf_inv_p,
       lambda t, ans, x: lax.mul(const(x, math.sqrt(math.pi) / 2), lax.mul(t, lax.exp(lax.square(ans)))))
defjvp(lgamma_p, lambda t, ans, x: lax.mul(t, lax.digamma(x)))
defjvp(digamma_p, lambda t, ans, x: lax.mul(t, lax.polygamma(const(x, 1.0), x)))


def _polygamma_order_term(t, ans, m, x):
    raise ValueError("polygamma gradient with respect to m is not supported")


defjvp(polygamma_p, _polygamma_order_term,
       lambda t, ans, m, x: lax.mul(t, lax.polygamma(lax.add(m, const(m, 1.0)), x)))


def _gamma_density(a, x):
    """d/dx P(a, x) = exp(-x + (a - 1) log x - lgamma(a))."""
    log_density = lax.add(lax.neg(x), lax.mul(lax.sub(a, full_like(a, 1.0)), lax.log(x)))
    return lax.exp(lax.sub(log_density, lax.lgamma(a)))


defjvp(igamma_p, lambda t, ans, a, x: lax.mul(t, lax.igamma_grad_a(a, x)),
       lambda t, ans, a, x: lax.mul(t, _gamma_density(a, x)))
defjvp(igammac_p, lambda t, ans, a, x: lax.neg(lax.mul(t, lax.igamma_grad_a(a, x))),
       lambda t, ans, a, x: lax.neg(lax.mul(t, _gamma_density(a, x))))

defjvp(bessel_i0e_p, lambda t, ans, x: lax.mul(t, lax.sub(lax.bessel_i1e(x), lax.mul(lax.sign(x), ans))))


def _bessel_i1e_term(t, ans, x):
    """i1e'(x) = i0e(x) - i1e(x) (sign(x) + 1/x), with its limit 1/2 near zero."""
    dtype = get_aval(x).dtype
    eps = float(dtypes.finfo(dtype).eps)
    # |x| compared with a NumPy scalar: a weakly typed |x| is made strong first, as jnp's promotion does in JAX
    away = lax.gt(lax.convert_element_type(lax.abs(x), dtype), const(x, eps))
    safe = lax.select_n(away, full_like(x, eps), x)
    slope = lax.sub(lax.bessel_i0e(safe), lax.mul(ans, lax.add(lax.sign(safe), lax.integer_pow(safe, -1))))
    return lax.mul(t, lax.select_n(away, full_like(x, 0.5), slope))


defjvp(bessel_i1e_p, _bessel_i1e_term)


def _betainc_shape_term(t, ans, a, b, x):
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _plain_or_lax(numpy_op, lax_op, x, y):
    """``x op y``: computed at once in NumPy when ``x`` is a NumPy value and ``y`` one or a Python number (as JAX's
    rule does on the NumPy operands of ``lax.betainc``, 0-d arrays and scalars included), staged otherwise (arrays
    and traced values; ``jax.scipy.special.betainc`` makes its Python and NumPy scalars arrays, whose arithmetic JAX
    stages)."""
    if isinstance(x, (np.ndarray, np.generic)) and isinstance(y, (np.ndarray, np.generic, int, float)):
        return numpy_op(x, y)
    return lax_op(x, y if get_aval(y).shape or not isinstance(y, (int, float)) else const(x, y))


def _betainc_x_term(t, ans, a, b, x):
    """d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b)."""
    log_beta = lax.sub(lax.add(lax.lgamma(a), lax.lgamma(b)), lax.lgamma(_plain_or_lax(operator.add, lax.add, a, b)))
    log_density = lax.add(lax.mul(_plain_or_lax(operator.sub, lax.sub, b, 1.0), lax.log1p(lax.neg(x))),
                          lax.mul(_plain_or_lax(operator.sub, lax.sub, a, 1.0), lax.log(x)))
    return lax.mul(lax.exp(lax.sub(log_density, log_beta)), t)


defjvp(regularized_incomplete_beta_p, _betainc_shape_term, _betainc_shape_term, _betainc_x_term)
