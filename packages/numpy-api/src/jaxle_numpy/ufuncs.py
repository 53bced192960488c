"""Elementwise functions (NumPy's ufuncs) and the `jnp.ufunc` objects with reduce/accumulate/outer/at."""

from __future__ import annotations

__all__: list[str] = []
