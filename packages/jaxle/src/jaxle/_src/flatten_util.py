"""Compatibility shim for ``jax._src.flatten_util`` (see ``jaxle._src``): ``ravel_pytree``, the public
``jax.flatten_util.ravel_pytree`` that blackjax imports from its private home."""

from jaxle.flatten_util import ravel_pytree

__all__ = ["ravel_pytree"]
