"""Set operations: unique and its forms, isin, intersect1d, union1d, setdiff1d, setxor1d."""

from __future__ import annotations

__all__: list[str] = []
