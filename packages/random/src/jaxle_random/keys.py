"""Raw ``uint32[2]`` keys: ``PRNGKey``, ``split``, ``fold_in`` and ``bits``.

A key is a pair of uint32 words. Every derived value is threefry2x32 of the key applied to counters:
the counter of element ``i`` (flat, row-major) is the 64-bit ``i`` as the word pair ``(hi, lo)`` — the
``jax_threefry_partitionable=True`` scheme, so an element's bits do not depend on the other elements.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_core.lax.standard import canonical_shape
from jaxle_random.threefry import threefry_2x32

__all__ = ["PRNGKey", "bits", "fold_in", "split"]

_UINT_OF_WIDTH = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


def _seed_words(seed: Any) -> tuple[Any, Any]:
    """The (hi, lo) uint32 words of an integer seed: a 64-bit seed gives both words, a narrower one only lo."""
    if isinstance(seed, (float, complex, bool)) or not dtypes.issubdtype(jnp.result_type(seed), np.integer):
        raise TypeError(f"PRNG key seed must be an integer; got {seed!r}")
    if isinstance(seed, int):
        # a Python int wraps to the default integer's width, as in JAX
        width = dtypes.default_int_dtype().itemsize * 8
        seed = np.array((seed + 2 ** (width - 1)) % 2 ** width - 2 ** (width - 1), dtypes.default_int_dtype())
    seed = jnp.asarray(seed)
    if seed.shape:
        raise TypeError(f"PRNG key seed must be a scalar; got {seed!r}.")
    lo = lax.convert_element_type(seed, np.uint32)
    if seed.dtype.itemsize == 8:
        hi = lax.convert_element_type(lax.shift_right_logical(seed, np.array(32, seed.dtype)), np.uint32)
    else:
        hi = lax.full((), 0, np.uint32)
    return hi, lo


def check_no_sharding(out_sharding: Any, function: str) -> None:
    """jaxle places results on one device: ``out_sharding`` may only be None."""
    if out_sharding is not None:
        raise TypeError(f"`out_sharding` argument of {function} only supports instances of `NamedSharding` or "
                        f"`PartitionSpec`. Got {out_sharding} of type: {type(out_sharding)}")


def PRNGKey(seed: Any, *, impl: Any = None) -> Any:  # noqa: N802 - JAX's name
    """A raw ``uint32[2]`` key made from an integer seed (64-bit seeds use both words under x64)."""
    if impl not in (None, "threefry2x32"):
        raise ValueError(f"jaxle_random implements the threefry2x32 PRNG only; got impl={impl!r}")
    hi, lo = _seed_words(seed)
    return lax.concatenate([lax.broadcast(hi, (1,)), lax.broadcast(lo, (1,))], 0)


def check_key(key: Any) -> Any:
    """``key`` as an array, with JAX's error for anything that is not a raw key (nothing is staged)."""
    key = jnp.asarray(key)
    if key.dtype != np.uint32:
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; "
                        f"got dtype={key.dtype}")
    if key.shape != (2,):
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,); "
                        f"got shape={key.shape} for impl=threefry2x32")
    return key


def key_words(key: Any) -> tuple[Any, Any]:
    """The two uint32 words of a raw key, with JAX's error for anything that is not one."""
    key = check_key(key)
    return lax.index_in_dim(key, 0, keepdims=False), lax.index_in_dim(key, 1, keepdims=False)


def _counters(shape: tuple[int, ...]) -> tuple[Any, Any]:
    """The (hi, lo) counter words of every element of ``shape`` (its flat row-major index)."""
    size = math.prod(shape)
    if size >= 2 ** 32:
        raise NotImplementedError(f"jaxle_random draws at most 2**32 - 1 values at once; asked for {size}")
    lo = lax.reshape(lax.iota(np.uint32, size), shape)
    return lax.full(shape, 0, np.uint32), lo


def split(key: Any, num: int | tuple[int, ...] = 2) -> Any:
    """``num`` new keys (an integer or a shape) derived from ``key``: a ``uint32[*shape, 2]`` array."""
    shape = canonical_shape(num)
    k1, k2 = key_words(key)
    b1, b2 = threefry_2x32(k1, k2, *_counters(shape))
    ndim = len(shape)
    return lax.concatenate([lax.expand_dims(b1, (ndim,)), lax.expand_dims(b2, (ndim,))], ndim)


def fold_in(key: Any, data: Any) -> Any:
    """A new key determined by ``key`` and the integer ``data``."""
    k1, k2 = key_words(key)
    y1, y2 = threefry_2x32(k1, k2, lax.full((), 0, np.uint32), jnp.asarray(data, np.uint32))
    return lax.concatenate([lax.broadcast(y1, (1,)), lax.broadcast(y2, (1,))], 0)


def random_bits(key: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    """Unsigned integers of ``bit_width`` bits (8, 16, 32 or 64), one per element of ``shape``."""
    k1, k2 = key_words(key)
    hi, lo = _counters(shape)
    b1, b2 = threefry_2x32(k1, k2, hi, lo)
    if bit_width == 64:
        high = lax.shift_left(lax.convert_element_type(b1, np.uint64), np.uint64(32))
        return lax.bitwise_or(high, lax.convert_element_type(b2, np.uint64))
    word = lax.bitwise_xor(b1, b2)
    return word if bit_width == 32 else lax.convert_element_type(word, _UINT_OF_WIDTH[bit_width])


def bits(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Uniformly random bits of an unsigned integer ``dtype`` (default: the default unsigned int)."""
    check_no_sharding(out_sharding, "bits")
    dtype = dtypes.default_uint_dtype() if dtype is None else dtypes.canonicalize_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.unsignedinteger):
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dtype}")
    return random_bits(key, dtype.itemsize * 8, canonical_shape(shape))
