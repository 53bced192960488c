"""Random orderings: ``permutation`` (of ``range(n)`` or of an array, jointly or independently along an axis),
bit for bit JAX's: each round sorts the values by fresh 32-bit keys, and enough rounds are made that ties
between the sort keys of a round are unlikely to bias the result."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_numpy.util import canonicalize_axis, named_jit
from jaxle_random.keys import random_bits, split, typed_key
from jaxle_random.layouts import laid_out, out_layout
from jaxle_random.samplers import refuse_non_arrays

__all__ = ["permutation"]


@named_jit("_shuffle", static_argnames=("axis",))
def _shuffle(key: Any, x: Any, axis: int) -> Any:
    # 3 * log(n) / log(2**32 - 1) rounds make the chance of any tie affecting the order about n**-3 (as JAX)
    rounds = int(math.ceil(3 * math.log(max(1, x.size)) / math.log(np.iinfo(np.uint32).max)))
    for _ in range(rounds):
        key, subkey = split(key)
        sort_keys = random_bits(subkey, 32, x.shape)
        _, x = lax.sort_key_val(sort_keys, x, axis)
    return x


def permutation(key: Any, x: Any, axis: int = 0, independent: bool = False, *, out_sharding: Any = None) -> Any:
    """A random permutation of ``range(x)`` for an integer ``x``, else of ``x`` along ``axis`` (each slice
    shuffled on its own when ``independent``)."""
    refuse_non_arrays("arraylike", "permutation", x)
    key = typed_key(key, "permutation")
    layout = out_layout(out_sharding, "permutation")
    axis = canonicalize_axis(operator.index(axis), np.ndim(x) or 1)
    if not np.ndim(x):
        if not dtypes.issubdtype(np.result_type(x), np.integer):
            raise TypeError("x must be an integer or at least 1-dimensional")
        return laid_out(layout, lambda k: _shuffle(k, jnp.arange(int(x)), 0), key)
    x = jnp.asarray(x)
    if independent or x.ndim == 1:
        return laid_out(layout, lambda k, x: _shuffle(k, x, axis), key, x)
    return laid_out(layout, lambda k, x: jnp.take(x, _shuffle(k, jnp.arange(x.shape[axis]), 0), axis,
                                                  unique_indices=True), key, x)
