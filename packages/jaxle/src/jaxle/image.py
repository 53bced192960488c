"""``jax.image``: resizing (jaxle-numpy's ``jaxle_numpy.image``)."""

from jaxle_numpy.image import ResizeMethod, resize, scale_and_translate

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]
