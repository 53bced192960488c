"""Batching of ``rng_bit_generator``.

As in JAX, a batch of keys does not give independent streams: the first key draws the bits of the
whole batch and only that key advances (so the result matches drawing the batch's bits at once).
"""

from __future__ import annotations

from jaxle_core.batching.trace import batching_rules
from jaxle_core.lax.random_bits import rng_bit_generator_p
from jaxle_core.lax.slicing import dynamic_update_index_in_dim, slice
from jaxle_core.lax.structural import squeeze, transpose


def _rng_bit_generator_rule(vals, dims, *, shape, **params):
    (keys,), (dim,) = vals, dims
    if dim != 0:
        order = [dim] + [i for i in range(keys.ndim) if i != dim]
        keys = transpose(keys, order)
    first_key = squeeze(slice(keys, (0,) * keys.ndim, (1,) + keys.shape[1:]), (0,))
    new_key, bits = rng_bit_generator_p.bind(first_key, shape=keys.shape[:1] + shape, **params)
    return [dynamic_update_index_in_dim(keys, new_key, 0, 0), bits], [0, 0]


batching_rules[rng_bit_generator_p] = _rng_bit_generator_rule
