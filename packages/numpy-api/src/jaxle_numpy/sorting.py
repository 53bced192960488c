"""Sorting and searching: sort, argsort, lexsort, partition, searchsorted, nonzero-like queries."""

from __future__ import annotations

__all__: list[str] = []
