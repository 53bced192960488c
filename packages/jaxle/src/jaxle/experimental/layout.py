"""``jax.experimental.layout``: arrays' layouts in memory (``Layout``) and with their shardings (``Format``)."""

from jaxle_core.layout import Format, Layout

__all__ = ["Format", "Layout"]
