"""Python operators of arrays and tracers, routed through the jnp ufuncs as JAX routes them."""

from __future__ import annotations

__all__: list[str] = []
