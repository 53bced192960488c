"""``jax.experimental``: ``io_callback``."""

from jaxle_core.callbacks import io_callback

__all__ = ["io_callback"]
