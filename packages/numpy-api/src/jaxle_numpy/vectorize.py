"""vectorize, frompyfunc, apply_along_axis, apply_over_axes (built on vmap)."""

from __future__ import annotations

__all__: list[str] = []
