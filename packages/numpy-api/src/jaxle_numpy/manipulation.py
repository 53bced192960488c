"""Shape manipulation: reshape, transpose, concatenation, splitting, padding, flipping, rolling, repeating."""

from __future__ import annotations

__all__: list[str] = []
