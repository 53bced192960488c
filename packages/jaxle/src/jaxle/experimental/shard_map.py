"""``jax.experimental.shard_map``: the former home of ``shard_map``, which JAX 0.10.2 still serves with a
deprecation warning (use ``jaxle.shard_map``)."""

import warnings
from typing import Any

from jaxle_core.shard_map import shard_map as _shard_map

__all__: list[str] = []


def __getattr__(name: str) -> Any:
    if name == "shard_map":
        warnings.warn("jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map instead.",
                      DeprecationWarning, stacklevel=2)
        return _shard_map
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
