"""The kinds of memory an array can live in: ``jax.memory.Space``."""

import types

from jaxle_core.memory_spaces import MemorySpace

__all__ = ["MemorySpace", "memory"]

memory = types.SimpleNamespace(Space=MemorySpace)  # JAX's ``jax.memory`` is a namespace, not a module
