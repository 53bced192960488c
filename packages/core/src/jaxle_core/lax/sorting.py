"""Sorting: sort over several operands, and top_k."""

from __future__ import annotations

__all__: list[str] = []
