"""``poisson``, bit for bit JAX's: Knuth's product of uniforms for small rates, and the transformed
rejection method (Hörmann's PTRS) for rates of 10 and more; both run over the whole array with one key."""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, jit, lax
from jaxle_core.avals import canonicalize_shape
from jaxle_numpy.util import check_scalar_arraylike
from jaxle_random.keys import split, typed_key
from jaxle_random.layouts import laid_out, out_layout, scalar_layout
from jaxle_random.samplers import uniform

__all__ = ["poisson"]


def _keys(key: Any, num: int) -> list[Any]:
    keys = split(key, num)
    return [lax.index_in_dim(keys, i, keepdims=False) for i in range(num)]


def _poisson_knuth_body(key: Any, lam: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    # count uniforms until their product falls below exp(-lam), in logs
    limit = int(jnp.iinfo(dtype).max)

    def more(state: tuple) -> Any:
        iteration, _, _, log_product = state
        return lax.bitwise_and(jnp.any(log_product > -lam), lax.convert_element_type(iteration, dtype) < limit)

    def step(state: tuple) -> tuple:
        iteration, count, loop_key, log_product = state
        loop_key, draw_key = _keys(loop_key, 2)
        count = lax.select(log_product > -lam, count + np.array(1, dtype), count)
        u = uniform(draw_key, shape, lam.dtype)
        return iteration + 1, count, loop_key, log_product + lax.log(u)

    state = (0, lax.full(shape, 0, dtype), key, lax.full(shape, 0, lam.dtype))
    return lax.while_loop(more, step, state)[1] - np.array(1, dtype)


_poisson_knuth_body.__name__ = _poisson_knuth_body.__qualname__ = "_poisson_knuth"
_poisson_knuth = jit(_poisson_knuth_body, static_argnums=(2, 3))


def _poisson_rejection_body(key: Any, lam: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    def c(value: float) -> Any:
        return np.array(value, lam.dtype)

    log_lam = lax.log(lam)
    b = c(0.931) + c(2.53) * lax.sqrt(lam)
    a = c(-0.059) + c(0.02483) * b
    inv_alpha = c(1.1239) + c(1.1328) / (b - c(3.4))
    v_r = c(0.9277) - c(3.6224) / (b - c(2))
    limit = int(jnp.iinfo(dtype).max)

    def more(state: tuple) -> Any:
        iteration, _, accepted, _ = state
        return lax.bitwise_and(jnp.any(~accepted), lax.convert_element_type(iteration, dtype) < limit)

    def step(state: tuple) -> tuple:
        iteration, k_out, accepted, loop_key = state
        loop_key, u_key, v_key = _keys(loop_key, 3)
        u = uniform(u_key, shape, lam.dtype) - c(0.5)
        v = uniform(v_key, shape, lam.dtype)
        u_shifted = c(0.5) - lax.abs(u)
        k = lax.floor((c(2) * a / u_shifted + b) * u + lam + c(0.43))
        s = lax.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -lam + k * log_lam - lax.lgamma(k + c(1))
        accept_fast = (u_shifted >= c(0.07)) & (v <= v_r)
        reject = (k < c(0)) | ((u_shifted < c(0.013)) & (v > u_shifted))
        within = s <= t
        accept = accept_fast | (~reject & within)
        k_out = lax.select(accept, k, k_out)
        accepted = accepted | accept
        return iteration + 1, k_out, accepted, loop_key

    state = (0, lax.full(shape, -1, lam.dtype), lax.full(shape, False, np.bool_), key)
    return lax.convert_element_type(lax.while_loop(more, step, state)[1], dtype)


_poisson_rejection_body.__name__ = _poisson_rejection_body.__qualname__ = "_poisson_rejection"
_poisson_rejection = jit(_poisson_rejection_body, static_argnums=(2, 3))


def _poisson_body(key: Any, lam: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    use_knuth = (lam != lam) | (lam < np.array(10, lam.dtype))
    lam_knuth = lax.select(use_knuth, lam, lax.full_like(lam, 0))
    lam_rejection = lax.select(use_knuth, lax.full_like(lam, 1e5), lam)
    result = lax.select(use_knuth, _poisson_knuth(key, lam_knuth, shape, dtype),
                        _poisson_rejection(key, lam_rejection, shape, dtype))
    return lax.select(lam == np.array(0, lam.dtype), lax.full(shape, 0, dtype), result)


_poisson_body.__name__ = _poisson_body.__qualname__ = "_poisson"
_poisson = jit(_poisson_body, static_argnums=(2, 3))


def poisson(key: Any, lam: Any, shape: Any = None, dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Poisson(lam) counts: Knuth's method below rate 10, transformed rejection above."""
    check_scalar_arraylike("broadcast_to", lam)  # JAX broadcasts ``lam`` first
    key = typed_key(key, "poisson")
    layout = out_layout(out_sharding, "poisson")
    dtype = dtypes.default_int_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    lam = jnp.asarray(lam)
    shape = lam.shape if shape is None else canonicalize_shape(shape)
    lam = lax.convert_element_type(jnp.broadcast_to(lam, shape), np.float32)
    return laid_out(scalar_layout(layout, shape), lambda k, lam: _poisson(k, lam, shape, dtype), key, lam)
