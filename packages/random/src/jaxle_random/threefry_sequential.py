"""threefry2x32's key functions under ``jax_threefry_partitionable=False``: JAX's original counter scheme.

Values derived from a key are threefry2x32 of the key over the counters ``0, 1, ..., c - 1`` taken as one
flat sequence: the first half of the counters are the hash's first words and the second half its second
words (a zero pads an odd count), and the hashed words are read back in that order. An element's bits
therefore depend on how many are drawn at once, which is why JAX made the partitionable scheme its default.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jaxle_core import lax
from jaxle_random.threefry import threefry_2x32

__all__ = ["sequential_random_bits", "sequential_split"]

_UINT_OF_WIDTH = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def _hash_counters(keys: Any, count: int) -> Any:
    """threefry2x32 words of every key (``uint32[*K, 2]``) over the counters ``0..count-1``: ``[*K, count]``."""
    if count >= 2 ** 32 - 1:
        raise NotImplementedError(f"jaxle_random draws at most 2**32 - 2 words at once; asked for {count}")
    batch = keys.shape[:-1]
    half = (count + 1) // 2
    full = batch + (half,)
    key_dims = tuple(range(len(batch)))
    words = [lax.broadcast_in_dim(lax.reshape(lax.slice_in_dim(keys, i, i + 1, axis=len(batch)), batch), full,
                                  key_dims) for i in (0, 1)]
    counters = lax.iota(np.uint32, count)
    if count % 2:  # a zero counter pads the odd count; its words are cut off the result
        counters = lax.concatenate([counters, lax.full((1,), 0, np.uint32)], 0)
    first = lax.broadcast_in_dim(lax.slice_in_dim(counters, 0, half), full, (len(batch),))
    second = lax.broadcast_in_dim(lax.slice_in_dim(counters, half, 2 * half), full, (len(batch),))
    out = lax.concatenate(threefry_2x32(*words, first, second), len(batch))
    return lax.slice_in_dim(out, 0, count, axis=len(batch))


def sequential_split(keys: Any, shape: tuple[int, ...]) -> Any:
    """``[*K, *shape, 2]`` keys: the words over the counters ``0..2n-1`` (n the number of keys), in pairs."""
    num = math.prod(shape)
    return lax.reshape(_hash_counters(keys, 2 * num), keys.shape[:-1] + tuple(shape) + (2,))


def sequential_random_bits(keys: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    """``[*K, *shape]`` unsigned integers of ``bit_width`` bits: 64-bit values join a word of the first half
    of the words (high) with one of the second half (low); 8- and 16-bit values are the pieces of each word,
    lowest bits first."""
    batch = keys.shape[:-1]
    axis = len(batch)
    size = math.prod(shape)
    count = -(-bit_width * size // 32)
    words = _hash_counters(keys, count)
    if bit_width == 64:
        wide = lax.convert_element_type(words, np.uint64)
        high = lax.slice_in_dim(wide, 0, size, axis=axis)
        low = lax.slice_in_dim(wide, size, 2 * size, axis=axis)
        values = lax.bitwise_or(lax.shift_left(high, np.uint64(32)), low)
    elif bit_width == 32:
        values = words
    else:
        pieces = 32 // bit_width
        shifts = lax.mul(lax.iota(np.uint32, pieces), np.uint32(bit_width))
        shifted = lax.shift_right_logical(lax.broadcast_in_dim(words, batch + (count, pieces), tuple(range(axis + 1))),
                                          lax.broadcast_in_dim(shifts, batch + (count, pieces), (axis + 1,)))
        masked = lax.bitwise_and(shifted, np.uint32(2 ** bit_width - 1))
        flat = lax.reshape(masked, batch + (count * pieces,))
        values = lax.convert_element_type(lax.slice_in_dim(flat, 0, size, axis=axis), _UINT_OF_WIDTH[bit_width])
    return lax.reshape(values, batch + tuple(shape))
