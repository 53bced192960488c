"""``binomial``, bit for bit JAX's: counting geometric waiting times (inversion) when ``n * p <= 10``,
Hörmann's BTRS transformed rejection otherwise; probabilities above 1/2 draw ``n - Binomial(n, 1 - p)``."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, jit, lax
from jaxle_core.avals import canonicalize_shape
from jaxle_numpy.util import promote_dtypes_inexact
from jaxle_random.keys import split, typed_key
from jaxle_random.samplers import check_shape, refuse_non_arrays, uniform

__all__ = ["binomial"]


def _keys(key: Any, num: int) -> list[Any]:
    keys = split(key, num)
    return [lax.index_in_dim(keys, i, keepdims=False) for i in range(num)]


def _stirling_table(dtype: np.dtype) -> np.ndarray:
    """log(k!) minus Stirling's approximation of it, for k = 0..9."""
    return np.array([math.lgamma(k + 1) - ((k + 0.5) * math.log(k + 1) - (k + 1) + 0.5 * math.log(2 * math.pi))
                     for k in range(10)], dtype)


def _stirling_tail(k: Any) -> Any:
    """The Stirling correction of log(k!): the table up to 9, beyond it the series (of k clamped, as JAX's)."""
    dtype = k.dtype

    def c(value: float) -> Any:
        return np.array(value, dtype)

    small = k <= c(9)
    clamped = lax.clamp(c(0), k, c(9))
    square = (clamped + c(1)) * (clamped + c(1))
    series = (c(1 / 12) - (c(1 / 360) - c(1 / 1260) / square) / square) / (clamped + c(1))
    index = lax.convert_element_type(lax.floor(clamped), np.int32)
    return lax.select(small, jnp.asarray(_stirling_table(dtype))[index], series)


# The samplers below write their arithmetic as JAX's does, with NumPy-style promotion: the probability stays
# weakly typed when it came in so, and is converted where it meets a strongly typed value (JAX's equations).


def _binomial_inversion(key: Any, count: Any, log1m_p: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    # the number of geometric waiting times that fit in ``count`` trials, counted in the probability's dtype
    work = log1m_p.dtype
    limit = np.array(dtypes.finfo(dtype).max, dtype)

    def more(state: tuple) -> Any:
        iteration, _, geom_sum, _ = state
        return lax.bitwise_and(jnp.any(geom_sum <= count), lax.convert_element_type(iteration, dtype) < limit)

    def step(state: tuple) -> tuple:
        iteration, num_geom, geom_sum, loop_key = state
        draw_key, loop_key = _keys(loop_key, 2)
        num_geom = lax.select(geom_sum <= count, num_geom + np.array(1, work), num_geom)
        geom = lax.ceil(lax.log(uniform(draw_key, shape, work)) / log1m_p)
        geom_sum = geom_sum + geom
        return iteration + 1, num_geom, geom_sum, loop_key

    state = (0, lax.full(shape, 0, work), lax.full(shape, 0, work), key)
    return lax.convert_element_type(lax.while_loop(more, step, state)[1] - np.array(1, work), dtype)


def _binomial_btrs(key: Any, count: Any, p: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    work = p.dtype  # drawn and computed in the probability's dtype, the counts given as ``dtype``

    def c(value: float) -> Any:
        return np.array(value, work)

    stddev = lax.sqrt(count * p * (1 - p))
    b = c(1.15) + c(2.53) * stddev
    a = c(-0.0873) + c(0.0248) * b + 0.01 * p
    center = count * p + c(0.5)
    v_r = c(0.92) - c(4.2) / b
    r = p / (1 - p)
    alpha = (c(2.83) + c(5.1) / b) * stddev
    m = lax.floor((count + c(1)) * p)
    limit = np.array(dtypes.finfo(dtype).max, dtype)

    def more(state: tuple) -> Any:
        iteration, _, accepted, _ = state
        return lax.bitwise_and(jnp.any(~accepted), lax.convert_element_type(iteration, dtype) < limit)

    def step(state: tuple) -> tuple:
        iteration, k_out, accepted, loop_key = state
        loop_key, u_key, v_key = _keys(loop_key, 3)
        u = uniform(u_key, shape, work)
        v = uniform(v_key, shape, work)
        u = u - c(0.5)
        u_shifted = c(0.5) - lax.abs(u)
        accept_fast = (u_shifted >= c(0.07)) & (v <= v_r)
        k = lax.floor((c(2) * a / u_shifted + b) * u + center)
        reject = (k < c(0)) | (k > count)
        log_v = lax.log(v * alpha / (a / (u_shifted * u_shifted) + b))
        bound = (m + c(0.5)) * lax.log((m + c(1)) / (r * (count - m + c(1)))) + \
            (count + c(1)) * lax.log((count - m + c(1)) / (count - k + c(1))) + \
            (k + c(0.5)) * lax.log(r * (count - k + c(1)) / (k + c(1)))
        bound = bound + _stirling_tail(m) + _stirling_tail(count - m) - _stirling_tail(k) - \
            _stirling_tail(count - k)
        below_bound = log_v <= bound
        accept = accept_fast | (~reject & below_bound)
        k_out, accepted = lax.select(accept, k, k_out), accepted | accept
        return iteration + 1, k_out, accepted, loop_key

    state = (0, lax.full(shape, -1, work), lax.full(shape, False, np.bool_), key)
    return lax.convert_element_type(lax.while_loop(more, step, state)[1], dtype)


def _binomial_body(key: Any, count: Any, prob: Any, shape: tuple[int, ...] | None, dtype: np.dtype) -> Any:
    n, p = count, prob  # the arguments named as JAX's (jit's errors name them)
    if shape is None:
        shape = tuple(np.broadcast_shapes(np.shape(n), np.shape(p)))
    else:
        check_shape("binomial", shape, np.shape(n), np.shape(p))
    # computed in the probability's (inexact) dtype, weakly typed if it is (its equations convert it where it
    # meets strong values), the counts given as ``dtype``
    (p,) = promote_dtypes_inexact(p)
    work = p.dtype
    n = jnp.broadcast_to(lax.convert_element_type(n, work), shape)
    p = jnp.broadcast_to(p, shape)

    def c(value: float) -> Any:
        return np.array(value, work)

    below_half = p < 0.5
    q = lax.select(below_half, p, 1 - p)
    count_invalid = lax.bitwise_or(lax.ne(n, n), lax.lt(n, c(0)))
    count_infinite = jnp.isinf(n)
    q_nan, q_negative = lax.ne(q, q), q < 0.0
    q = lax.select(jnp.logical_or(q_nan, q_negative), lax.full_like(q, 0.01), q)
    use_inversion = lax.bitwise_or(count_invalid, lax.le(n * q, c(10)))
    whole = lax.floor(n)
    inversion_count = lax.select(use_inversion, whole, lax.full_like(whole, 0))
    btrs_count = lax.select(use_inversion, lax.full_like(whole, 1e4), whole)
    btrs_p = lax.select(use_inversion, lax.full_like(q, 0.5), q)
    inversion = _binomial_inversion(key, inversion_count, lax.log1p(-q), shape, dtype)
    btrs = _binomial_btrs(key, btrs_count, btrs_p, shape, dtype)
    result = lax.select(use_inversion, inversion, btrs)
    invalid = lax.bitwise_or(jnp.logical_or(q_negative, q_nan), count_invalid)
    result = lax.select(invalid, lax.full_like(result, np.nan), result)
    result = lax.select(lax.bitwise_and(count_infinite, lax.bitwise_not(invalid)), lax.full_like(result, np.inf),
                        result)
    keep = lax.bitwise_or(jnp.logical_or(jnp.logical_or(below_half, count_invalid), q_nan), count_infinite)
    return lax.select(keep, result, lax.convert_element_type(whole, dtype) - result)


_binomial_body.__name__ = _binomial_body.__qualname__ = "_binomial"
# inlined where traced (JAX's jaxprs show its equations), compiled as one program when called eagerly
_binomial = jit(_binomial_body, static_argnums=(3, 4), inline=True)


def binomial(key: Any, n: Any, p: Any, shape: Any = None, dtype: Any = None) -> Any:
    """Binomial(n, p) counts, as floats of ``dtype``."""
    refuse_non_arrays("arraylike", "binomial", n, p)
    dtype = dtypes.default_float_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.floating):
        raise ValueError(f"dtype argument to `binomial` must be a float dtype, got {dtype}")
    key = typed_key(key, "binomial")
    # converted and broadcast inside the jitted body, as JAX's are: one dispatch eagerly
    return _binomial(key, n, p, None if shape is None else canonicalize_shape(shape), dtype)
