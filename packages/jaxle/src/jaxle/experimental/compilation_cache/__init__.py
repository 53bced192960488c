"""``jax.experimental.compilation_cache``: the persistent compilation cache (see its ``compilation_cache`` module)."""

from jaxle.experimental.compilation_cache import compilation_cache

__all__ = ["compilation_cache"]
