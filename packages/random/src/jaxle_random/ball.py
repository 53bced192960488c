"""``ball``: points uniform in the unit p-norm ball of R^d, bit for bit JAX's — a generalized normal vector
scaled by the p-norm of itself padded with one exponential draw (Barthe, Guédon, Mendelson and Naor)."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core.avals import canonicalize_shape
from jaxle_numpy.util import named_jit
from jaxle_random.distributions import _float_dtype, exponential
from jaxle_random.gamma import _generalized_normal
from jaxle_random.keys import split, typed_key
from jaxle_random.layouts import laid_out, out_layout
from jaxle_random.samplers import check_shape

__all__ = ["ball"]


@named_jit("_ball", static_argnames=("d", "shape", "dtype"))
def _ball(key: Any, p: Any, d: int, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    normal_key, exponential_key = split(key)
    g = _generalized_normal(normal_key, p, shape + (d,), dtype)
    e = exponential(exponential_key, shape, dtype)  # as JAX's: the public sampler (of no shape: replicated)
    radius = (jnp.sum(jnp.abs(g) ** p, axis=-1) + e) ** (1 / p)
    return g / radius[..., None]


def ball(key: Any, d: int, p: float = 2, shape: tuple[int, ...] | int = (), dtype: Any = None, *,
         out_sharding: Any = None) -> Any:
    """Points uniform in the unit ``p``-norm ball of dimension ``d``, of shape ``shape + (d,)``."""
    key = typed_key(key, "ball")
    layout = out_layout(out_sharding, "ball")
    dtype = _float_dtype(dtype, "gamma")  # JAX's ball meets a dtype that is not a float in gamma, which names itself
    d, shape = operator.index(d), canonicalize_shape(shape)
    # JAX's ball draws through generalized_normal's gamma draw, which checks the shape of the points
    check_shape("gamma", shape + (d,), ())
    return laid_out(layout, lambda k, p: _ball(k, p, d, shape, dtype), key, p)
