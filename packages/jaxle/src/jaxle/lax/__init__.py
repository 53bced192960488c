"""``jax.lax``: jaxle-core's lax namespace."""

from jaxle_core.lax import *  # noqa: F403


def __getattr__(name: str):
    # Names JAX 0.10.2 removed answer with its message pointing to their replacement.
    if name == "pvary":
        raise AttributeError("jax.lax.pvary was deprecated in JAX v0.8.2 and removed in JAX v0.10.0; use "
                             "`jax.lax.pcast(..., to='varying')")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
