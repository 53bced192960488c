"""Array creation: array/asarray, zeros/ones/full/empty and their _like forms, ranges, grids, eye and tri."""

from __future__ import annotations

__all__: list[str] = []
