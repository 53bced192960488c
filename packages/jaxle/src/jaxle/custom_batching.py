"""``jax.custom_batching``: functions with their own batching rule (jaxle-core's)."""

from jaxle_core.custom_batching import custom_vmap, sequential_vmap

__all__ = ["custom_vmap", "sequential_vmap"]
