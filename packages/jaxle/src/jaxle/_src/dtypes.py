"""Compatibility shim for ``jax._src.dtypes`` (see ``jaxle._src``): ``TypePromotionError``, the error of a
promotion the ``jax_numpy_dtype_promotion`` setting forbids (equinox catches it)."""

from jaxle_core.dtypes import TypePromotionError

__all__ = ["TypePromotionError"]
