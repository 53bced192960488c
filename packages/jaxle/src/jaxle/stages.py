"""``jax.stages``: the stages of ``jit``: traced, lowered, compiled."""

from jaxle_core.jit import Compiled, Lowered, Traced

__all__ = ["Compiled", "Lowered", "Traced"]
