"""Dtype objects and scalar types (`jnp.float32(3)` is an Array), finfo/iinfo and the dtype queries."""

from __future__ import annotations

__all__: list[str] = []
