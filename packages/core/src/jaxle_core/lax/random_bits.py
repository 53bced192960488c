"""Random bits: ``rng_bit_generator`` (counter-based, reproducible) and ``rng_uniform`` (stateful).

``rng_bit_generator`` follows XLA's definition bit for bit, so the NumPy reference and
XLA agree. The key is a ``uint32[4]`` (or ``uint64[2]``) state ``(s0, s1)``:

- THREE_FRY: Threefry-2x32 (20 rounds) keyed by ``s0``, applied to the 64-bit counters
  ``s1, s1 + 1, ...``. Each counter gives two 32-bit words, emitted in turn (or one
  64-bit word, low word first). The new state is ``(s0, s1 + counters used)``.
- PHILOX (XLA's default on CPU and GPU): Philox-4x32 (10 rounds) keyed by ``s0``,
  applied to the 128-bit counters ``(s1 + i) + 2**64 * s0`` (the carry of ``s1 + i``
  propagates into the high half). Each counter gives four 32-bit words (or two 64-bit
  words). The new state is ``(s0, s1 + counters used)``, wrapping modulo 2**64.

8- and 16-bit outputs are the low bits of the 32-bit stream.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

import numpy as np

from jaxle_core import dtypes
from jaxle_core.avals import ShapedArray
from jaxle_core.core import Primitive
from jaxle_core.lax.placement import reshard_target
from jaxle_core.lax.standard import as_int_tuple
from jaxle_core.sharding import NamedSharding

__all__ = ["RandomAlgorithm", "rng_bit_generator", "rng_bit_generator_p", "rng_uniform", "rng_uniform_p"]


class RandomAlgorithm(enum.IntEnum):
    """The bit generator of ``rng_bit_generator``; RNG_DEFAULT is the backend's choice (Philox on CPU)."""

    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __str__(self) -> str:
        return self.name


_BIT_DTYPES = tuple(np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
_LOW32 = np.uint64(0xFFFFFFFF)


def check_key_aval(key: ShapedArray) -> None:
    """The key must be a ``uint32[4]`` or ``uint64[2]`` state (checked where the state is unpacked, as JAX)."""
    if (key.shape, key.dtype) not in (((4,), np.dtype(np.uint32)), ((2,), np.dtype(np.uint64))):
        raise AssertionError(f"rng_bit_generator: the key must be a uint32[4] or uint64[2] array, got "
                             f"{key.str_short()}")


# ---------------------------------------------------------------- 32-bit word helpers


def _split(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The low and high 32-bit words of uint64 ``x``."""
    return (x & _LOW32).astype(np.uint32), (x >> np.uint64(32)).astype(np.uint32)


def _join(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    return low.astype(np.uint64) | (high.astype(np.uint64) << np.uint64(32))


def _rotate_left(x: np.ndarray, r: int) -> np.ndarray:
    return (x << np.uint32(r)) | (x >> np.uint32(32 - r))


def threefry_2x32(key: Sequence[np.uint32], x0: np.ndarray, x1: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Threefry-2x32 with 20 rounds (Salmon et al., 2011) of the word pairs ``(x0, x1)``."""
    rotations = ((13, 15, 26, 6), (17, 29, 16, 24))
    schedule = (np.uint32(key[0]), np.uint32(key[1]), np.uint32(key[0] ^ key[1] ^ np.uint32(0x1BD11BDA)))
    x0, x1 = x0 + schedule[0], x1 + schedule[1]
    for block in range(5):
        for r in rotations[block % 2]:
            x0 = x0 + x1
            x1 = _rotate_left(x1, r) ^ x0
        x0 = x0 + schedule[(block + 1) % 3]
        x1 = x1 + schedule[(block + 2) % 3] + np.uint32(block + 1)
    return x0, x1


def philox_4x32(key: Sequence[np.uint32], counter: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Philox-4x32 with 10 rounds (Salmon et al., 2011) of the counter words ``(c0, c1, c2, c3)``."""
    k0, k1 = np.uint32(key[0]), np.uint32(key[1])
    c0, c1, c2, c3 = counter
    for _ in range(10):
        low0, high0 = _split(c0.astype(np.uint64) * np.uint64(0xD2511F53))
        low1, high1 = _split(c2.astype(np.uint64) * np.uint64(0xCD9E8D57))
        c0, c1, c2, c3 = high1 ^ c1 ^ k0, low1, high0 ^ c3 ^ k1, low0
        with np.errstate(over="ignore"):  # the key schedule wraps modulo 2**32
            k0, k1 = k0 + np.uint32(0x9E3779B9), k1 + np.uint32(0xBB67AE85)
    return [c0, c1, c2, c3]


def _split_dimension(shape: tuple[int, ...]) -> int:
    """The dimension whose halves take Threefry's two output words: the one needing the least padding to an
    even size (the first such)."""
    count = int(np.prod(shape, dtype=np.int64))
    padded = [count // size * (size + size % 2) if size else 0 for size in shape]
    return padded.index(min(padded))


def _threefry_bits(s0: np.uint64, s1: np.uint64, shape: tuple[int, ...], wide: bool) -> tuple[np.ndarray, int]:
    if wide or not shape:
        counters = int(np.prod(shape, dtype=np.int64))
        y0, y1 = threefry_2x32(_split(s0), *_split(s1 + np.arange(counters, dtype=np.uint64)))
        return (_join(y0, y1) if wide else y0).reshape(shape), counters
    # 32-bit words: the split dimension is halved (rounded up); counter i (row-major over the halved shape)
    # gives the entries 2i and 2i + 1 of that dimension.
    axis = _split_dimension(shape)
    half = shape[:axis] + (-(-shape[axis] // 2),) + shape[axis + 1:]
    counters = int(np.prod(half, dtype=np.int64))
    words = threefry_2x32(_split(s0), *_split(s1 + np.arange(counters, dtype=np.uint64)))
    interleaved = np.stack([w.reshape(half) for w in words], axis=axis + 1)
    bits = interleaved.reshape(half[:axis] + (2 * half[axis],) + half[axis + 1:])
    return np.take(bits, np.arange(shape[axis]), axis=axis), counters


def _philox_bits(s0: np.uint64, s1: np.uint64, shape: tuple[int, ...], wide: bool) -> tuple[np.ndarray, int]:
    count = int(np.prod(shape, dtype=np.int64))
    counters = -(-count // (2 if wide else 4))
    low = s1 + np.arange(counters, dtype=np.uint64)
    high = s0 + (low < s1).astype(np.uint64)  # the carry out of the low 64 bits
    words = philox_4x32(_split(s0), [*_split(low), *_split(high)])
    if wide:
        words = [_join(words[0], words[1]), _join(words[2], words[3])]
    return np.stack(words, axis=1).reshape(-1)[:count].reshape(shape), counters


_GENERATORS = {RandomAlgorithm.RNG_DEFAULT: _philox_bits, RandomAlgorithm.RNG_PHILOX: _philox_bits,
               RandomAlgorithm.RNG_THREE_FRY: _threefry_bits}


# ---------------------------------------------------------------- rng_bit_generator

rng_bit_generator_p = Primitive("rng_bit_generator")
rng_bit_generator_p.multiple_results = True


@rng_bit_generator_p.def_abstract_eval
def _rng_bit_generator_aval(key, *, shape, dtype, algorithm, out_sharding):
    return [ShapedArray(key.shape, key.dtype), ShapedArray(shape, dtype)]


@rng_bit_generator_p.def_impl
def _rng_bit_generator_impl(key, *, shape, dtype, algorithm, out_sharding):
    check_key_aval(ShapedArray(key.shape, key.dtype))
    s0, s1 = np.ascontiguousarray(key).view(np.uint64)
    wide = np.dtype(dtype).itemsize == 8
    with np.errstate(over="ignore"):
        bits, counters = _GENERATORS[RandomAlgorithm(algorithm)](s0, s1, tuple(shape), wide)
        new_key = np.array([s0, s1 + np.uint64(counters)], np.uint64).view(key.dtype)
    return [new_key, bits.astype(dtype)]


def rng_bit_generator(key, shape: Sequence[int], dtype=np.uint32,
                      algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT, out_sharding=None):
    """Random bits of ``shape`` and unsigned ``dtype`` from the state ``key`` (``uint32[4]``); returns
    ``(new_key, bits)``, the bits laid out as ``out_sharding`` when given. The same key always gives the same bits
    on a given backend."""
    shape = as_int_tuple(shape)
    if any(d < 0 for d in shape):
        raise TypeError(f"rng_bit_generator: shape must have non-negative dimensions, got {shape}")
    dtype = dtypes.dtype(dtype, requested_in="rng_bit_generator")
    if dtype not in _BIT_DTYPES:
        raise TypeError(f"rng_bit_generator: unsupported dtype {dtype}")
    if out_sharding is not None:
        # recorded over the abstract mesh, as given (the bits are then laid out so over the mesh's Explicit axes)
        target = reshard_target(out_sharding, "rng_bit_generator", same_mesh=True)
        out_sharding = NamedSharding(target.mesh.abstract_mesh, target.spec)
    new_key, bits = rng_bit_generator_p.bind(key, shape=shape, dtype=dtype, algorithm=algorithm,
                                             out_sharding=out_sharding)
    return new_key, bits


# ---------------------------------------------------------------- rng_uniform

rng_uniform_p = Primitive("rng_uniform")


@rng_uniform_p.def_abstract_eval
def _rng_uniform_aval(a, b, *, shape):
    if a.dtype != b.dtype:
        raise ValueError(f"Arguments to rng_uniform must have identical dtypes, got {a.dtype.name} and "
                         f"{b.dtype.name}.")
    if a.shape or b.shape:
        raise ValueError(f"Arguments to rng_uniform must be scalars; got shapes {a.shape} and {b.shape}.")
    return ShapedArray(shape, a.dtype, a.weak_type and b.weak_type)


@rng_uniform_p.def_impl
def _rng_uniform_impl(a, b, *, shape):
    generator = np.random.default_rng()
    if np.issubdtype(a.dtype, np.integer):
        return generator.integers(a, b, shape, dtype=a.dtype, endpoint=False)
    return (a + (b - a) * generator.random(shape)).astype(a.dtype)


def rng_uniform(a, b, shape: Sequence[int]):
    """Numbers uniformly distributed in ``[a, b)`` (scalars of one dtype), of ``shape``; not reproducible:
    each evaluation draws anew (use ``rng_bit_generator`` for reproducible bits)."""
    return rng_uniform_p.bind(a, b, shape=as_int_tuple(shape))
