"""The gamma family: ``gamma``, ``gammaln``, ``loggamma``, ``gammasgn``, ``digamma``, ``polygamma``,
``multigammaln``, the incomplete gamma functions, ``beta``, ``betaln``, ``betainc``, ``factorial``, ``comb`` and
``poch``, over lax's ``lgamma``, ``digamma``, ``polygamma``, ``igamma``/``igammac`` and
``regularized_incomplete_beta`` primitives."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxle_core import custom_jvp, dtypes, lax
from jaxle_core.avals import get_aval
from jaxle_numpy import util
from jaxle_numpy.conditional import _where
from jaxle_numpy.manipulation import expand_dims
from jaxle_numpy.selection import select
from jaxle_numpy.ufuncs import add, floor, multiply, remainder, signbit, subtract

__all__ = ["beta", "betainc", "betaln", "comb", "digamma", "factorial", "gamma", "gammainc", "gammaincc", "gammaln",
           "gammasgn", "loggamma", "multigammaln", "poch", "polygamma"]


def _unary(name: str, lax_fn: Any, doc: str) -> Any:
    def fn(x: Any) -> Any:
        x, = util.promote_args_inexact(name, x)
        return lax_fn(x)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _binary(name: str, lax_fn: Any, doc: str) -> Any:
    def fn(a: Any, x: Any) -> Any:
        return lax_fn(*util.promote_args_inexact(name, a, x))
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


gammaln = _unary("gammaln", lax.lgamma, "The logarithm of the absolute value of the gamma function.")
digamma = _unary("digamma", lax.digamma, "The logarithmic derivative of the gamma function.")
gammainc = _binary("gammainc", lax.igamma, "The regularized lower incomplete gamma function P(a, x).")
gammaincc = _binary("gammaincc", lax.igammac, "The regularized upper incomplete gamma function Q(a, x).")


def loggamma(x: Any) -> Any:
    """The logarithm of the gamma function for real ``x``: NaN where gamma is not positive (``x <= 0``)."""
    x, = util.promote_args_inexact("loggamma", x)
    log_gamma = lax.lgamma(x)
    return _where(lax.gt(x, util.zero_of(x)), log_gamma, np.nan)


@util.named_jit("gammasgn")
def gammasgn(x: Any) -> Any:
    """The sign of the gamma function (NaN at its poles, signed at zero)."""
    x, = util.promote_args_inexact("gammasgn", x)
    floor_x = floor(x)
    negative = lax.lt(x, util.weak_scalar_like(x, 0))
    # jnp's operators, as JAX's: masks of a weakly typed x are made strong first
    pole = negative & lax.eq(x, floor_x) | lax.ne(x, x)
    odd_negative = negative & lax.ne(remainder(floor_x, 2), util.weak_scalar_like(x, 0))
    negative_zero = lax.eq(x, util.weak_scalar_like(x, 0)) & signbit(x)
    return select([pole, odd_negative | negative_zero],
                  [util.scalar_like(x, np.nan), util.scalar_like(x, -1)], util.scalar_like(x, 1))


def gamma(x: Any) -> Any:
    """The gamma function."""
    x, = util.promote_args_inexact("gamma", x)
    return gammasgn(x) * lax.exp(lax.lgamma(x))  # jnp's product, as JAX's: a weak exp(lgamma) is made strong


def polygamma(n: Any, x: Any) -> Any:
    """The ``n``-th derivative of the digamma function (``n`` an integer)."""
    util.check_arraylike("polygamma", n, x)
    n_dtype = get_aval(util.ensure_array(n)).dtype
    if not dtypes.issubdtype(n_dtype, np.integer):
        raise ValueError(f"Argument `n` to polygamma must be of integer type. Got dtype {n_dtype}.")
    n, x = util.promote_args_inexact("polygamma", n, x)
    return lax.polygamma(n, x)


def multigammaln(a: Any, d: Any) -> Any:
    """The logarithm of the multivariate gamma function of dimension ``d`` (a concrete integer)."""
    d = util.concrete_index(d, "d argument of multigammaln")
    a, = util.promote_args_inexact("multigammaln", a)
    dtype = get_aval(a).dtype

    def k(value: float) -> Any:  # JAX's constants: weakly typed beside a weakly typed scalar
        return util.weak_scalar_like(a, value)

    constant = lax.mul(lax.mul(lax.mul(k(0.25), k(d)), lax.sub(k(d), k(1))), lax.log(k(np.pi)))
    offsets = lax.div(lax.iota(dtype, d), np.asarray(2, dtype)[()])
    shifted = subtract(expand_dims(a, -1), offsets)
    return lax.add(lax.reduce_sum(lax.lgamma(shifted), (get_aval(a).ndim,)), util.strip_weak_type(constant))


# Coefficients of the series in 1/y**2 for corr(y) - corr(x + y), where corr(y) = lgamma(y) - Stirling's
# approximation; the k-th multiplies the k-th partial sum of the geometric series in x / (x + y).
_CORRECTION_DIFFERENCE = (0.0833333333333333, -0.00277777777760991, 0.00079365066682539, -0.00059520293135187,
                          0.000837308034031215, -0.00165322962780713)


def _log_gamma_difference(small: Any, large: Any) -> Any:
    """``lgamma(large) - lgamma(small + large)`` for ``large >= 8``, without the cancellation of the direct form."""
    def k(value: float) -> Any:
        return util.weak_scalar_like(small, value)

    ratio = lax.div(small, large)
    fraction = lax.div(ratio, lax.add(k(1), ratio))
    z = lax.div(ratio, lax.add(k(1), ratio))
    shifted = lax.add(large, lax.sub(small, k(0.5)))
    z_squared = lax.mul(z, z)
    partial_sums = [lax.add(k(1), lax.add(z, z_squared))]
    for _ in range(4):
        partial_sums.append(lax.add(k(1), lax.add(z, lax.mul(z_squared, partial_sums[-1]))))
    inverse_square = lax.integer_pow(lax.div(k(1), large), 2)
    series = lax.mul(k(_CORRECTION_DIFFERENCE[5]), partial_sums[4])
    for coefficient, partial_sum in zip(_CORRECTION_DIFFERENCE[4:0:-1], partial_sums[3::-1]):
        series = lax.add(lax.mul(series, inverse_square), lax.mul(k(coefficient), partial_sum))
    series = lax.add(lax.mul(series, inverse_square), k(_CORRECTION_DIFFERENCE[0]))
    correction = lax.mul(series, lax.div(fraction, large))
    log_term = lax.mul(shifted, lax.log1p(lax.div(small, large)))
    linear_term = lax.mul(small, lax.sub(lax.log(large), k(1)))
    # subtract the smaller term last, for accuracy
    return _where(lax.le(log_term, linear_term), lax.sub(lax.sub(correction, linear_term), log_term),
                  lax.sub(lax.sub(correction, log_term), linear_term))


def betaln(a: Any, b: Any) -> Any:
    """The logarithm of the absolute value of the beta function."""
    a, b = util.promote_args_inexact("betaln", a, b)
    small, large = lax.min(a, b), lax.max(a, b)
    direct = lax.add(lax.lgamma(small), lax.sub(lax.lgamma(large), lax.lgamma(lax.add(small, large))))
    asymptotic = lax.add(lax.lgamma(small), _log_gamma_difference(small, large))
    return _where(lax.lt(large, util.weak_scalar_like(large, 8)), direct, asymptotic)


def beta(a: Any, b: Any) -> Any:
    """The beta function ``gamma(a) gamma(b) / gamma(a + b)``."""
    a, b = util.promote_args_inexact("beta", a, b)
    sign = lax.mul(lax.mul(gammasgn(a), gammasgn(b)), gammasgn(lax.add(a, b)))
    return sign * lax.exp(betaln(a, b))  # jnp's product, as JAX's: a weak exp is made strong


def betainc(a: Any, b: Any, x: Any) -> Any:
    """The regularized incomplete beta function I_x(a, b)."""
    # arrays, as JAX's promotion makes them: the derivative's arithmetic on a and b is staged, not done in NumPy
    a, b, x = (util.as_array(v) for v in util.promote_args_inexact("betainc", a, b, x))
    return lax.betainc(a, b, x)


def factorial(n: Any, exact: bool = False) -> Any:
    """``n!`` as ``gamma(n + 1)`` (0 for negative ``n``)."""
    if exact:
        raise NotImplementedError("factorial with exact=True")
    n, = util.promote_args_inexact("factorial", n)
    return _where(lax.lt(n, util.zero_of(n)), 0, lax.exp(lax.lgamma(lax.add(n, util.weak_scalar_like(n, 1)))))


def comb(N: Any, k: Any, *, repetition: bool = False) -> Any:  # noqa: N803 - SciPy's name
    """The number of combinations of ``N`` things taken ``k`` at a time (with ``repetition``: multisets)."""
    N, k = util.promote_args_inexact("comb", N, k)
    if repetition:  # multisets of k from N: the combinations of k from N + k - 1 (one, the empty one, for k = 0)
        empty = lax.bitwise_and(lax.eq(k, util.zero_of(k)), lax.ge(N, util.zero_of(N)))
        return _where(empty, 1.0, comb(lax.sub(lax.add(N, k), util.weak_scalar_like(N, 1)), k))
    valid = lax.le(k, N) & lax.ge(N, util.weak_scalar_like(N, 0)) & lax.ge(k, util.weak_scalar_like(k, 0))
    safe_n = _where(valid, N, 0.0)
    safe_k = _where(valid, k, 0.0)
    one = util.weak_scalar_like(safe_n, 1)
    log_comb = lax.sub(lax.sub(lax.lgamma(lax.add(safe_n, one)), lax.lgamma(lax.add(safe_k, one))),
                       lax.lgamma(lax.sub(lax.add(safe_n, one), safe_k)))
    return _where(valid, lax.exp(log_comb), 0.0)


def _poch_body(z: Any, m: Any) -> Any:
    z, m = util.promote_shapes("poch", z, m)  # inside the custom_jvp function, as JAX's
    m_is_zero = lax.eq(m, util.zero_of(m))
    numerator = lax.add(z, m)
    ratio = lax.div(gammasgn(numerator) * lax.exp(lax.lgamma(numerator)), gammasgn(z) * lax.exp(lax.lgamma(z)))
    return _where(m_is_zero, util.scalar_like(z, 1), ratio)


_poch_body.__name__ = _poch_body.__qualname__ = "poch"
_poch = custom_jvp(_poch_body)
# As JAX's rules: in jnp's broadcasting arithmetic (the operands come unbroadcast), poch evaluated again.
_poch.defjvps(lambda z_dot, ans, z, m: multiply(multiply(subtract(lax.digamma(add(z, m)), lax.digamma(z)),
                                                         poch(z, m)), z_dot),
              lambda m_dot, ans, z, m: multiply(multiply(lax.digamma(add(z, m)), poch(z, m)), m_dot))


def poch(z: Any, m: Any) -> Any:
    """The Pochhammer symbol (rising factorial) ``gamma(z + m) / gamma(z)``."""
    util.check_arraylike("poch", z, m)
    util.check_no_float0s("poch", z, m)
    return _poch(*util.promote_dtypes_inexact(z, m))
