"""The kinds of memory an array can live in: ``jax.memory.Space``."""

import enum
import types

__all__ = ["MemorySpace", "memory"]


class MemorySpace(enum.Enum):
    """Where an array's buffer lives: device memory, host memory, or any."""

    Device = enum.auto()
    Host = enum.auto()
    Any = enum.auto()

    def __repr__(self) -> str:
        return f"MemorySpace.{self.name}"

    __str__ = __repr__


memory = types.SimpleNamespace(Space=MemorySpace)  # JAX's ``jax.memory`` is a namespace, not a module
