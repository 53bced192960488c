"""The ``rbg`` and ``unsafe_rbg`` PRNG implementations: keys are ``uint32[4]`` states of
``lax.rng_bit_generator`` (the backend's bit generator, Philox on CPU), as in JAX.

A key is two threefry2x32 half keys side by side, both made from the seed. Bits come from
``rng_bit_generator`` on the whole key. ``rbg`` splits and folds in data with threefry on each half key;
``unsafe_rbg`` derives new keys from ``rng_bit_generator`` too (every tenth of ten times as many states for
``split``, the key xor the last of ten states drawn from the folded-in data for ``fold_in``), which is faster but
carries no guarantee of independence.

As in JAX, where the key functions apply to several keys at once, ``rng_bit_generator`` acts as under
``vmap``: the first key draws the bits of every key (``lax.rng_bit_generator``'s batching rule).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_random.impls import PRNGImpl, register_prng_impl, threefry_prng_impl

__all__ = ["rbg_prng_impl", "unsafe_rbg_prng_impl"]

_UINT_OF_WIDTH = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def _halves(keys: Any) -> Any:
    """``uint32[*K, 4]`` keys as their two threefry half keys, ``uint32[*K, 2, 2]``."""
    return lax.reshape(keys, keys.shape[:-1] + (2, 2))


def _rbg_seed(seeds: Any) -> Any:
    half = threefry_prng_impl.seed(seeds)
    return lax.concatenate([half, half], half.ndim - 1)


def _rbg_split(keys: Any, shape: tuple[int, ...]) -> Any:
    batch = keys.shape[:-1]
    halves = threefry_prng_impl.split(_halves(keys), shape)  # [*K, 2, *shape, 2]
    order = tuple(range(len(batch))) + tuple(range(len(batch) + 1, len(batch) + 1 + len(shape))) + \
        (len(batch), len(batch) + 1 + len(shape))
    return lax.reshape(lax.transpose(halves, order), batch + tuple(shape) + (4,))


def _rbg_fold_in(keys: Any, data: Any) -> Any:
    repeated = lax.broadcast_in_dim(data, data.shape + (2,), tuple(range(data.ndim)))
    return lax.reshape(threefry_prng_impl.fold_in(_halves(keys), repeated), keys.shape)


def _first_key(keys: Any) -> Any:
    """The first of ``uint32[*K, 4]`` keys, the one ``rng_bit_generator`` draws with for all of them."""
    flat = lax.reshape(keys, (math.prod(keys.shape[:-1]), 4))
    return lax.reshape(lax.slice_in_dim(flat, 0, 1), (4,))


def _generate(keys: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    """``rng_bit_generator`` bits of shape ``[*K, *shape]`` for keys ``[*K, 4]``."""
    return lax.rng_bit_generator(_first_key(keys), keys.shape[:-1] + tuple(shape), dtype)[1]


def _rbg_random_bits(keys: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    return _generate(keys, shape, _UINT_OF_WIDTH[bit_width])


def _unsafe_rbg_split(keys: Any, shape: tuple[int, ...]) -> Any:
    batch = keys.shape[:-1]
    states = _generate(keys, (10 * math.prod(shape), 4), np.dtype(np.uint32))
    every_tenth = lax.slice_in_dim(states, 0, None, stride=10, axis=len(batch))
    return lax.reshape(every_tenth, batch + tuple(shape) + (4,))


def _unsafe_rbg_fold_in(keys: Any, data: Any) -> Any:
    batch = keys.shape[:-1]
    states = _generate(_rbg_seed(data), (10, 4), np.dtype(np.uint32))
    last_state = lax.reshape(lax.slice_in_dim(states, 9, 10, axis=len(batch)), batch + (4,))
    return lax.bitwise_xor(keys, last_state)


rbg_prng_impl = register_prng_impl(PRNGImpl(
    key_shape=(4,), seed=_rbg_seed, split=_rbg_split, random_bits=_rbg_random_bits, fold_in=_rbg_fold_in,
    name="rbg", tag="rbg"))
unsafe_rbg_prng_impl = register_prng_impl(PRNGImpl(
    key_shape=(4,), seed=_rbg_seed, split=_unsafe_rbg_split, random_bits=_rbg_random_bits,
    fold_in=_unsafe_rbg_fold_in, name="unsafe_rbg", tag="urbg"))
