"""User-defined PRNG implementations (``jax.extend.random``) and seeding keys with a given implementation.

A user writes the four key functions for ONE key (``seed(seed)`` gives ``uint32[*key_shape]``,
``split(key, shape)``, ``random_bits(key, bit_width, shape)``, ``fold_in(key, data)``); jaxle's implementations
take keys with any leading shape, so ``define_prng_impl`` maps the user's functions over the leading dimensions
with ``vmap``. The implementation is not registered by name: users hold it as a ``PRNGSpec`` and pass that
(``key(0, impl=spec)``); ``random_seed`` and ``seed_with_impl`` take the implementation itself, as JAX's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxle_core import vmap
from jaxle_random import key_primitives as prims
from jaxle_random.impls import PRNGImpl, PRNGSpec
from jaxle_random.keys import seed_array

__all__ = ["define_prng_impl", "random_seed", "seed_with_impl"]


def _over_leading(function: Callable[..., Any], batch_ndim: int, *arrays: Any) -> Any:
    """``function`` (written for one key or seed) applied to every element of the leading ``batch_ndim``
    dimensions of ``arrays``."""
    for _ in range(batch_ndim):
        function = vmap(function)
    return function(*arrays)


def define_prng_impl(*, key_shape: tuple[int, ...], seed: Callable[[Any], Any],
                     split: Callable[[Any, tuple[int, ...]], Any],
                     random_bits: Callable[[Any, int, tuple[int, ...]], Any], fold_in: Callable[[Any, Any], Any],
                     name: str = "<unnamed>", tag: str = "?") -> PRNGSpec:
    """A PRNG implementation from functions on one key's ``uint32[*key_shape]`` data, usable as
    ``key(seed, impl=...)``; its keys print as ``key<tag>``."""
    key_shape = tuple(key_shape)

    def batch_ndim(keys: Any) -> int:
        return keys.ndim - len(key_shape)

    return PRNGSpec(PRNGImpl(
        key_shape=key_shape,
        seed=lambda seeds: _over_leading(seed, seeds.ndim, seeds),
        split=lambda keys, shape: _over_leading(lambda one: split(one, tuple(shape)), batch_ndim(keys), keys),
        random_bits=lambda keys, bit_width, shape: _over_leading(
            lambda one: random_bits(one, bit_width, tuple(shape)), batch_ndim(keys), keys),
        fold_in=lambda keys, data: _over_leading(fold_in, batch_ndim(keys), keys, data),
        name=name, tag=tag))


def random_seed(seeds: Any, impl: PRNGImpl) -> Any:
    """Typed keys of the implementation ``impl``, one per element of the integer array ``seeds``."""
    if not isinstance(impl, PRNGImpl):  # JAX's error for a name or a PRNGSpec, which hold no seeding function
        raise AttributeError(f"'{type(impl).__name__}' object has no attribute 'seed'")
    return prims.random_seed(seed_array(seeds, "random_seed", scalar=False), impl)


def seed_with_impl(impl: PRNGImpl, seed: Any) -> Any:
    """Typed keys of ``impl`` seeded with ``seed`` (an integer or an integer array)."""
    return random_seed(seed, impl)
