"""Keys: typed ``key``, raw ``PRNGKey``, ``split``, ``fold_in``, ``bits`` and the key-data functions.

A typed key is an array of dtype ``key<fry>``; a raw key is its ``uint32[2]`` data. Every function accepts
both: a raw key is wrapped on the way in (``random_wrap``) and results that are keys are unwrapped on the way
out, so a raw-key program stages the same key primitives as a typed one, between a wrap and an unwrap.

Derived values are threefry2x32 of the key applied to counters: the counter of element ``i`` (flat,
row-major) is the 64-bit ``i`` as the word pair ``(hi, lo)`` — the ``jax_threefry_partitionable=True``
scheme, so an element's bits do not depend on the other elements.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import core, dtypes
from jaxle_core.array import Array
from jaxle_core.avals import canonicalize_shape, get_aval
from jaxle_core.staging import StagingTrace
from jaxle_numpy.util import is_arraylike
from jaxle_random import key_primitives as prims
from jaxle_random.impls import PRNGImpl, PRNGSpec, impl_spec, resolve_prng_impl
from jaxle_random.key_array import KeyTy, is_key_dtype, key_type
from jaxle_random.layouts import laid_out, out_layout, scalar_layout

__all__ = ["PRNGKey", "bits", "clone", "fold_in", "key", "key_data", "key_dtype", "key_impl", "split",
           "wrap_key_data"]


def _is_typed(key: Any) -> bool:
    return is_key_dtype(getattr(key, "dtype", None))


def seed_array(seed: Any, function: str, scalar: bool = True) -> Any:
    """An integer seed as an array (a Python int wraps to the default integer's width, as in JAX); a scalar
    unless ``scalar`` is False."""
    if _is_typed(seed):
        raise TypeError(f"{function} accepts a scalar seed, but was given a PRNG key.")
    if scalar and np.ndim(seed):
        raise TypeError(f"{function} accepts a scalar seed, but was given an array of shape {np.shape(seed)} != (). "
                        "Use jax.vmap for batching")
    given = seed
    if isinstance(seed, int):
        if not -2 ** 63 <= seed < 2 ** 63:  # JAX makes an int64 of it first
            raise OverflowError("Python int too large to convert to C long")
        width = dtypes.default_int_dtype().itemsize * 8
        seed = np.array((seed + 2 ** (width - 1)) % 2 ** width - 2 ** (width - 1), dtypes.default_int_dtype())
    seed = jnp.asarray(seed)
    if not dtypes.issubdtype(seed.dtype, np.integer):
        raise TypeError(f"PRNG key seed must be an integer; got {given!r}")
    return seed


def _impl_of_spec(impl: Any, dtype: Any = None) -> PRNGImpl:
    if dtype is not None and impl is None:
        return key_dtype(dtype)._impl
    return resolve_prng_impl(impl)


def key(seed: Any, *, impl: Any = None, dtype: Any = None) -> Any:
    """A typed key (dtype ``key<fry>``) made from an integer seed; ``impl`` (or ``dtype``) picks the PRNG."""
    return prims.random_seed(seed_array(seed, "key"), _impl_of_spec(impl, dtype))


def PRNGKey(seed: Any, *, impl: Any = None) -> Any:  # noqa: N802 - JAX's name
    """A raw key (the ``uint32[2]`` data of a typed key) made from an integer seed (64-bit seeds use both
    words under x64)."""
    return prims.random_unwrap(prims.random_seed(seed_array(seed, "PRNGKey"), resolve_prng_impl(impl)))


def _key_data_array(data: Any) -> Any:
    """Raw key data as an array, with JAX's error for an object that has no array's attributes."""
    if isinstance(data, Array):
        return data
    if not all(hasattr(data, attribute) for attribute in ("ndim", "shape", "dtype")):
        raise TypeError("JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, and dtype "
                        f"attributes. Got {data}")
    return jnp.asarray(data)


def check_key(key: Any, function: str, allow_batched: bool = False) -> tuple[Any, bool]:
    """``key`` as a typed key and whether it came raw, with JAX's errors for anything that is not a key (or,
    unless ``allow_batched``, for an array of several keys)."""
    if _is_typed(key):
        typed, wrapped, shape = key, False, get_aval(key).shape
    elif is_arraylike(key) or np.isscalar(key):
        data = _key_data_array(key)
        # random_wrap checks the data, with JAX's errors
        typed, wrapped, shape = prims.random_wrap(data, resolve_prng_impl(None)), True, data.shape
    else:
        raise TypeError(f"unexpected PRNG key type {type(key)}")
    if not allow_batched and get_aval(typed).shape:
        raise ValueError(f"{function} accepts a single key, but was given a key array of shape {shape} != (). "
                         "Use jax.vmap for batching.")
    return typed, wrapped


def typed_key(key: Any, function: str) -> Any:
    """``key`` (raw or typed, a single key) as a typed key: what samplers pass to their jitted bodies."""
    return check_key(key, function)[0]


def _return_keys(keys: Any, wrapped: bool) -> Any:
    return prims.random_unwrap(keys) if wrapped else keys


def split(key: Any, num: int | tuple[int, ...] = 2) -> Any:
    """``num`` new keys (an integer or a shape) derived from ``key``: keys of shape ``num`` (raw keys:
    ``uint32[*num, 2]``)."""
    typed, wrapped = check_key(key, "split")
    shape = tuple(num) if isinstance(num, Sequence) else (num,)
    # JAX's split converts each size with operator.index when it runs (Python's errors); staged, the keys' type
    # checks the shape
    shape = canonicalize_shape(shape) if core.within_trace_of(StagingTrace) else tuple(map(operator.index, shape))
    return _return_keys(prims.random_split(typed, shape), wrapped)


def fold_in(key: Any, data: Any) -> Any:
    """A new key determined by ``key`` and the integer ``data``."""
    typed, wrapped = check_key(key, "fold_in")
    if np.ndim(data):
        # JAX's words, its missing space included
        raise TypeError(f"fold_in accepts a scalar, but was given an array ofshape {np.shape(data)} != (). "
                        "Use jax.vmap for batching.")
    return _return_keys(prims.random_fold_in(typed, jnp.asarray(data, np.uint32)), wrapped)


def clone(key: Any) -> Any:
    """A copy of ``key`` (for ``jax_debug_key_reuse``; the same key otherwise)."""
    return prims.random_clone(key)


def key_data(keys: Any) -> Any:
    """The uint32 data underlying typed keys (``uint32[*keys.shape, 2]``); raw keys are returned as they are."""
    typed, _ = check_key(keys, "key_data", allow_batched=True)
    return prims.random_unwrap(typed)


def wrap_key_data(key_bits_array: Any, *, impl: Any = None, dtype: Any = None) -> Any:
    """Typed keys over their uint32 data (``uint32[..., 2]`` for threefry2x32)."""
    impl = _impl_of_spec(impl, dtype)
    if _is_typed(key_bits_array):
        raise TypeError(f"JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got "
                        f"ndim={get_aval(key_bits_array).ndim}")
    data = _key_data_array(key_bits_array)
    prims.check_key_data(get_aval(data), impl)
    return prims.random_wrap(data, impl)


def key_impl(keys: Any) -> str | PRNGSpec:
    """The PRNG implementation of ``keys`` (the default one for raw keys): its name, or the PRNGSpec of a user's."""
    typed, _ = check_key(keys, "key_impl", allow_batched=True)
    return impl_spec(get_aval(typed).dtype._impl)


def key_dtype(impl_spec: Any = None) -> KeyTy:
    """The key dtype of a PRNG implementation (by name; the default one when None)."""
    if isinstance(impl_spec, KeyTy):
        return impl_spec
    return key_type(resolve_prng_impl(impl_spec))


def random_bits(key: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    """Unsigned integers of ``bit_width`` bits (8, 16, 32 or 64), one per element of ``shape``, from a typed key."""
    return prims.random_bits(key, bit_width, shape)


def bits(key: Any, shape: tuple[int, ...] | int = (), dtype: Any = None, *, out_sharding: Any = None) -> Any:
    """Uniformly random bits of an unsigned integer ``dtype`` (default: the default unsigned int)."""
    typed, _ = check_key(key, "bits")
    layout = out_layout(out_sharding, "bits")
    dtype = dtypes.default_uint_dtype() if dtype is None else dtypes.check_user_dtype(dtype)
    if not dtypes.issubdtype(dtype, np.unsignedinteger):
        raise ValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {dtype}")
    shape = canonicalize_shape(shape)
    return laid_out(scalar_layout(layout, shape), lambda k: prims.random_bits(k, dtype.itemsize * 8, shape), typed)
