"""threefry2x32's key functions under ``jax_threefry_partitionable=False``: JAX's original counter scheme.

Values derived from a key are threefry2x32 of the key over the counters ``0, 1, ..., c - 1`` taken as one
flat sequence: the first half of the counters are the hash's first words and the second half its second
words (a zero pads an odd count), and the hashed words are read back in that order. An element's bits
therefore depend on how many are drawn at once, which is why JAX made the partitionable scheme its default.

Each function is written for one key (``uint32[2]``), as JAX writes it; keys of leading dimensions ``K`` are
mapped over with ``vmap``, so that a program drawing from several keys is JAX's too.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxle_core import lax, vmap
from jaxle_random.threefry import threefry_2x32_counts

__all__ = ["sequential_random_bits", "sequential_split"]

_UINT_OF_WIDTH = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def _per_key(function: Callable[[Any], Any], keys: Any) -> Any:
    """``function`` of one key applied to each of ``keys`` (``uint32[*K, 2]``), mapped over ``K`` by ``vmap``."""
    for _ in range(keys.ndim - 1):
        function = vmap(function)
    return function(keys)


def _hash_counters(key: Any, count: int) -> Any:
    """threefry2x32 words of ``key`` over the counters ``0..count-1``: ``uint32[count]``."""
    if count >= 2 ** 32 - 1:
        raise NotImplementedError(f"jaxle_random draws at most 2**32 - 2 words at once; asked for {count}")
    return threefry_2x32_counts(key, lax.iota(np.uint32, count))


def sequential_split(keys: Any, shape: tuple[int, ...]) -> Any:
    """``[*K, *shape, 2]`` keys: the words over the counters ``0..2n-1`` (n the number of keys), in pairs."""
    return _per_key(lambda key: lax.reshape(_hash_counters(key, 2 * math.prod(shape)), tuple(shape) + (2,)), keys)


def _random_bits(key: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    size = math.prod(shape)
    count = -(-bit_width * size // 32)
    words = _hash_counters(key, count)
    if bit_width == 64:  # a word of the first half of the words (high) joined with one of the second half (low)
        high, low = (lax.convert_element_type(lax.slice_in_dim(words, start, start + count // 2), np.uint64)
                     for start in (0, count // 2))
        values = lax.bitwise_or(lax.shift_left(high, np.uint64(32)), low)
    elif bit_width == 32:
        values = words
    else:  # the pieces of each word, lowest bits first
        pieces = 32 // bit_width
        rows = lax.broadcast(words, (1,))
        shifts = lax.mul(np.uint32(bit_width), lax.broadcasted_iota(np.uint32, (pieces, 1), 0))
        masked = lax.bitwise_and(np.uint32(2 ** bit_width - 1), lax.shift_right_logical(rows, shifts))
        flat = lax.reshape(masked, (count * pieces,), (1, 0))
        values = lax.convert_element_type(flat, _UINT_OF_WIDTH[bit_width])[:size]
    return lax.reshape(values, tuple(shape))


def sequential_random_bits(keys: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    """``[*K, *shape]`` unsigned integers of ``bit_width`` bits: 64-bit values join a word of the first half
    of the words (high) with one of the second half (low); 8- and 16-bit values are the pieces of each word,
    lowest bits first."""
    return _per_key(lambda key: _random_bits(key, bit_width, tuple(shape)), keys)
