"""Typed keys: the ``key<fry>`` dtype and the concrete arrays of keys.

A key array's dtype (``KeyTy``) is an extended dtype of core: tracing, jaxprs, jit and vmap see one element
per key (``key<fry>[3]``); the backends compute with its physical ``uint32[3, 2]`` data.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import jaxle_numpy as jnp
from jaxle_core import dtypes, lax
from jaxle_core.avals import ShapedArray
from jaxle_core.extended import ExtendedArray
from jaxle_random.impls import PRNGImpl

__all__ = ["KeyTy", "PRNGKeyArray", "is_key_dtype", "key_type"]


class KeyTy(dtypes.ExtendedDType):
    """The dtype of keys of one PRNG implementation, printed ``key<tag>``."""

    type = dtypes.prng_key
    physical_dtype = np.dtype(np.uint32)

    def __init__(self, impl: PRNGImpl):
        self._impl = impl
        self.name = f"key<{impl.tag}>"
        self.physical_shape = impl.key_shape

    def wrap(self, physical: Any) -> PRNGKeyArray:
        shape = physical.shape[:physical.ndim - len(self.physical_shape)]
        return PRNGKeyArray(ShapedArray(shape, self), physical)

    def full(self, shape: tuple[int, ...], fill_value: Any) -> Any:
        """Keys of ``shape``, each ``fill_value``: a key's data, or the uint32 value filling every key's data."""
        from jaxle_random.key_primitives import random_unwrap, random_wrap  # local: they import this module

        data_shape = (*shape, *self.physical_shape)
        if is_key_dtype(getattr(fill_value, "dtype", None)):
            data = jnp.broadcast_to(random_unwrap(fill_value), data_shape)
        else:
            data = lax.full(data_shape, fill_value, np.uint32)
        return random_wrap(data, self._impl)

    def __eq__(self, other: object) -> bool:
        # the same registered implementation, usually the same object: jit dispatch compares dtypes on every call
        return type(other) is KeyTy and (other._impl is self._impl or other._impl == self._impl)

    def __hash__(self) -> int:
        return hash((KeyTy, self._impl.name))


_key_types: dict[PRNGImpl, KeyTy] = {}


def key_type(impl: PRNGImpl) -> KeyTy:
    """The key dtype of ``impl``: one object per implementation, so that the jitted calls taking its keys compare
    their dtypes by identity in jaxlib's C++ dispatch instead of calling ``KeyTy.__eq__``."""
    dtype = _key_types.get(impl)
    if dtype is None:
        dtype = _key_types[impl] = KeyTy(impl)
    return dtype


def is_key_dtype(dtype: Any) -> bool:
    return type(dtype) is KeyTy


class PRNGKeyArray(ExtendedArray):
    """A concrete array of typed keys: ``jax.Array`` with a ``key<...>`` dtype over its uint32 key data."""

    # set by the key-reuse checker (key_reuse.py) only: which keys were consumed, and where first
    __slots__ = ("_consumed", "_consumed_at")

    @property
    def _impl(self) -> PRNGImpl:
        return self.aval.dtype._impl

    def __array__(self, dtype=None, copy=None):
        raise TypeError("JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
                        "jax.random.key_data(arr) if you wish to extract the underlying integer array.")

    def __repr__(self) -> str:
        return f"Array({self.shape}, dtype={self.dtype.name}) overlaying:\n{np.asarray(self.physical)}"

    __str__ = __repr__
    # As for JAX's keys: an empty spec (``f"{key}"``) formats as str(key), any other is a TypeError; Array's own
    # __format__ would read the keys' NumPy value, which they have none of.
    __format__ = object.__format__

    def __reduce__(self):
        return (_rebuild_keys, (self._impl.name, np.asarray(self.physical)))

    def __bool__(self) -> bool:
        raise TypeError("JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
                        "jax.random.key_data(arr) if you wish to extract the underlying integer array.")


def _rebuild_keys(impl_name: str, data: np.ndarray) -> PRNGKeyArray:
    from jaxle_random.keys import wrap_key_data  # local: keys imports this module

    return wrap_key_data(data, impl=impl_name)
