"""Compatibility shim for ``jax._src.core`` (see ``jaxle._src``): ``trace_state_clean()`` tells whether the caller
runs outside every transformation, as numpyro asks before caching functions that could close over tracers."""

from jaxle_core import core

__all__ = ["trace_state_clean"]


def trace_state_clean() -> bool:
    """Whether no transformation (``jit``, ``vmap``, ``grad``, ...) is running: ``False`` inside one, even within
    an ``ensure_compile_time_eval`` block there."""
    return core.is_top_level()
