"""``jax.experimental.compilation_cache.compilation_cache``: where compiled programs are saved for later processes
(``set_cache_dir``, the same as setting ``jax_compilation_cache_dir``) and ``reset_cache``."""

from jaxle_xla.compilation_cache import reset_cache, set_cache_dir

__all__ = ["reset_cache", "set_cache_dir"]
