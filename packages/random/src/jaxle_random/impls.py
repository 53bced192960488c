"""PRNG implementations: what a key is physically and how keys are seeded, split, folded and turned into bits.

A ``PRNGImpl`` names an implementation (``threefry2x32``), gives the tag its key dtype prints (``key<fry>``),
the shape of one key's uint32 data (``(2,)``), and four functions written with lax on that data. Every
function takes keys with any leading shape ``K`` (``uint32[*K, *key_shape]``) and treats each key on its
own, so the key primitives apply to batches of keys without a loop:

- ``seed(seeds)``: integer seeds ``[*K]`` to keys;
- ``split(keys, shape)``: ``[*K, *shape]`` new keys;
- ``fold_in(keys, data)``: uint32 ``data [*K]`` folded into each key;
- ``random_bits(keys, bit_width, shape)``: unsigned ``[*K, *shape]`` integers of ``bit_width`` bits.

Implementations are registered by name (``register_prng_impl``); ``jax_default_prng_impl`` picks the
default. Another generator (one built on ``lax.rng_bit_generator``, say) is one more ``PRNGImpl`` with its
key shape and its four functions, registered the same way. An implementation that is not registered (a user's, from
``jax.extend.random.define_prng_impl``) is handed to users wrapped in a ``PRNGSpec``, as JAX's is.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import config, jit, lax
from jaxle_core.batching.rule_helpers import expand_to_rank
from jaxle_random.threefry import iota_2x32_shape, threefry_2x32, threefry_2x32_counts
from jaxle_random.threefry_sequential import sequential_random_bits, sequential_split

__all__ = ["PRNGImpl", "PRNGSpec", "impl_spec", "prng_impls", "register_prng_impl", "resolve_prng_impl",
           "threefry_prng_impl"]

_UINT_OF_WIDTH = {8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64)}


class PRNGImpl(NamedTuple):
    """A PRNG implementation: its key data's shape and its key functions on that data (see the module)."""

    key_shape: tuple[int, ...]
    seed: Callable[[Any], Any]
    split: Callable[[Any, tuple[int, ...]], Any]
    random_bits: Callable[[Any, int, tuple[int, ...]], Any]
    fold_in: Callable[[Any, Any], Any]
    name: str
    tag: str

    def __str__(self) -> str:
        return self.tag  # as equations print it: random_seed[impl=fry]


class PRNGSpec:
    """An implementation that is not registered by name, as users hold it: accepted wherever an implementation is
    (``key(seed, impl=spec)``); its repr names it, its text is its tag."""

    __slots__ = ("_impl",)

    def __init__(self, impl: PRNGImpl):
        self._impl = impl

    def __repr__(self) -> str:
        return f"PRNGSpec({self._impl.name!r})"

    def __str__(self) -> str:
        return str(self._impl)

    def __hash__(self) -> int:
        return hash(self._impl)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PRNGSpec) and self._impl == other._impl


prng_impls: dict[str, PRNGImpl] = {}


def register_prng_impl(impl: PRNGImpl) -> PRNGImpl:
    """Make ``impl`` selectable by its name (``key(0, impl=name)``, ``jax_default_prng_impl``)."""
    prng_impls[impl.name] = impl
    return impl


def resolve_prng_impl(spec: Any) -> PRNGImpl:
    """The implementation ``spec`` names: None (the ``jax_default_prng_impl`` flag), a name, a PRNGSpec or a
    PRNGImpl."""
    if spec is None:
        spec = config.config.jax_default_prng_impl
    if isinstance(spec, PRNGImpl):
        return spec
    if isinstance(spec, PRNGSpec):
        return spec._impl
    if isinstance(spec, str):
        impl = prng_impls.get(spec)
        if impl is None:
            names = ", ".join(f'"{name}"' for name in prng_impls)
            raise ValueError(f'unrecognized PRNG implementation "{spec}". Did you mean one of: {names}?')
        return impl
    raise TypeError(f"unrecognized type {type(spec)} for specifying PRNG implementation.")


def impl_spec(impl: PRNGImpl) -> str | PRNGSpec:
    """``impl`` as users see it (``key_impl``): its name when registered by it, else a PRNGSpec."""
    return impl.name if prng_impls.get(impl.name) is impl else PRNGSpec(impl)


# ---------------------------------------------------------------- threefry2x32


def _words(keys: Any) -> tuple[Any, Any]:
    """The two uint32 words of each key of ``keys`` (``uint32[*K, 2]``)."""
    batch = keys.shape[:-1]
    return (lax.reshape(lax.slice_in_dim(keys, 0, 1, axis=len(batch)), batch),
            lax.reshape(lax.slice_in_dim(keys, 1, 2, axis=len(batch)), batch))


def _join(first: Any, second: Any) -> Any:
    """Keys ``uint32[*K, 2]`` from their two words (each ``[*K]``)."""
    return lax.concatenate([_key_word(first), _key_word(second)], first.ndim)


def _key_word(word: Any) -> Any:
    """One word of keys (``[*K]``) as a slice ``[*K, 1]`` of them."""
    return lax.expand_dims(word, (word.ndim,))


def _hash_per_key(keys: Any, shape: tuple[int, ...]) -> tuple[Any, Any]:
    """threefry2x32 of every key (``[*K, 2]``) on the counters of ``shape`` (each element's flat index, as the
    64-bit word pair (hi, lo)): two uint32 arrays ``[*K, *shape]``."""
    size = math.prod(shape)
    if size >= 2 ** 32:
        raise NotImplementedError(f"jaxle_random draws at most 2**32 - 1 values at once; asked for {size}")
    k1, k2 = _words(keys)
    batch = k1.shape
    hi, lo = iota_2x32_shape(shape)
    if batch and shape:  # several keys: the counters get size-1 key dimensions, each word size-1 counter ones
        # (as nested vmaps broadcast the operands of JAX's hash of one key: the innermost gives the counters a key
        # dimension and the words theirs, each outer one the counters another; the counters over no mesh, whatever
        # the current)
        hi, lo = (expand_to_rank(c, c.ndim + 1) for c in (hi, lo))
        ones = batch + (1,) * len(shape)
        k1, k2 = (lax.broadcast_in_dim(k, ones, tuple(range(len(batch)))) for k in (k1, k2))
        for _ in batch[1:]:
            hi, lo = (expand_to_rank(c, c.ndim + 1) for c in (hi, lo))
    return threefry_2x32(k1, k2, hi, lo)


def _threefry_seed(seeds: Any) -> Any:
    """Keys whose words are the high and the low 32 bits of each seed (the high word 0 for narrower seeds); the low
    word masked as NumPy's promotion types a seed and a uint32 mask (a weakly typed seed as uint32, another as the
    wider integer of the two), as JAX's."""
    hi = _key_word(lax.convert_element_type(lax.shift_right_logical(seeds, np.array(32, seeds.dtype)), np.uint32))
    with config.numpy_dtype_promotion("standard"):
        lo = _key_word(lax.convert_element_type(jnp.bitwise_and(seeds, np.uint32(0xFFFFFFFF)), np.uint32))
    return lax.concatenate([hi, lo], seeds.ndim)


def _partitionable() -> bool:
    return config.config.jax_threefry_partitionable


@partial(jit, static_argnums=(1,))
def _threefry_split(keys: Any, shape: tuple[int, ...]) -> Any:
    if not _partitionable():
        return sequential_split(keys, shape)
    first, second = _hash_per_key(keys, shape)
    return lax.stack([first, second], first.ndim)


@jit
def _threefry_fold_in(keys: Any, data: Any) -> Any:
    if keys.ndim == 1:  # one key: the hash of the data's two words, as seeding with it makes them
        return threefry_2x32_counts(keys, _threefry_seed(data))
    k1, k2 = _words(keys)
    seeded = _threefry_seed(data)
    return _join(*threefry_2x32(k1, k2, *(lax.reshape(lax.slice_in_dim(seeded, i, i + 1, axis=data.ndim),
                                                      data.shape) for i in (0, 1))))


def _threefry_random_bits(keys: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    if not _partitionable():
        return sequential_random_bits(keys, bit_width, shape)
    b1, b2 = _hash_per_key(keys, shape)
    if bit_width == 64:
        high = lax.shift_left(lax.convert_element_type(b1, np.uint64), np.uint64(32))
        return lax.bitwise_or(high, lax.convert_element_type(b2, np.uint64))
    word = lax.bitwise_xor(b1, b2)
    return word if bit_width == 32 else lax.convert_element_type(word, _UINT_OF_WIDTH[bit_width])


threefry_prng_impl = register_prng_impl(PRNGImpl(
    key_shape=(2,), seed=_threefry_seed, split=_threefry_split, random_bits=_threefry_random_bits,
    fold_in=_threefry_fold_in, name="threefry2x32", tag="fry"))
